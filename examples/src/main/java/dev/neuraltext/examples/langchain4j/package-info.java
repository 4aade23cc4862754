/**
 * neural-text as a LangChain4j {@code ContentRetriever}: {@link dev.neuraltext.langchain4j.NeuralTextContentRetriever},
 * and {@link dev.neuraltext.examples.langchain4j.LangChain4jRagExample}, which prints the prompt a
 * {@code DefaultRetrievalAugmentor} builds with it.
 */
package dev.neuraltext.examples.langchain4j;
