/**
 * {@link dev.neuraltext.examples.bench.AdapterOverheadBenchmark}: what the LangChain4j and Spring AI adapters cost per
 * call against calling the retriever directly. Here because it needs both adapter modules, as a user's project would.
 */
package dev.neuraltext.examples.bench;
