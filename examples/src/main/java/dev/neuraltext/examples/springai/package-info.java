/**
 * neural-text as a Spring AI {@code DocumentRetriever}: {@link dev.neuraltext.springai.NeuralTextDocumentRetriever},
 * and {@link dev.neuraltext.examples.springai.SpringAiRagExample}, which prints the prompt a
 * {@code RetrievalAugmentationAdvisor} builds with it.
 */
package dev.neuraltext.examples.springai;
