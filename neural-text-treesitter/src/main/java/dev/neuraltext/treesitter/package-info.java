/**
 * Syntax-tree chunks for the languages beyond Java and Markdown, on tree-sitter (JNI; the native libraries for
 * Linux, macOS and Windows on x86_64 and aarch64 come inside the grammar jars). {@link
 * dev.neuraltext.treesitter.SyntaxTreeChunker} is the chunker; {@link
 * dev.neuraltext.treesitter.TreeSitterChunkerProvider} registers it with core's {@code DirectoryIngestor} through
 * {@code java.util.ServiceLoader}. The per-language rules are data: {@code syntax-rules.yaml} in this package, one
 * entry per language that core's {@code LanguageTable} marks {@code chunker: syntax}.
 */
package dev.neuraltext.treesitter;
