/**
 * What the installable tool needs of the machine and says when it has less: {@link
 * dev.neuraltext.cli.limits.HeapNeed}, the Java heap indexing a folder needs. Used by the command line and the MCP
 * server; imports only the core library.
 */
package dev.neuraltext.cli.limits;
