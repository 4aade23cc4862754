/**
 * {@link dev.neuraltext.examples.langchain4j.LangChain4jRagExample}: the prompt a {@code DefaultRetrievalAugmentor}
 * builds with {@link dev.neuraltext.langchain4j.NeuralTextContentRetriever} (module {@code neural-text-langchain4j}).
 */
package dev.neuraltext.examples.langchain4j;
