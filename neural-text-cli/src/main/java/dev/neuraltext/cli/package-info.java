/**
 * The {@code neural-text} command ({@link dev.neuraltext.cli.NeuralTextCli}): {@code index}, {@code search},
 * {@code demo}, {@code eval}, {@code bench} and {@code mcp}, with the index session they share. Module
 * {@code neural-text-cli}, the installable tool ({@code neural-text-<version>.zip} / {@code .tar.gz}); may depend on
 * every library module of this project, picocli, and at run time on {@code slf4j-simple}: the only logging binding of
 * the build. Nothing depends on this module but the never-shipped {@code neural-text-lab}; it is not a library. What
 * the commands share with the MCP server lives in {@code cli.results} and {@code cli.model}, so that
 * {@code dev.neuraltext.mcp} never imports this package.
 */
package dev.neuraltext.cli;
