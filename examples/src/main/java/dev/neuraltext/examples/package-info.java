/**
 * Example mains, each using the published modules as a user's project would:
 * {@link dev.neuraltext.examples.QuickStart}, {@link dev.neuraltext.examples.CodeSearchExample},
 * {@link dev.neuraltext.examples.QdrantHybridExample}. Module {@code examples}, which is not published; the command
 * line is in {@code neural-text-cli}.
 */
package dev.neuraltext.examples;
