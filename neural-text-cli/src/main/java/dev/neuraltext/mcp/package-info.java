/**
 * {@code neural-text mcp}: a Model Context Protocol server on stdio (tools {@code search}, {@code get},
 * {@code status}, {@code reindex}) over an index kept up to date while it serves. Module {@code neural-text-cli};
 * may depend on {@link dev.neuraltext.cli} and the MCP Java SDK.
 */
package dev.neuraltext.mcp;
