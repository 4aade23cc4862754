package dev.neuraltext.ingest;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.internal.AtomicFiles;
import dev.neuraltext.internal.Checks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an index holds per source file: its content hash and the ids (and symbol types) of its chunks, plus the
 * chunking configuration it was built with. {@link IncrementalIndexer} compares it with a fresh scan to re-chunk
 * only changed files and to delete the chunks of deleted ones.
 *
 * <p>On disk: a UTF-8 line format of our own (never Java serialization), written to a temporary file and moved into
 * place atomically, ending with a count line so that truncation is detected:
 * <pre>
 * neural-text-manifest	1
 * config	&lt;configuration&gt;
 * file	&lt;path&gt;	&lt;sha256&gt;	&lt;language&gt;
 * chunk	&lt;symbolType&gt;	&lt;id&gt;
 * end	&lt;files&gt;	&lt;chunks&gt;
 * </pre>
 * Tabs, newlines and backslashes in values are escaped as {@code \t}, {@code \n}, {@code \r}, {@code \\}.
 * Immutable and thread-safe.
 */
public final class IndexManifest {

    private static final String MAGIC = "neural-text-manifest";
    private static final int VERSION = 1;

    /**
     * One file of the index.
     *
     * @param hash     SHA-256 of the content that was chunked
     * @param language its language
     * @param chunks   its chunks, in chunk order
     */
    public record FileEntry(String hash, String language, List<ChunkRef> chunks) {
        public FileEntry {
            Checks.notBlank(hash, "hash");
            Checks.notBlank(language, "language");
            chunks = List.copyOf(chunks);
        }

        /** The chunk ids. */
        public List<String> chunkIds() {
            return chunks.stream().map(ChunkRef::id).toList();
        }
    }

    /**
     * A chunk of a file.
     *
     * @param id         the chunk id
     * @param symbolType its {@code symbolType} metadata ({@code method}, {@code section}, ...), "" if none
     */
    public record ChunkRef(String id, String symbolType) {
        public ChunkRef {
            Checks.notBlank(id, "id");
            Checks.notNull(symbolType, "symbolType");
        }
    }

    private final String configuration;
    private final Map<String, FileEntry> files;

    /**
     * A manifest.
     *
     * @param configuration the chunking configuration the chunks were made with
     * @param files         per relative path
     */
    public IndexManifest(String configuration, Map<String, FileEntry> files) {
        this.configuration = Checks.notNull(configuration, "configuration");
        Objects.requireNonNull(files, "files");
        this.files = Collections.unmodifiableMap(new TreeMap<>(files));
    }

    /** An empty manifest, for a first index. */
    public static IndexManifest empty(String configuration) {
        return new IndexManifest(configuration, Map.of());
    }

    /** The chunking configuration. */
    public String configuration() {
        return configuration;
    }

    /** The files, sorted by path. */
    public Map<String, FileEntry> files() {
        return files;
    }

    /** The number of chunks of all files. */
    public int chunkCount() {
        return files.values().stream().mapToInt(f -> f.chunks().size()).sum();
    }

