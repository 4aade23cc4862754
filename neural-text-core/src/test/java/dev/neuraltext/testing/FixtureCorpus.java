package dev.neuraltext.testing;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.chunk.ExtractionResult;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.ingest.JavaSourceChunker;
import dev.neuraltext.ingest.MarkdownChunker;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A tiny built-in corpus for users' unit tests: three Java classes and two Markdown pages about retries, rate limits
 * and caching, chunked with the library's own chunkers, plus {@link #knownAnswers() queries whose best hit is known}.
 *
 * <p>{@link #retriever()} indexes it in an {@link InMemoryCaseStore} with BM25 and a {@link HashingEmbedder} dense
 * leg: no model, no files, deterministic, built in milliseconds. The files are classpath resources under
 * {@value #RESOURCE_FOLDER}; their {@code path} metadata is the path in {@link #PATHS}.
 *
 * <p>Thread-safe: the chunks are parsed once and immutable, and every {@link #retriever()} is a new retriever over a
 * new store, so tests may run in parallel.
 */
public final class FixtureCorpus {

    /** Where the files are on the classpath. */
    public static final String RESOURCE_FOLDER = "dev/neuraltext/testing/corpus/";

    /** The file name, in {@link #RESOURCE_FOLDER}, of the corpus already chunked. */
    public static final String CHUNKS_FILE = "chunks.tsv";

    /** The {@code path} metadata of the five files, in indexing order. */
    public static final List<String> PATHS = List.of(
            "src/main/java/com/example/orders/RetryPolicy.java",
            "src/main/java/com/example/orders/RateLimiter.java",
            "src/main/java/com/example/catalog/LruCache.java",
            "docs/retries.md",
            "docs/caching.md");

    private FixtureCorpus() {
    }

    /**
     * A query over the corpus and what must rank first.
     *
     * @param query          the query text
     * @param filter         the filter to search with
     * @param expectedPath   the {@code path} of the best hit
     * @param expectedSymbol the {@code symbol} of the best hit (a Java {@code Class.method} or a Markdown heading)
     */
    public record KnownAnswer(String query, PayloadFilter filter, String expectedPath, String expectedSymbol) {
        public KnownAnswer {
            Objects.requireNonNull(query, "query");
            Objects.requireNonNull(filter, "filter");
            Objects.requireNonNull(expectedPath, "expectedPath");
            Objects.requireNonNull(expectedSymbol, "expectedSymbol");
        }
    }

    /** Queries in identifiers and in English, with and without filters, each with the hit that must rank first. */
    public static List<KnownAnswer> knownAnswers() {
        PayloadFilter methods = PayloadFilter.must(PayloadFilter.matchKeyword(ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE),
                PayloadFilter.matchKeyword(ChunkMetadata.SYMBOL_TYPE, "method"));
        PayloadFilter docs = PayloadFilter.matchKeyword(ChunkMetadata.TYPE, ChunkMetadata.TYPE_DOC);
        return List.of(
                new KnownAnswer("RetryPolicy backoffDelay", PayloadFilter.all(), PATHS.get(0), "RetryPolicy.backoffDelay"),
                new KnownAnswer("tryAcquire", PayloadFilter.all(), PATHS.get(1), "RateLimiter.tryAcquire"),
                new KnownAnswer("removeEldestEntry", PayloadFilter.all(), PATHS.get(2), "LruCache.removeEldestEntry"),
                new KnownAnswer("which errors are never retried", docs, PATHS.get(3), "What is never retried"),
                new KnownAnswer("how many requests per second may a client send", docs, PATHS.get(4), "Rate limits"),
                new KnownAnswer("should we try the failed call again", methods, PATHS.get(0), "RetryPolicy.shouldRetry"));
    }

    /**
     * The corpus chunked: Java by type and method, Markdown by heading section (front-matter tags become list
     * metadata). Read from {@code chunks.tsv}, which holds exactly what {@link #chunkSources()} makes (a test
     * keeps the two equal), so that a test's first retriever does not pay for loading the Java parser.
     */
    public static List<ChunkInput> chunks() {
        return Chunked.CHUNKS;
    }

    /** The corpus files chunked now by {@link JavaSourceChunker} and {@link MarkdownChunker}. */
    public static List<ChunkInput> chunkSources() {
        Chunker java = new JavaSourceChunker();
        Chunker markdown = MarkdownChunker.create();
        List<ChunkInput> chunks = new ArrayList<>();
        for (String path : PATHS) {
            String text = read(path.substring(path.lastIndexOf('/') + 1));
            ExtractionResult document = new ExtractionResult(path, text, Map.of(ChunkMetadata.PATH, path), Map.of());
            chunks.addAll((path.endsWith(".java") ? java : markdown).chunk(document));
        }
        return List.copyOf(chunks);
    }

    /** Lazy holder: the first {@link #chunks()} call reads the chunk file, thread-safely. */
    private static final class Chunked {
        static final List<ChunkInput> CHUNKS = parseChunks(read(CHUNKS_FILE));
    }

    /**
     * {@code chunks} in the chunk-file format: per chunk a {@code chunk}, {@code meta}, {@code list}, {@code field}
     * and {@code text} line, tab-separated, with backslash, tab, carriage return and newline escaped.
     */
    static String formatChunks(List<ChunkInput> chunks) {
        StringBuilder out = new StringBuilder();
        for (ChunkInput c : chunks) {
            out.append("chunk\t").append(escape(c.id())).append('\n');
            c.metadata().forEach((k, v) -> out.append("meta\t").append(escape(k)).append('\t').append(escape(v)).append('\n'));
            c.listMetadata().forEach((k, values) -> {
                out.append("list\t").append(escape(k));
                values.forEach(v -> out.append('\t').append(escape(v)));
                out.append('\n');
            });
            c.fields().forEach((k, v) -> out.append("field\t").append(escape(k)).append('\t').append(escape(v)).append('\n'));
            out.append("text\t").append(escape(c.text())).append('\n');
        }
        return out.toString();
    }

    static List<ChunkInput> parseChunks(String file) {
        List<ChunkInput> chunks = new ArrayList<>();
        String id = null;
        Map<String, String> meta = new LinkedHashMap<>();
        Map<String, List<String>> lists = new LinkedHashMap<>();
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : file.split("\n")) {
            String[] cells = line.split("\t", -1);
            switch (cells[0]) {
                case "chunk" -> id = unescape(cells[1]);
                case "meta" -> meta.put(unescape(cells[1]), unescape(cells[2]));
                case "list" -> lists.put(unescape(cells[1]),
                        Arrays.stream(cells, 2, cells.length).map(FixtureCorpus::unescape).toList());
                case "field" -> fields.put(unescape(cells[1]), unescape(cells[2]));
                case "text" -> {
                    chunks.add(new ChunkInput(id, unescape(cells[1]), meta, lists, fields));
                    meta = new LinkedHashMap<>();
                    lists = new LinkedHashMap<>();
                    fields = new LinkedHashMap<>();
                }
                default -> throw new IllegalStateException("fixture chunk file: unknown line kind '" + cells[0] + "'");
            }
        }
        return List.copyOf(chunks);
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n");
    }

    private static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                out.append(next == 't' ? '\t' : next == 'r' ? '\r' : next == 'n' ? '\n' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A retriever over the corpus in a new {@link InMemoryCaseStore}, with BM25 and a {@link HashingEmbedder#create()}
     * dense leg. Close {@code retriever.store()} when done (it holds nothing native, so forgetting costs only memory).
     */
    public static HybridCaseRetriever retriever() {
        return retriever(InMemoryCaseStore.create());
    }

    /** The corpus indexed into {@code store} (for example your own {@link CaseStore}) with a {@link HashingEmbedder}. */
    public static HybridCaseRetriever retriever(CaseStore store) {
        Objects.requireNonNull(store, "store");
        HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).embedder(HashingEmbedder.create()).build();
        retriever.index(chunks());
        return retriever;
    }

    private static String read(String file) {
        String resource = RESOURCE_FOLDER + file;
        try (InputStream in = FixtureCorpus.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("fixture file " + resource + " is not on the classpath: depend on "
                        + "neural-text-core's test-jar (type test-jar) with its resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fixture file " + resource, e);
        }
    }
}
