/**
 * neural-text as a LangChain4j {@code ContentRetriever}: {@link dev.neuraltext.langchain4j.NeuralTextContentRetriever}.
 * Module {@code neural-text-langchain4j}; may depend on {@code neural-text-core} and {@code langchain4j-core} only
 * (no model, no logging binding, no other framework): a LangChain4j application adds this one artifact.
 */
package dev.neuraltext.langchain4j;
