/**
 * The values of one search: the user's {@link dev.neuraltext.search.SearchRequest}, the store-level
 * {@link dev.neuraltext.search.HybridQuery} it becomes, and the {@link dev.neuraltext.search.SearchResponse} of
 * {@link dev.neuraltext.search.SearchHit}s with its timings. Immutable records, validated on construction. And the
 * answer as a reader that pays per token gets it: {@link dev.neuraltext.search.AnswerPacker} packs a response into a
 * {@link dev.neuraltext.search.TokenCount} budget ({@link dev.neuraltext.search.PackedAnswer}).
 *
 * <p>Dependencies: {@code chunk} (metadata keys), {@code encode}, {@code filter}, {@code fusion}, {@code internal},
 * {@code text} (the tokenizer the packer matches lines with). Imported by {@code store},
 * {@code retrieve}, the Qdrant module and the adapters.
 */
package dev.neuraltext.search;
