/**
 * The values of one search: the user's {@link dev.neuraltext.search.SearchRequest}, the store-level
 * {@link dev.neuraltext.search.HybridQuery} it becomes, and the {@link dev.neuraltext.search.SearchResponse} of
 * {@link dev.neuraltext.search.SearchHit}s with its timings. Immutable records, validated on construction.
 *
 * <p>Dependencies: {@code encode}, {@code filter}, {@code fusion}, {@code internal}. Imported by {@code store},
 * {@code retrieve}, the Qdrant module and the adapters.
 */
package dev.neuraltext.search;
