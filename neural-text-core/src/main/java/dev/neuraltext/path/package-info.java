/**
 * What a path relative to a repository's root says: {@link dev.neuraltext.path.PathGlob}, the one glob syntax of
 * include and exclude options, the tool server's {@code path} argument and {@code .gitignore} files; and
 * {@link dev.neuraltext.path.LanguageTable}, the one table of languages (extensions, file names, shebang
 * interpreters, chunker, test sources) and path kinds (test, example, vendored, generated, ...), read from
 * {@code languages.yaml}.
 *
 * <p>Dependencies: SnakeYAML only. Imported by {@code ingest}, {@code retrieve}, the syntax-tree chunker and the tool
 * server.
 */
package dev.neuraltext.path;
