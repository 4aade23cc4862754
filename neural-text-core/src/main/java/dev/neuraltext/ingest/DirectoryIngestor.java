package dev.neuraltext.ingest;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.internal.ControlChars;
import dev.neuraltext.path.Language;
import dev.neuraltext.path.LanguageTable;
import dev.neuraltext.path.PathGlob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks a folder and turns its files into chunks, each file by the chunker its language has in the
 * {@link LanguageTable}: Java with {@link JavaSourceChunker}, Markdown with {@link MarkdownChunker}, the languages of
 * {@link #SYNTAX_LANGUAGES} (Kotlin, Python, TypeScript, Go, Rust, C, ...) with the {@link SyntaxChunkerProvider} on
 * the class path ({@code neural-text-treesitter}) or, without one, as plain text with one warning; other text files
 * of the table (text, XML, YAML, properties, build files such as {@code pom.xml} and {@code *.gradle}, Zig, ...) with
 * {@link PlainTextChunker}. A file without an extension ({@code Dockerfile}, {@code Makefile}, {@code mvnw}, a script
 * with a shebang line) is indexed as text when its content is well-formed UTF-8; its language is the table's for its
 * name, else for the shebang's interpreter ({@code shell}, {@code python}, ..., {@code script}), else {@code text}.
 *
 * <p>What it skips, each counted by {@link SkipReason}: hidden files and directories ({@code .git}, {@code .idea},
 * the index folder {@code .neural-text}); anything a {@code .gitignore} in the tree ignores (see the supported subset
 * on {@code GitIgnore}: patterns, {@code !} negation, directory-only rules, nested files), and anything a
 * {@code .neural-textignore} ignores (the same syntax, read after the {@code .gitignore} of its folder, so that its
 * {@code !} rules can take back what git ignores; honoured also without {@code .gitignore}); exclude globs and, when
 * include globs are given, files matching none of them; test sources unless {@link Builder#withTests(boolean)}
 * ({@link #DEFAULT_TEST_PATTERNS}); files of unknown type; files over the size limit (default 1 MiB); binary files
 * (NUL bytes in the first 8 KiB); symbolic links (those escaping the root are refused and logged; those inside are
 * skipped, their targets being indexed under their own path).
 *
 * <p>Include and exclude patterns are {@link PathGlob}s, as in {@code .gitignore}: a pattern without {@code /}
 * matches a name at any depth ({@code *.md}, {@code generated}), one with a {@code /} at its start or middle the
 * path relative to the root ({@code src/main}, {@code /build}); a trailing {@code /} takes folders only; a pattern
 * that matches a folder takes everything in it; {@code **} crosses folders, {@code {a,b}} alternates.
 *
 * <p>Chunk metadata gets {@code path} (relative, forward slashes) and {@code language}. Immutable and safe for
 * concurrent use; the file system is read at each call.
 */
public final class DirectoryIngestor {

    private static final Logger LOG = LoggerFactory.getLogger(DirectoryIngestor.class);

    /** Default size limit per file: 1 MiB. */
    public static final long DEFAULT_MAX_FILE_BYTES = 1L << 20;

    private static final LanguageTable TABLE = LanguageTable.standard();

    /**
     * Test sources, excluded by default: the {@link LanguageTable}'s test-source rules ({@code **}{@code /src/test/**},
     * {@code **}{@code /tests/**}, ..., then each language's: {@code *Test.java}, {@code test_*.py}, {@code *_test.go},
     * ...).
     */
    public static final List<String> DEFAULT_TEST_PATTERNS = TABLE.testSourceRules();

    /**
     * Languages chunked by a {@link SyntaxChunkerProvider} when one is on the class path (else as plain text): the
     * {@link LanguageTable}'s languages whose chunker is {@code syntax}.
     */
    public static final java.util.Set<String> SYNTAX_LANGUAGES = TABLE.syntaxLanguages();

    private static final int BINARY_PROBE = 8192;

    private final Path root;
    private final Path realRoot;
    private final List<PathGlob> includes;
    private final List<PathGlob> excludes;
    private final boolean withTests;
    private final boolean gitignore;
    private final long maxFileBytes;
    private final JavaSourceChunker javaChunker;
    private final MarkdownChunker markdownChunker;
    private final PlainTextChunker textChunker;
    private final SyntaxChunkers syntaxChunkers;

    private DirectoryIngestor(Builder b) throws IOException {
        this.root = b.root.toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("root must be an existing directory, got " + b.root);
        }
        this.realRoot = root.toRealPath();
        this.includes = b.includes.stream().map(PathGlob::of).toList();
        this.excludes = b.excludes.stream().map(PathGlob::of).toList();
        this.withTests = b.withTests;
        this.gitignore = b.gitignore;
        this.maxFileBytes = b.maxFileBytes;
        this.textChunker = b.textChunker;
        this.javaChunker = new JavaSourceChunker(b.textChunker);
        this.markdownChunker = b.markdownChunker;
        this.syntaxChunkers = SyntaxChunkers.load(b.textChunker);
    }

    /** A builder for the folder {@code root}. */
    public static Builder builder(Path root) {
        return new Builder(root);
    }

    /** The root folder, absolute and normalised. */
    public Path root() {
        return root;
    }

    /**
     * Walks the tree: classifies every entry, reads and hashes every candidate file (to detect binaries and for
     * incremental indexing).
     *
     * @throws NonRetriableNeuralTextException if the root cannot be listed
     */
    public ScanResult scan() {
        List<SourceFile> files = new ArrayList<>();
        List<SkippedFile> skipped = new ArrayList<>();
        try {
            walk(root, "", new ArrayList<>(), files, skipped);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot list " + root + ": " + e.getMessage(), e);
        }
        files.sort(java.util.Comparator.comparing(SourceFile::path));
        if (!files.isEmpty() || !skipped.isEmpty()) {
            for (PathGlob g : includes) {
                if (files.stream().noneMatch(f -> g.matches(f.path()))) {
                    LOG.warn("include pattern '{}' matches no indexable file under {}", ControlChars.escapeLine(
                            g.pattern()), root);
                }
            }
        }
        return new ScanResult(files, skipped);
    }

    private void walk(Path dir, String rel, List<GitIgnore> ignores, List<SourceFile> files,
            List<SkippedFile> skipped) throws IOException {
        List<GitIgnore> scope = ignores;
        // .gitignore (when honoured), then .neural-textignore, which may also re-include what git ignores
        for (String name : gitignore ? List.of(GitIgnore.GITIGNORE, GitIgnore.NEURAL_TEXT_IGNORE)
                : List.of(GitIgnore.NEURAL_TEXT_IGNORE)) {
            Path gi = dir.resolve(name);
            if (Files.isRegularFile(gi, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    GitIgnore rules = GitIgnore.parse(rel, Files.readString(gi, StandardCharsets.UTF_8), name);
                    scope = new ArrayList<>(scope);
                    scope.add(rules);
                } catch (IOException | java.io.UncheckedIOException e) {
                    LOG.warn("cannot read {}: {}", gi, e.toString());
                }
            }
        }
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                entries.add(p);
            }
        } catch (IOException e) {
            if (dir.equals(root)) {
                throw e;
            }
            skipped.add(new SkippedFile(rel + "/", SkipReason.UNREADABLE, e.toString()));
            return;
        }
        entries.sort(java.util.Comparator.comparing(p -> p.getFileName().toString()));
        for (Path p : entries) {
            String name = p.getFileName().toString();
            String path = rel.isEmpty() ? name : rel + "/" + name;
            BasicFileAttributes attrs;
            try {
                attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                skipped.add(new SkippedFile(path, SkipReason.UNREADABLE, e.toString()));
                continue;
            }
            boolean dirEntry = attrs.isDirectory();
            String shown = dirEntry ? path + "/" : path;
            if (name.startsWith(".")) {
                skipped.add(new SkippedFile(shown, SkipReason.HIDDEN, ""));
                continue;
            }
            if (attrs.isSymbolicLink()) {
                skipped.add(symlink(p, path));
                continue;
            }
            if (!dirEntry && !attrs.isRegularFile()) {
                skipped.add(new SkippedFile(path, SkipReason.UNSUPPORTED_TYPE, "not a regular file"));
                continue;
            }
            GitIgnore ignoredBy = GitIgnore.ignoredBy(scope, path, dirEntry);
            if (ignoredBy != null) {
                skipped.add(ignoredBy.fileName().equals(GitIgnore.GITIGNORE)
                        ? new SkippedFile(shown, SkipReason.GITIGNORED, "")
                        : new SkippedFile(shown, SkipReason.EXCLUDED, GitIgnore.NEURAL_TEXT_IGNORE));
                continue;
            }
            PathGlob ex = firstMatch(excludes, path, dirEntry);
            if (ex != null) {
                skipped.add(new SkippedFile(shown, SkipReason.EXCLUDED, ex.pattern()));
                continue;
            }
            if (!withTests) {
                java.util.Optional<String> t = TABLE.testSourceRule(path, dirEntry);
                if (t.isPresent()) {
                    skipped.add(new SkippedFile(shown, SkipReason.TEST_SOURCE, t.get()));
                    continue;
                }
            }
            if (dirEntry) {
                walk(p, path, scope, files, skipped);
                continue;
            }
            if (!includes.isEmpty() && firstMatch(includes, path, false) == null) {
                skipped.add(new SkippedFile(path, SkipReason.EXCLUDED, "matches no include pattern"));
                continue;
            }
            String language = languageOf(name);
            boolean probe = language == null && isExtensionless(name);
            if (language == null && !probe) {
                skipped.add(new SkippedFile(path, SkipReason.UNSUPPORTED_TYPE, ""));
                continue;
            }
            if (attrs.size() > maxFileBytes) {
                skipped.add(new SkippedFile(path, SkipReason.TOO_LARGE, attrs.size() + " bytes > " + maxFileBytes));
                continue;
            }
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(p);
            } catch (IOException e) {
                skipped.add(new SkippedFile(path, SkipReason.UNREADABLE, e.toString()));
                continue;
            }
            if (isBinary(bytes)) {
                skipped.add(new SkippedFile(path, SkipReason.BINARY, ""));
                continue;
            }
            if (probe) {
                language = extensionlessLanguage(bytes);
                if (language == null) {
                    skipped.add(new SkippedFile(path, SkipReason.UNSUPPORTED_TYPE, "no extension and not UTF-8 text"));
                    continue;
                }
            }
            files.add(new SourceFile(path, p, language, bytes.length, sha256(bytes)));
        }
    }

    private SkippedFile symlink(Path link, String path) {
        try {
            Path target = link.toRealPath();
            if (!target.startsWith(realRoot)) {
                LOG.warn("refused symlink {} -> {}: it escapes the root {}", ControlChars.escapeLine(path),
                        ControlChars.escapeLine(String.valueOf(target)), realRoot);
                return new SkippedFile(path, SkipReason.OUTSIDE_ROOT, target.toString());
            }
            return new SkippedFile(path, SkipReason.SYMLINK, realRoot.relativize(target).toString().replace('\\', '/'));
        } catch (IOException e) {
            return new SkippedFile(path, SkipReason.UNREADABLE, "broken symlink: " + e.getMessage());
        }
    }

    private static PathGlob firstMatch(List<PathGlob> globs, String path, boolean folder) {
        for (PathGlob g : globs) {
            if (folder ? g.matchesFolder(path) : g.matches(path)) {
                return g;
            }
        }
        return null;
    }

    /**
     * The language {@code index} gives a file of this name ({@code java}, {@code markdown}, {@code text}, or a
     * file-type name such as {@code xml}; see {@link ChunkMetadata#LANGUAGE}), or null when no chunker handles it:
     * {@link LanguageTable#languageOf(String)}. The language picks the chunker: {@code java} the Java chunker,
     * {@code markdown} the Markdown one, those of {@link #SYNTAX_LANGUAGES} the syntax-tree chunker when one is on the
     * class path, the rest plain text.
     *
     * @throws NullPointerException if {@code fileName} is null
     */
    public static String languageOf(String fileName) {
        return TABLE.languageOf(fileName);
    }

    /** A name without an extension ({@code mvnw}, {@code Jenkinsfile}): its content decides whether it is text. */
    static boolean isExtensionless(String fileName) {
        return fileName.indexOf('.') < 0;
    }

    /**
     * The language of an extensionless file from its content: the interpreter of a shebang line ({@code #!/bin/sh}
     * and {@code #!/usr/bin/env python3} give {@code shell} and {@code python}), {@code text} for other well-formed
     * UTF-8, or null (not text).
     */
    static String extensionlessLanguage(byte[] bytes) {
        if (!isUtf8(bytes)) {
            return null;
        }
        if (bytes.length > 2 && bytes[0] == '#' && bytes[1] == '!') {
            int end = 2;
            while (end < bytes.length && end < 256 && bytes[end] != '\n') {
                end++;
            }
            String[] words = new String(bytes, 2, end - 2, StandardCharsets.UTF_8).strip().split("\\s+");
            String command = words[0].substring(words[0].lastIndexOf('/') + 1);
            if (command.equals("env") && words.length > 1) {
                command = words[words.length > 2 && words[1].startsWith("-") ? 2 : 1];
            }
            return TABLE.interpreterLanguage(command.toLowerCase(Locale.ROOT));
        }
        return "text";
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }

    /** Reads the file again and chunks it with the chunker for its language. */
    public FileChunks chunk(SourceFile file) {
        Objects.requireNonNull(file, "file");
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file.file());
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot read " + file.path() + ": " + e.getMessage(), e);
        }
        String text = decode(file.path(), bytes);
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put(ChunkMetadata.PATH, file.path());
        meta.put(ChunkMetadata.LANGUAGE, file.language());
        ExtractionResult doc = new ExtractionResult(file.path(), text, meta, Map.of());
        Language.Chunking chunking = TABLE.language(file.language()).map(Language::chunking)
                .orElse(Language.Chunking.TEXT);
        Chunker chunker = switch (chunking) {
            case JAVA -> javaChunker;
            case MARKDOWN -> markdownChunker;
            case SYNTAX -> syntaxChunkers.chunkerFor(file.language()).orElse(textChunker);
            case TEXT -> textChunker;
        };
        return new FileChunks(file, sha256(bytes), chunker.chunk(doc));
    }

    /**
     * The chunks of one file.
     *
     * @param file        the file
     * @param contentHash SHA-256 of the content that was chunked (may differ from the scan's if the file changed since)
     * @param chunks      its chunks
     */
    public record FileChunks(SourceFile file, String contentHash, List<ChunkInput> chunks) {
        public FileChunks {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(contentHash, "contentHash");
            chunks = List.copyOf(chunks);
        }
    }

    /** A description of the chunking configuration, recorded in index manifests: a change re-chunks every file. */
    public String chunkingConfiguration() {
        return "chunkers-v2 " + textChunker + " " + markdownChunker + " syntax=" + syntaxChunkers.version();
    }

    static boolean isBinary(byte[] bytes) {
        int n = Math.min(bytes.length, BINARY_PROBE);
        for (int i = 0; i < n; i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * UTF-8, BOM dropped; bytes that are not UTF-8 are decoded as ISO-8859-1 instead (every byte is a character, so
     * "Caf\u00e9" written by a Latin-1 editor stays findable), with a warning naming the file.
     */
    static String decode(String path, byte[] bytes) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            LOG.warn("{}: not valid UTF-8 ({}), read as ISO-8859-1", ControlChars.escapeLine(path), e.toString());
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every JVM", e);
        }
    }

    /**
     * Splits a command-line list of globs on the commas outside braces: {@code "*.{java,md},docs/**"} is
     * {@code *.{java,md}} and {@code docs/**}. Blank items are dropped.
     */
    public static List<String> splitGlobList(String list) {
        Objects.requireNonNull(list, "list");
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0) {
                addIfNotBlank(out, list.substring(start, i));
                start = i + 1;
            }
        }
        addIfNotBlank(out, list.substring(start));
        return out;
    }

    private static void addIfNotBlank(List<String> out, String glob) {
        if (!glob.isBlank()) {
            out.add(glob.strip());
        }
    }

    /** Builder of {@link DirectoryIngestor}; not thread-safe. */
    public static final class Builder {
        private final Path root;
        private final List<String> includes = new ArrayList<>();
        private final List<String> excludes = new ArrayList<>();
        private boolean withTests;
        private boolean gitignore = true;
        private long maxFileBytes = DEFAULT_MAX_FILE_BYTES;
        private PlainTextChunker textChunker = PlainTextChunker.create();
        private MarkdownChunker markdownChunker = MarkdownChunker.create();

        private Builder(Path root) {
            this.root = Objects.requireNonNull(root, "root");
        }

        /** Adds include globs: when any are given, only files matching one are indexed. Default: none (all). */
        public Builder include(String... globs) {
            return include(List.of(globs));
        }

        /** Adds include globs. */
        public Builder include(List<String> globs) {
            for (String g : globs) {
                PathGlob.of(g);
                includes.add(g);
            }
            return this;
        }

        /** Adds exclude globs (files and whole directories). Default: none. */
        public Builder exclude(String... globs) {
            return exclude(List.of(globs));
        }

        /** Adds exclude globs. */
        public Builder exclude(List<String> globs) {
            for (String g : globs) {
                PathGlob.of(g);
                excludes.add(g);
            }
            return this;
        }

        /** Whether test sources ({@link #DEFAULT_TEST_PATTERNS}) are indexed too. Default false. */
        public Builder withTests(boolean withTests) {
            this.withTests = withTests;
            return this;
        }

        /** Whether {@code .gitignore} files are honoured. Default true. */
        public Builder respectGitignore(boolean respect) {
            this.gitignore = respect;
            return this;
        }

        /** Files larger than this are skipped. Default {@link #DEFAULT_MAX_FILE_BYTES} (1 MiB). */
        public Builder maxFileBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxFileBytes must be >= 1, got " + bytes);
            }
            this.maxFileBytes = bytes;
            return this;
        }

        /** The plain-text chunker (also the Java parse-failure fallback). Default {@link PlainTextChunker#create()}. */
        public Builder textChunker(PlainTextChunker chunker) {
            this.textChunker = Objects.requireNonNull(chunker, "textChunker");
            return this;
        }

        /** The Markdown chunker. Default {@link MarkdownChunker#create()}. */
        public Builder markdownChunker(MarkdownChunker chunker) {
            this.markdownChunker = Objects.requireNonNull(chunker, "markdownChunker");
            return this;
        }

        /** @throws IllegalArgumentException if the root is not an existing directory */
        public DirectoryIngestor build() {
            try {
                return new DirectoryIngestor(this);
            } catch (IOException e) {
                throw new IllegalArgumentException("root cannot be resolved: " + root + " (" + e.getMessage() + ")", e);
            }
        }
    }
}
