/**
 * What the installed {@code neural-text} tool contains and how a user adds to it: {@link
 * dev.neuraltext.cli.install.ModelJars}, the dense models it bundles and the jar to add for any other. Used by the
 * commands, the MCP server and {@code eval}; depends on the library modules only.
 */
package dev.neuraltext.cli.install;
