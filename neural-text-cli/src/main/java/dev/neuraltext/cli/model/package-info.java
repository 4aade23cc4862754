/**
 * The tool's dense model: the presets the {@code --model} option accepts, the default, and loading one or saying why
 * it cannot ({@link dev.neuraltext.cli.model.DenseModel}), for the command line and the MCP server alike.
 *
 * <p>Dependencies: neural-text-core and neural-text-onnx only; never {@code dev.neuraltext.cli} nor
 * {@code dev.neuraltext.mcp}, which both import it.
 */
package dev.neuraltext.cli.model;
