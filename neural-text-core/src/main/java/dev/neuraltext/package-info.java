/**
 * neural-text: embeddable hybrid retrieval over source code and technical text.
 *
 * <p>Start with {@link dev.neuraltext.retrieve.HybridCaseRetriever}.
 */
package dev.neuraltext;
