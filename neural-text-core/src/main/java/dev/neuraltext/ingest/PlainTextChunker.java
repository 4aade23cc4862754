package dev.neuraltext.ingest;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.path.Language;
import dev.neuraltext.path.LanguageTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Chunks any text into windows of whitespace-separated tokens with overlap: defaults 200 tokens per window, 40
 * tokens of overlap. Each chunk's text is a first line naming the file, then the window as written (line breaks and
 * indentation kept). Chunk ids are {@code path#1}, {@code path#2}, ... in window order.
 *
 * <p>Metadata: the document's, plus {@code symbol} (the file name), {@code symbolType = text}, {@code startLine},
 * {@code endLine}, {@code language} (the document's, default {@code text}) and {@code type} ({@code doc} for the
 * {@link LanguageTable}'s prose languages, {@code code} otherwise). Immutable and safe for concurrent use.
 */
public final class PlainTextChunker implements Chunker {

    /** Default window size in tokens. */
    public static final int DEFAULT_WINDOW = 200;
    /** Default overlap in tokens. */
    public static final int DEFAULT_OVERLAP = 40;

    private static final LanguageTable LANGUAGES = LanguageTable.standard();

    private final int window;
    private final int overlap;

    private PlainTextChunker(int window, int overlap) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1 token, got " + window);
        }
        if (overlap < 0 || overlap >= window) {
            throw new IllegalArgumentException("overlap must be in [0, window - 1] = [0, " + (window - 1)
                    + "], got " + overlap);
        }
        this.window = window;
        this.overlap = overlap;
    }

    /** Defaults: {@value #DEFAULT_WINDOW} tokens per window, {@value #DEFAULT_OVERLAP} overlap. */
    public static PlainTextChunker create() {
        return new PlainTextChunker(DEFAULT_WINDOW, DEFAULT_OVERLAP);
    }

    /** Windows of {@code window} tokens overlapping by {@code overlap} tokens ({@code 0 <= overlap < window}). */
    public static PlainTextChunker of(int window, int overlap) {
        return new PlainTextChunker(window, overlap);
    }

    @Override
    public List<ChunkInput> chunk(ExtractionResult document) {
        String text = document.text();
        List<int[]> tokens = new ArrayList<>(); // {startOffset, endOffset}
        int n = text.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i > start) {
                tokens.add(new int[] {start, i});
            }
        }
        List<ChunkInput> out = new ArrayList<>();
        if (tokens.isEmpty()) {
            return out;
        }
        String path = ChunkIds.documentKey(document);
        String name = path.substring(path.lastIndexOf('/') + 1);
        String language = document.metadata().getOrDefault(ChunkMetadata.LANGUAGE, "text");
        int[] lineStarts = lineStarts(text);
        int step = window - overlap;
        int part = 0;
        for (int from = 0; from < tokens.size(); from += step) {
            int to = Math.min(from + window, tokens.size()) - 1;
            int startOff = tokens.get(from)[0];
            int endOff = tokens.get(to)[1];
            // start the window at its line's beginning, so indentation reads right
            int lineStartOff = lineStarts[lineOf(lineStarts, startOff) - 1];
            String body = text.substring(text.substring(lineStartOff, startOff).isBlank() ? lineStartOff : startOff,
                    endOff);
            part++;
            Map<String, String> meta = new LinkedHashMap<>(document.metadata());
            meta.putIfAbsent(ChunkMetadata.PATH, path);
            meta.put(ChunkMetadata.LANGUAGE, language);
            meta.put(ChunkMetadata.SYMBOL, name);
            meta.put(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_TEXT);
            meta.put(ChunkMetadata.START_LINE, Integer.toString(lineOf(lineStarts, startOff)));
            meta.put(ChunkMetadata.END_LINE, Integer.toString(lineOf(lineStarts, endOff - 1)));
            meta.put(ChunkMetadata.TYPE, LANGUAGES.language(language).map(Language::prose).orElse(false)
                    ? ChunkMetadata.TYPE_DOC : ChunkMetadata.TYPE_CODE);
            for (String key : document.listMetadata().keySet()) {
                meta.remove(key);
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put(ChunkMetadata.FIELD_NAME, name);
            fields.put(ChunkMetadata.FIELD_BODY, body);
            out.add(new ChunkInput(path + "#" + part, name + "\n" + body, meta, document.listMetadata(), fields));
            if (to == tokens.size() - 1) {
                break;
            }
        }
        return out;
    }

    static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** 1-based line of the character at {@code offset}. */
    static int lineOf(int[] lineStarts, int offset) {
        int idx = java.util.Arrays.binarySearch(lineStarts, offset);
        return idx >= 0 ? idx + 1 : -idx - 1;
    }

    @Override
    public String toString() {
        return "PlainTextChunker[window=" + window + ", overlap=" + overlap + "]";
    }
}
