package dev.neuraltext.cli.bench;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.eval.BeirDataset;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.eval.EvalRun;
import dev.neuraltext.eval.EvalRunner;
import dev.neuraltext.cli.eval.LucenePeer;
import dev.neuraltext.fusion.LegResult;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
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
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--dataset" -> dataset = Path.of(args[++i]);
                    case "--builds" -> builds = BenchOptions.positive(args[++i], a);
                    case "--warmup" -> warmup = BenchOptions.nonNegative(args[++i], a);
                    case "--passes" -> passes = BenchOptions.positive(args[++i], a);
                    case "--limit" -> limit = BenchOptions.positive(args[++i], a);
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
            dataset = BenchOptions.required(dataset, "--dataset");
        } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
            System.err.println("bad arguments: " + e.getMessage());
            usage(System.err);
            return 2;
        }
        if (!Files.isRegularFile(dataset.resolve("corpus.jsonl"))) {
            System.err.println("no corpus.jsonl under " + dataset.toAbsolutePath());
            return 2;
        }
        try {
            new Bm25Benchmark().bench(out, dataset, builds, warmup, passes, limit);
            return 0;
        } catch (IOException | UncheckedIOException | NeuralTextException e) {
            System.err.println("benchmark failed: " + e.getMessage());
            return 1;
        }
    }

    private void bench(PrintStream out, Path dataset, int builds, int warmup, int passes, int limit)
            throws IOException {
        EvalDataset data = BeirDataset.load(dataset);
        List<EvalDocument> docs = data.documents();
        List<EvalQuery> queries = data.queries();
        out.printf(Locale.ROOT, "dataset %s: %d documents, %d queries; top %d, %d build(s), %d warm-up and %d timed"
                + " pass(es)%n", dataset.toAbsolutePath().normalize(), docs.size(), queries.size(), limit, builds,
                warmup, passes);

        List<Bm25Index.Document> ours = new ArrayList<>(docs.size());
        for (EvalDocument d : docs) {
            ChunkInput c = d.toChunkInput(); // the eval harness's mapping: name = title, body = text
            ours.add(new Bm25Index.Document(c.id(), c.bm25Fields()));
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

        // the code analyzer that reproduces the reference figures (the eval harness's lucene-wdgf peer)
        Analyzer indexAnalyzer = LucenePeer.codeAnalyzer(true);
        Analyzer queryAnalyzer = LucenePeer.codeAnalyzer(false);
        long[] luceneBuild = new long[builds];
        ByteBuffersDirectory directory = null;
        for (int b = 0; b < builds; b++) {
            long t0 = System.nanoTime();
            ByteBuffersDirectory dir = new ByteBuffersDirectory();
            IndexWriterConfig config = new IndexWriterConfig(indexAnalyzer).setSimilarity(new BM25Similarity());
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (EvalDocument d : docs) {
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
            for (EvalQuery q : queries) {
                luceneQueries.add(LucenePeer.termsQuery(queryAnalyzer, "text", q.text()));
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
            double ourMrr = mrr10(data, ourSearch);
            double luceneMrr = mrr10(data, luceneSearch);
            // alternate the two so neither always runs on a warmer machine
            long[] ourLatency = new long[queries.size() * passes];
            long[] luceneLatency = new long[queries.size() * passes];
            for (int p = 0; p < warmup + passes; p++) {
                boolean timed = p >= warmup;
                time(queries.size(), ourSearch, timed ? ourLatency : null, (p - warmup) * queries.size());
                time(queries.size(), luceneSearch, timed ? luceneLatency : null, (p - warmup) * queries.size());
            }

            out.printf(Locale.ROOT, "%-28s %14s %14s %12s%n", "", "neural-text", "lucene-wdgf", "ratio nt/lu");
            row(out, "index build ms (median)", median(ourBuild) / 1e6, median(luceneBuild) / 1e6);
            row(out, "query p50 ms", EvalRun.percentile(ourLatency, 50) / 1e6,
                    EvalRun.percentile(luceneLatency, 50) / 1e6);
            row(out, "query p95 ms", EvalRun.percentile(ourLatency, 95) / 1e6,
                    EvalRun.percentile(luceneLatency, 95) / 1e6);
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

    private static double mrr10(EvalDataset data, Searcher searcher) throws IOException {
        // scored like the eval harness: returned ids mapped to canonical ids, as the judgments are
        EvalRunner runner = EvalRunner.defaults();
        List<EvalQuery> queries = data.queries();
        double sum = 0;
        for (int i = 0; i < queries.size(); i++) {
            sum += runner.score(data, queries.get(i), searcher.search(i), 0).metric(runner.suite().mrr());
        }
        return queries.isEmpty() ? 0 : sum / queries.size();
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



    private static void usage(PrintStream out) {
        out.println("usage: Bm25Benchmark (--dataset DIR | DIR) [--builds N] [--warmup N] [--passes N] [--limit K]");
        out.println("  DIR       BEIR dataset folder (required)");
        out.println("  --builds  index builds timed per engine, median reported (default 3)");
        out.println("  --warmup  untimed passes over all queries (default 2)");
        out.println("  --passes  timed passes over all queries (default 5)");
        out.println("  --limit   results per query (default 100)");
    }
}
