/**
 * {@code neural-text bench}: performance against peers in the same run (BM25 vs Lucene, embedding vs LangChain4j,
 * the embedded store at scale vs Lucene BM25 and HNSW), reported as ratios. Module {@code neural-text-cli}; may depend
 * on the peers of {@link dev.neuraltext.cli.eval} and Lucene; never used by the libraries.
 */
package dev.neuraltext.cli.bench;
