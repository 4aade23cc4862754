package dev.neuraltext.retrieve;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.text.CamelCaseExpander;
import java.util.Objects;

/**
 * What the dense leg reads of a chunk: the text {@link HybridCaseRetriever} embeds at index time
 * ({@link dev.neuraltext.encode.TextRole#DOCUMENT}). BM25 and the sparse leg keep reading the chunk's own text and
 * fields; only the dense vector changes.
 *
 * <p>The header of {@link #HEADER} and {@link #HEADER_HEAD} is built from the chunk's metadata: for a code chunk the file
 * name, class, symbol and signature ({@link ChunkMetadata#PATH}, {@link ChunkMetadata#CLASS_NAME},
 * {@link ChunkMetadata#SYMBOL}, {@link ChunkMetadata#SIGNATURE}), for a Markdown section its heading path
 * ({@link ChunkMetadata#SECTION}), with identifiers split into words by {@link CamelCaseExpander} so that an English
 * model sees {@code is Blank} instead of one unknown word piece run. A chunk without such metadata gets no header.
 *
 * <p>Stateless and thread-safe.
 */
public enum DenseText {

    /** The chunk's text as it is. */
    CHUNK_TEXT("chunk"),
    /** A header line (file, class, symbol, signature or heading path, split into words), then the chunk's text. */
    HEADER("header"),
    /** The header, then only the first {@value #HEAD_LINES} lines of the chunk's text: long bodies cut. */
    HEADER_HEAD("header-head");

    /** Lines of the chunk's text {@link #HEADER_HEAD} keeps. */
    public static final int HEAD_LINES = 12;

    private final String id;

    DenseText(String id) {
        this.id = id;
    }

    /** The short name ({@code chunk}, {@code header}, {@code header-head}), part of the index fingerprint. */
    public String id() {
        return id;
    }

    /**
     * The variant {@link HybridCaseRetriever} uses unless told otherwise (chosen by measurement: docs/benchmarks.md).
     */
    public static DenseText defaults() {
        return CHUNK_TEXT;
    }

    /**
     * The dense model id an index records for vectors of {@code embedderModelId} over this variant's text: the
     * embedder's id for {@link #CHUNK_TEXT}, else the id plus {@code +text:<variant>}, so that an index embedded with
     * another variant is detected.
     *
     * @throws NullPointerException if {@code embedderModelId} is null
     */
    public String indexedModelId(String embedderModelId) {
        Objects.requireNonNull(embedderModelId, "embedderModelId");
        return this == CHUNK_TEXT ? embedderModelId : embedderModelId + "+text:" + id;
    }

    /**
     * The text to embed for {@code chunk}.
     *
     * @throws NullPointerException if {@code chunk} is null
     */
    public String apply(ChunkInput chunk) {
        Objects.requireNonNull(chunk, "chunk");
        if (this == CHUNK_TEXT) {
            return chunk.text();
        }
        String header = header(chunk);
        String body = this == HEADER_HEAD ? head(chunk.text(), HEAD_LINES) : chunk.text();
        return header.isEmpty() ? body : header + "\n" + body;
    }

    /**
     * The variant named {@code id} (see {@link #id()}).
     *
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException naming the value and the known ids if there is none
     */
    public static DenseText byId(String id) {
        Objects.requireNonNull(id, "id");
        for (DenseText t : values()) {
            if (t.id.equalsIgnoreCase(id.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown dense text variant '" + id + "'; known: chunk, header, header-head");
    }

    static String header(ChunkInput chunk) {
        String section = chunk.metadata().get(ChunkMetadata.SECTION);
        if (section != null && !section.isBlank()) {
            return section.strip();
        }
        StringBuilder sb = new StringBuilder();
        String path = chunk.metadata().get(ChunkMetadata.PATH);
        if (path != null && !path.isBlank()) {
            String file = path.substring(path.lastIndexOf('/') + 1);
            int dot = file.lastIndexOf('.');
            append(sb, "file", dot > 0 ? file.substring(0, dot) : file);
        }
        String className = chunk.metadata().get(ChunkMetadata.CLASS_NAME);
        String symbol = chunk.metadata().get(ChunkMetadata.SYMBOL);
        if (className != null && !className.equals(symbol)) {
            append(sb, "class", className);
        }
        append(sb, "symbol", symbol);
        append(sb, "signature", chunk.metadata().get(ChunkMetadata.SIGNATURE));
        return sb.toString();
    }

    private static void append(StringBuilder sb, String label, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        if (sb.length() > 0) {
            sb.append("; ");
        }
        sb.append(label).append(": ").append(CamelCaseExpander.expand(value.strip()));
    }

    private static String head(String text, int lines) {
        int at = -1;
        for (int i = 0; i < lines; i++) {
            at = text.indexOf('\n', at + 1);
            if (at < 0) {
                return text;
            }
        }
        return text.substring(0, at);
    }
}
