/**
 * {@code neural-text mcp}: a Model Context Protocol server on stdio (tools {@code search}, {@code get},
 * {@code status}, {@code reindex}) over an index kept up to date while it serves. Module {@code neural-text-cli};
 * may depend on {@link dev.neuraltext.cli.results} and {@link dev.neuraltext.cli.model} (what it shares with the
 * command line) and the MCP Java SDK, never on {@code dev.neuraltext.cli}, which registers its command.
 */
package dev.neuraltext.mcp;
