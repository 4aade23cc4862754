/**
 * How search results are shown, the same for the command line ({@code neural-text search}, {@code demo}) and the MCP
 * server's tools: ranked hits with snippets and their stable JSON shape ({@link dev.neuraltext.cli.results.HitFormatter}),
 * and results grouped by file ({@link dev.neuraltext.cli.results.FileResults}).
 *
 * <p>Dependencies: neural-text-core and Jackson only; never {@code dev.neuraltext.cli} nor {@code dev.neuraltext.mcp},
 * which both import it (so the two front ends share it without a package cycle).
 */
package dev.neuraltext.cli.results;
