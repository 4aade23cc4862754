package dev.neuraltext.ingest;

import dev.neuraltext.chunk.Chunker;
import java.util.Set;

/**
 * A source of syntax-tree chunkers for languages beyond Java and Markdown, found by {@link DirectoryIngestor} with
 * {@link java.util.ServiceLoader} when its module (for example {@code neural-text-treesitter}) is on the class path.
 * Without one, files of those languages are indexed as plain-text windows, with one warning per ingestor.
 *
 * <p>Implementations need a public no-argument constructor and a {@code META-INF/services} entry; they are safe
 * for concurrent use, and so are the chunkers they create.
 */
public interface SyntaxChunkerProvider {

    /**
     * The languages this provider chunks by syntax tree, named as {@link DirectoryIngestor#languageOf(String)} names
     * them ({@code kotlin}, {@code python}, {@code typescript}, ...).
     */
    Set<String> languages();

    /**
     * A chunker for files of {@link #languages()} (the language is the document's {@code language} metadata). For a
     * file it cannot chunk (the native parser does not load, parsing fails or runs out of its time budget) it logs
     * one warning naming the file and the cause and returns {@code fallback}'s chunks.
     */
    Chunker create(PlainTextChunker fallback);

    /**
     * A version string recorded in index manifests ({@link DirectoryIngestor#chunkingConfiguration()}): when it
     * changes, every file is re-chunked. It names the chunker's rules and parser versions.
     */
    String version();
}
