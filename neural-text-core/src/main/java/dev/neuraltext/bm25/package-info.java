/**
 * Lexical retrieval: {@link dev.neuraltext.bm25.Bm25Index}, an in-process BM25F inverted index over
 * {@link dev.neuraltext.text.CodeDomainTokenizer} terms with per-field weights, its parameters
 * ({@link dev.neuraltext.bm25.Bm25Params}) and a registry of one index per name.
 *
 * <p>Dependencies: {@code text}, {@code filter}, {@code fusion}, {@code internal}. Imported by {@code store}; the
 * Qdrant module uses its scoring for client-side BM25.
 */
package dev.neuraltext.bm25;