    /** The number of chunks per symbol type, sorted by symbol type. */
    public Map<String, Integer> chunksBySymbolType() {
        Map<String, Integer> out = new TreeMap<>();
        for (FileEntry f : files.values()) {
            for (ChunkRef c : f.chunks()) {
                out.merge(c.symbolType().isEmpty() ? "other" : c.symbolType(), 1, Integer::sum);
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** The number of files per language, sorted by language. */
    public Map<String, Integer> filesByLanguage() {
        Map<String, Integer> out = new TreeMap<>();
        for (FileEntry f : files.values()) {
            out.merge(f.language(), 1, Integer::sum);
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * The manifest in its line format, UTF-8, for storing it elsewhere, for example as an attachment committed with
     * the store's generation ({@code InMemoryCaseStore.save(dir, fingerprint, attachments)}), which checksums it.
     */
    public byte[] toBytes() {
        StringBuilder w = new StringBuilder();
        w.append(MAGIC).append('\t').append(VERSION).append('\n');
        w.append("config\t").append(escape(configuration)).append('\n');
        for (Map.Entry<String, FileEntry> e : files.entrySet()) {
            FileEntry f = e.getValue();
            w.append("file\t").append(escape(e.getKey())).append('\t').append(escape(f.hash())).append('\t')
                    .append(escape(f.language())).append('\n');
            for (ChunkRef c : f.chunks()) {
                w.append("chunk\t").append(escape(c.symbolType())).append('\t').append(escape(c.id())).append('\n');
            }
        }
        w.append("end\t").append(files.size()).append('\t').append(chunkCount()).append('\n');
        return w.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses bytes written by {@link #toBytes()}.
     *
     * @param source names the bytes in the error message (a file name)
     * @throws NonRetriableNeuralTextException if they are not a whole manifest (truncated, malformed, not UTF-8)
     */
    public static IndexManifest fromBytes(byte[] bytes, String source) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(source, "source");
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new NonRetriableNeuralTextException("corrupt index manifest " + source + ": not UTF-8", e);
        }
        try {
            return parse(SourceText.splitLines(text.endsWith("\n") ? text.substring(0, text.length() - 1) : text));
        } catch (IllegalArgumentException e) {
            throw new NonRetriableNeuralTextException("corrupt index manifest " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes the manifest to {@code file} atomically: a temporary file in the same folder, flushed to disk, then
     * moved over the old one. Not checksummed: where the manifest describes a local store, commit it with the store
     * instead ({@link #toBytes()}).
     *
     * @throws NonRetriableNeuralTextException if the file cannot be written
     */
    public void save(Path file) {
        try {
            byte[] bytes = toBytes();
            AtomicFiles.write(file, out -> out.write(bytes));
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot write index manifest " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a manifest written by {@link #save(Path)}.
     *
     * @return empty when the file does not exist
     * @throws NonRetriableNeuralTextException if the file is unreadable, truncated or not a manifest
     */
    public static Optional<IndexManifest> load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot read index manifest " + file + ": " + e.getMessage(), e);
        }
        return Optional.of(fromBytes(bytes, file.toString()));
    }

    private static IndexManifest parse(List<String> lines) {
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC + "\t" + VERSION)) {
            throw new IllegalArgumentException("line 1: expected '" + MAGIC + "\\t" + VERSION + "', got '"
                    + (lines.isEmpty() ? "" : lines.get(0)) + "'");
        }
        String config = null;
        Map<String, FileEntry> files = new TreeMap<>();
        String path = null;
        String hash = null;
        String language = null;
        List<ChunkRef> chunks = new ArrayList<>();
        boolean ended = false;
        for (int i = 1; i < lines.size(); i++) {
            if (ended) {
                throw new IllegalArgumentException("line " + (i + 1) + ": content after the end line");
            }
            String[] f = lines.get(i).split("\t", -1);
            switch (f[0]) {
                case "config" -> {
                    expect(f, 2, i);
                    config = unescape(f[1]);
                }
                case "file" -> {
                    expect(f, 4, i);
                    if (path != null) {
                        files.put(path, new FileEntry(hash, language, chunks));
                    }
                    path = unescape(f[1]);
                    hash = unescape(f[2]);
                    language = unescape(f[3]);
                    chunks = new ArrayList<>();
                }
                case "chunk" -> {
                    expect(f, 3, i);
                    if (path == null) {
                        throw new IllegalArgumentException("line " + (i + 1) + ": chunk before any file");
                    }
                    chunks.add(new ChunkRef(unescape(f[2]), unescape(f[1])));
                }
                case "end" -> {
                    expect(f, 3, i);
                    if (path != null) {
                        files.put(path, new FileEntry(hash, language, chunks));
                        path = null;
                    }
                    IndexManifest m = new IndexManifest(config == null ? "" : config, files);
                    if (!f[1].equals(Integer.toString(m.files.size()))
                            || !f[2].equals(Integer.toString(m.chunkCount()))) {
                        throw new IllegalArgumentException("end line says " + f[1] + " files, " + f[2]
                                + " chunks, found " + m.files.size() + " and " + m.chunkCount());
                    }
                    ended = true;
                }
                default -> throw new IllegalArgumentException("line " + (i + 1) + ": unknown record '" + f[0] + "'");
            }
        }
        if (!ended) {
            throw new IllegalArgumentException("truncated: no end line");
        }
        return new IndexManifest(config == null ? "" : config, files);
    }

    private static void expect(String[] fields, int n, int line) {
        if (fields.length != n) {
            throw new IllegalArgumentException("line " + (line + 1) + ": expected " + n + " fields, got "
                    + fields.length);
        }
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                switch (n) {
                    case 't' -> sb.append('\t');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case '\\' -> sb.append('\\');
                    default -> throw new IllegalArgumentException("bad escape '\\" + n + "' in '" + s + "'");
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexManifest m && m.configuration.equals(configuration) && m.files.equals(files);
    }

    @Override
    public int hashCode() {
        return Objects.hash(configuration, files);
    }

    @Override
    public String toString() {
        return "IndexManifest[" + files.size() + " files, " + chunkCount() + " chunks]";
    }
}
