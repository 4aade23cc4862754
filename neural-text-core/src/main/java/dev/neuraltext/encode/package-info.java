/**
 * The model SPIs: {@link dev.neuraltext.encode.Embedder} (dense vectors), {@link dev.neuraltext.encode.SparseEncoder}
 * (SPLADE-style sparse vectors, {@link dev.neuraltext.encode.SparseVector}) and
 * {@link dev.neuraltext.encode.Reranker} (cross-encoder scores), with {@link dev.neuraltext.encode.TextRole} telling
 * queries from documents. Implementations live in neural-text-onnx or in users' code.
 *
 * <p>Dependencies: {@code internal} only. Imported by {@code search}, {@code store}, {@code retrieve} and the model
 * modules.
 */
package dev.neuraltext.encode;
