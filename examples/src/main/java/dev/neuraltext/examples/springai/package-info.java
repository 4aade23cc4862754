/**
 * {@link dev.neuraltext.examples.springai.SpringAiRagExample}: the prompt a {@code RetrievalAugmentationAdvisor}
 * builds with {@link dev.neuraltext.springai.NeuralTextDocumentRetriever} (module {@code neural-text-spring-ai}).
 */
package dev.neuraltext.examples.springai;
