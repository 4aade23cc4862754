/**
 * Turning files into chunks to index, and keeping an index in step with a folder.
 *
 * <ul>
 *   <li>{@link dev.neuraltext.ingest.JavaSourceChunker}: one chunk per method and constructor (Javadoc kept) and one
 *       per type, with symbol metadata; {@link dev.neuraltext.ingest.MarkdownChunker}: one chunk per heading section,
 *       front matter as metadata; {@link dev.neuraltext.ingest.PlainTextChunker}: token windows with overlap.</li>
 *   <li>{@link dev.neuraltext.ingest.DirectoryIngestor}: walks a folder with include/exclude globs, {@code .gitignore},
 *       test-source, size, binary and symlink rules, and picks the chunker per file.</li>
 *   <li>{@link dev.neuraltext.ingest.IncrementalIndexer} with {@link dev.neuraltext.ingest.IndexManifest}: re-chunks
 *       and re-indexes only changed files, deletes the chunks of deleted ones.</li>
 * </ul>
 *
 * <p>Dependencies: {@code chunk}, {@code path}, {@code internal}, JavaParser, commonmark and SnakeYAML. No other
 * package of neural-text-core imports it; the CLI, the tool server and applications do.
 */
package dev.neuraltext.ingest;
