package dev.neuraltext.examples.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.filter.Payload;
import dev.neuraltext.fusion.LegResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * BM25 speed of neural-text's {@link Bm25Index} next to Lucene 9.12 BM25 with a code analyzer
 * ({@code StandardTokenizer}, {@code WordDelimiterGraphFilter} splitting on case change and numerics with the original
 * preserved, lower case, English stop words), in the same run, on the same documents of a BEIR dataset.
 *
 * <p>neural-text indexes each document as fields {@code name} = title and {@code body} = text (the eval harness
 * mapping); Lucene indexes {@code title + "\n" + text} in one field (the reference figures' mapping). Reports
 * indexing time (median of {@code --builds} builds) and per-query latency p50/p95 (top {@code --limit}, after
 * {@code --warmup} passes, over {@code --passes} passes of all queries), both as milliseconds and as the ratio
 * neural-text / Lucene, plus MRR@10 of each as a check that both indexed the same data. Single-threaded. Run with
 * {@code --help} for the options.
 */
public final class Bm25Benchmark {

    private static final String DEFAULT_DATASET = "../shared/bench/datasets/commons-lang";

    private Bm25Benchmark() {
    }

    public static void main(String[] args) {
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs the benchmark; returns the process exit code (0 ok, 2 usage error, 1 failure). */
    public static int run(String... args) {
        PrintStream out = System.out;
        Path dataset = null;
        int builds = 3;
        int warmup = 2;
        int passes = 5;
        int limit = 100;
        boolean whitespace = false;
        boolean stopWords = true;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--dataset" -> dataset = Path.of(args[++i]);
                    case "--builds" -> builds = positive(args[++i], a);
                    case "--warmup" -> {
                        warmup = Integer.parseInt(args[++i]);
                        if (warmup < 0) {
                            throw new IllegalArgumentException("--warmup must be >= 0, got " + warmup);
                        }
                    }
                    case "--passes" -> passes = positive(args[++i], a);
                    case "--limit" -> limit = positive(args[++i], a);
                    case "--lucene-no-stop" -> stopWords = false;
                    case "--lucene-tokenizer" -> whitespace = switch (args[++i]) {
                        case "standard" -> false;
                        case "whitespace" -> true;
                        default -> throw new IllegalArgumentException(
                                "--lucene-tokenizer must be standard or whitespace");
                    };
                    case "--help", "-h" -> {
                        usage(out);
                        return 0;
                    }
                    default -> {
                        if (a.startsWith("-") || dataset != null) {
                            System.err.println("unknown option: " + a);
                            usage(System.err);
                            return 2;
                        }
                        dataset = Path.of(a);
                    }
                }
            }
        } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
            System.err.println("bad arguments: " + e.getMessage());
            usage(System.err);
            return 2;
        }
        if (dataset == null) {
            dataset = defaultDataset();
        }
        if (!Files.isRegularFile(dataset.resolve("corpus.jsonl"))) {
            System.err.println("no corpus.jsonl under " + dataset.toAbsolutePath());
            return 2;
        }
        try {
            new Bm25Benchmark().bench(out, dataset, builds, warmup, passes, limit, whitespace, stopWords);
            return 0;
        } catch (IOException | UncheckedIOException e) {
            System.err.println("benchmark failed: " + e);
            return 1;
        }
    }

    private record Doc(String id, String title, String text, Map<String, String> metadata) {
    }

    private record Query(String id, String text) {
    }

    private void bench(PrintStream out, Path dataset, int builds, int warmup, int passes, int limit, boolean whitespace,
            boolean stopWords) throws IOException {
        List<Doc> docs = readCorpus(dataset.resolve("corpus.jsonl"));
        List<Query> queries = readQueries(dataset.resolve("queries.jsonl"));
        Map<String, Map<String, Integer>> qrels = readQrels(dataset.resolve("qrels/test.tsv"));
        out.printf(Locale.ROOT, "dataset %s: %d documents, %d queries; top %d, %d build(s), %d warm-up and %d timed"
                + " pass(es)%n", dataset.toAbsolutePath().normalize(), docs.size(), queries.size(), limit, builds,
                warmup, passes);

        List<Bm25Index.Document> ours = new ArrayList<>(docs.size());
        for (Doc d : docs) {
            ours.add(new Bm25Index.Document(d.id(), Map.of("name", d.title(), "body", d.text()),
                    new Payload(d.metadata(), Map.of())));
        }
        long[] ourBuild = new long[builds];
        Bm25Index index = null;
        for (int b = 0; b < builds; b++) {
            long t0 = System.nanoTime();
            Bm25Index fresh = Bm25Index.builder().build();
            fresh.upsertAll(ours);
            ourBuild[b] = System.nanoTime() - t0;
            index = fresh;
        }
        final Bm25Index ourIndex = index;

        Analyzer indexAnalyzer = codeAnalyzer(true, whitespace, stopWords);
        Analyzer queryAnalyzer = codeAnalyzer(false, whitespace, stopWords);
        long[] luceneBuild = new long[builds];
        ByteBuffersDirectory directory = null;
        for (int b = 0; b < builds; b++) {
            long t0 = System.nanoTime();
            ByteBuffersDirectory dir = new ByteBuffersDirectory();
            IndexWriterConfig config = new IndexWriterConfig(indexAnalyzer).setSimilarity(new BM25Similarity());
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (Doc d : docs) {
                    Document doc = new Document();
                    doc.add(new StringField("id", d.id(), Field.Store.YES));
                    doc.add(new TextField("text", d.title() + "\n" + d.text(), Field.Store.NO));
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            luceneBuild[b] = System.nanoTime() - t0;
            directory = dir;
        }

        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setSimilarity(new BM25Similarity());
            List<org.apache.lucene.search.Query> luceneQueries = new ArrayList<>();
            for (Query q : queries) {
                luceneQueries.add(luceneQuery(queryAnalyzer, q.text()));
            }
            // the id of every Lucene doc, looked up once: our index keeps ids in memory too, and per-hit stored-field
            // reads would time Lucene's stored-field decompression rather than its ranking
            String[] luceneIds = new String[reader.maxDoc()];
            for (int d = 0; d < luceneIds.length; d++) {
                luceneIds[d] = searcher.storedFields().document(d).get("id");
            }
            int k = limit;
            Searcher ourSearch = i -> ids(ourIndex.search(queries.get(i).text(), k, null));
            Searcher luceneSearch = i -> {
                TopDocs top = searcher.search(luceneQueries.get(i), k);
                List<String> ids = new ArrayList<>(top.scoreDocs.length);
                for (ScoreDoc sd : top.scoreDocs) {
                    ids.add(luceneIds[sd.doc]);
                }
                return ids;
            };
            double ourMrr = mrr10(queries, qrels, ourSearch);
            double luceneMrr = mrr10(queries, qrels, luceneSearch);
            // alternate the two so neither always runs on a warmer machine
            long[] ourLatency = new long[queries.size() * passes];
            long[] luceneLatency = new long[queries.size() * passes];
            for (int p = 0; p < warmup + passes; p++) {
                boolean timed = p >= warmup;
                time(queries.size(), ourSearch, timed ? ourLatency : null, (p - warmup) * queries.size());
                time(queries.size(), luceneSearch, timed ? luceneLatency : null, (p - warmup) * queries.size());
            }
            Arrays.sort(ourLatency);
            Arrays.sort(luceneLatency);

            out.printf(Locale.ROOT, "%-28s %14s %14s %12s%n", "", "neural-text", "lucene-wdgf", "ratio nt/lu");
            row(out, "index build ms (median)", median(ourBuild) / 1e6, median(luceneBuild) / 1e6);
            row(out, "query p50 ms", percentile(ourLatency, 50) / 1e6, percentile(luceneLatency, 50) / 1e6);
            row(out, "query p95 ms", percentile(ourLatency, 95) / 1e6, percentile(luceneLatency, 95) / 1e6);
            row(out, "MRR@10 (check)", ourMrr, luceneMrr);
            out.printf(Locale.ROOT, "neural-text config: %s%n", ourIndex.description());
        }
    }

    @FunctionalInterface
    private interface Searcher {
        List<String> search(int query) throws IOException;
    }

    private static void time(int count, Searcher searcher, long[] into, int offset) throws IOException {
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            searcher.search(i);
            long elapsed = System.nanoTime() - t0;
            if (into != null) {
                into[offset + i] = elapsed;
            }
        }
    }

    private static double mrr10(List<Query> queries, Map<String, Map<String, Integer>> qrels, Searcher searcher)
            throws IOException {
        double sum = 0;
        for (int i = 0; i < queries.size(); i++) {
            Map<String, Integer> relevant = qrels.getOrDefault(queries.get(i).id(), Map.of());
            List<String> ranked = searcher.search(i);
            for (int r = 0; r < Math.min(10, ranked.size()); r++) {
                if (relevant.getOrDefault(ranked.get(r), 0) >= 1) {
                    sum += 1.0 / (r + 1);
                    break;
                }
            }
        }
        return queries.isEmpty() ? 0 : sum / queries.size();
    }

    /**
     * StandardTokenizer (or whitespace), WordDelimiterGraphFilter (case change, numerics, original preserved), lower
     * case, English stop words (MRR@10 0.505 on commons-lang, near the 0.513 of the reference figures; 0.442 without
     * stop words).
     */
    static Analyzer codeAnalyzer(boolean forIndexing, boolean whitespace, boolean stopWords) {
        int flags = WordDelimiterGraphFilter.GENERATE_WORD_PARTS | WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS
                | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE | WordDelimiterGraphFilter.SPLIT_ON_NUMERICS
                | WordDelimiterGraphFilter.PRESERVE_ORIGINAL;
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer source = whitespace ? new WhitespaceTokenizer() : new StandardTokenizer();
                TokenStream stream = new WordDelimiterGraphFilter(source, flags, null);
                if (forIndexing) {
                    stream = new FlattenGraphFilter(stream); // graph filters need flattening at index time
                }
                stream = new LowerCaseFilter(stream);
                if (stopWords) {
                    stream = new StopFilter(stream, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
                }
                return new TokenStreamComponents(source, stream);
            }
        };
    }

    private static org.apache.lucene.search.Query luceneQuery(Analyzer analyzer, String text) throws IOException {
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        try (TokenStream stream = analyzer.tokenStream("text", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                builder.add(new TermQuery(new Term("text", term.toString())), BooleanClause.Occur.SHOULD);
            }
            stream.end();
        }
        return builder.build();
    }

    private static List<String> ids(List<LegResult> results) {
        List<String> ids = new ArrayList<>(results.size());
        for (LegResult r : results) {
            ids.add(r.id());
        }
        return ids;
    }

    private static void row(PrintStream out, String label, double ours, double lucene) {
        double ratio = lucene == 0 ? Double.NaN : ours / lucene;
        out.printf(Locale.ROOT, "%-28s %14.3f %14.3f %12.2f%n", label, ours, lucene, ratio);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static int positive(String value, String option) {
        int n = Integer.parseInt(value);
        if (n <= 0) {
            throw new IllegalArgumentException(option + " must be > 0, got " + n);
        }
        return n;
    }

    /** The default dataset, looked up from the working directory and its parents (repo root or a module). */
    private static Path defaultDataset() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            Path candidate = p.resolve(DEFAULT_DATASET).normalize();
            if (Files.isRegularFile(candidate.resolve("corpus.jsonl"))) {
                return candidate;
            }
        }
        return dir.resolve(DEFAULT_DATASET).normalize();
    }

    private static List<Doc> readCorpus(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Doc> docs = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = json.readTree(line);
                Map<String, String> metadata = new LinkedHashMap<>();
                JsonNode md = node.path("metadata");
                md.fieldNames().forEachRemaining(name -> metadata.put(name, md.get(name).asText()));
                docs.add(new Doc(node.get("_id").asText(), node.path("title").asText(""), node.path("text").asText(""),
                        metadata));
            }
        }
        return docs;
    }

    private static List<Query> readQueries(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Query> queries = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isBlank()) {
                    JsonNode node = json.readTree(line);
                    queries.add(new Query(node.get("_id").asText(), node.get("text").asText()));
                }
            }
        }
        return queries;
    }

    private static Map<String, Map<String, Integer>> readQrels(Path file) throws IOException {
        Map<String, Map<String, Integer>> qrels = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return qrels;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] cols = line.split("\t");
            if (cols.length < 3 || cols[0].equals("query-id")) {
                continue;
            }
            qrels.computeIfAbsent(cols[0], q -> new HashMap<>()).put(cols[1], Integer.parseInt(cols[2].trim()));
        }
        return qrels;
    }

    private static void usage(PrintStream out) {
        out.println("usage: Bm25Benchmark [--dataset DIR | DIR] [--builds N] [--warmup N] [--passes N] [--limit K]");
        out.println("  DIR       BEIR dataset folder (default " + DEFAULT_DATASET + ", looked up from the working"
                + " directory upwards)");
        out.println("  --builds  index builds timed per engine, median reported (default 3)");
        out.println("  --warmup  untimed passes over all queries (default 2)");
        out.println("  --passes  timed passes over all queries (default 5)");
        out.println("  --limit   results per query (default 100)");
        out.println("  --lucene-tokenizer standard|whitespace  tokenizer before Lucene's WordDelimiterGraphFilter"
                + " (default standard)");
        out.println("  --lucene-no-stop  no English stop word filter in the Lucene analyzer (default: Lucene's English"
                + " stop words, as our tokenizer)");
    }
}
