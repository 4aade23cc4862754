/**
 * The evaluation harness behind {@code neural-text eval}: neural-text techniques and peers (Lucene BM25, LangChain4j
 * all-MiniLM-L6-v2) run on one BEIR dataset and scored by the same metric code ({@link dev.neuraltext.eval}), with
 * latency, indexing throughput, head-to-head tests and Markdown, JSON and HTML reports. Module {@code neural-text-cli};
 * may depend on core's {@code eval}, Lucene and LangChain4j's embeddings (the peers); never used by the libraries.
 */
package dev.neuraltext.cli.eval;
