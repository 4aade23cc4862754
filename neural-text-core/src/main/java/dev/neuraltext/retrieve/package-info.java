/**
 * The entry point: {@link dev.neuraltext.retrieve.HybridCaseRetriever} indexes chunks through the encoders into a
 * store and answers requests (query analysis and automatic fusion, the store's fused legs, an optional rerank,
 * {@link dev.neuraltext.retrieve.AdaptiveExtension}).
 *
 * <p>Dependencies: every package above except {@code ingest} and {@code eval}. Imported by applications, the CLI,
 * the tool server and the framework adapters.
 */
package dev.neuraltext.retrieve;
