/** Dense embedders, SPLADE encoder and cross-encoder reranker on ONNX Runtime. */
package dev.neuraltext.onnx;
