/**
 * Text analysis for code: {@link dev.neuraltext.text.CodeDomainTokenizer} (identifiers emitted as compound plus parts:
 * {@code ChatModel} becomes {@code chatmodel chat model}) and {@link dev.neuraltext.text.CamelCaseExpander} (the same
 * splitting as text, for engines whose tokenizer cannot be changed).
 *
 * <p>Dependencies: {@code internal} only. Imported by {@code bm25}, {@code store}, {@code retrieve} and the Qdrant
 * module.
 */
package dev.neuraltext.text;
