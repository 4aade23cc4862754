/**
 * neural-text as a Spring AI {@code DocumentRetriever}: {@link dev.neuraltext.springai.NeuralTextDocumentRetriever}.
 * Module {@code neural-text-spring-ai}; may depend on {@code neural-text-core} and {@code spring-ai-rag} only (versions
 * from {@code spring-ai-bom}; no model, no logging binding, no other framework): a Spring AI application adds this one
 * artifact.
 */
package dev.neuraltext.springai;
