/**
 * Lexical retrieval: {@link dev.neuraltext.bm25.Bm25Index}, an in-process BM25F inverted index over
 * {@link dev.neuraltext.text.CodeDomainTokenizer} terms with per-field weights, its parameters
 * ({@link dev.neuraltext.bm25.Bm25Params}), the formula ({@link dev.neuraltext.bm25.Bm25FScorer}), score explanations
 * ({@link dev.neuraltext.bm25.Bm25Explanation}) and a registry of one index per name. The index keeps no metadata: it
 * filters by a predicate over ids, the store keeps the payloads.
 *
 * <p>Dependencies: {@code text}, {@code chunk} (field names), {@code fusion}, {@code internal}. Imported by
 * {@code store}; the Qdrant module uses its scorer for client-side BM25.
 */
package dev.neuraltext.bm25;
