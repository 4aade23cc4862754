package dev.neuraltext.path;

import java.util.List;
import java.util.Objects;

/**
 * One language of the {@link LanguageTable}: how its files are recognised and chunked.
 *
 * @param id           the language id, the {@code language} metadata of its chunks ({@code kotlin}, {@code markdown})
 * @param extensions   file-name extensions, lower case, without the dot
 * @param names        names of extensionless files, lower case ({@code makefile}, {@code gemfile})
 * @param interpreters shebang commands; a trailing {@code *} matches any ending, {@code *} alone every command
 * @param chunking     which chunker reads its files
 * @param prose        whether it is documentation (plain-text chunks of it are {@code type: doc})
 * @param tests        file-name globs ({@link PathGlob}) of its test sources
 * @param headers      those of its extensions that are declaration headers ({@code h} for C)
 */
public record Language(String id, List<String> extensions, List<String> names, List<String> interpreters,
        Chunking chunking, boolean prose, List<String> tests, List<String> headers) {

    /** Which chunker reads a language's files. */
    public enum Chunking {
        /** JavaParser: types and members. */
        JAVA,
        /** commonmark: sections. */
        MARKDOWN,
        /** The {@code SyntaxChunkerProvider} on the class path (neural-text-treesitter); plain text without one. */
        SYNTAX,
        /** Plain-text windows. */
        TEXT
    }

    /** Validates and copies. */
    public Language {
        Objects.requireNonNull(id, "id");
        extensions = List.copyOf(extensions);
        names = List.copyOf(names);
        interpreters = List.copyOf(interpreters);
        Objects.requireNonNull(chunking, "chunking");
        tests = List.copyOf(tests);
        headers = List.copyOf(headers);
        if (!extensions.containsAll(headers)) {
            throw new IllegalArgumentException(id + ": headers " + headers + " must be among its extensions "
                    + extensions);
        }
    }
}
