package dev.neuraltext.cli.bench;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.eval.BeirDataset;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalRun;
import dev.neuraltext.cli.eval.LucenePeer;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusedResult;
import dev.neuraltext.fusion.Fusion;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.DenseSearch;
import dev.neuraltext.store.HnswParams;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexedCase;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.VectorUtil;

/**
 * {@code neural-text bench scale}: neural-text's embedded store next to Lucene 9.12 on a synthetic corpus of any size
 * ({@link SyntheticCorpus}: a BEIR corpus replicated with identifiers renamed per copy; {@code --vectors clustered}, the
 * default, puts a copy's vector near its base document's and a query's near its relevant document's, {@code random}
 * gives independent random unit vectors), in one JVM, on one thread, over the same queries, engines interleaved pass
 * by pass. Our dense leg searches as {@code --dense-search} says (default auto: the HNSW graph from
 * {@link DenseSearch#AUTO_ANN_THRESHOLD} vectors on), with {@code --hnsw-*} as its {@link HnswParams}.
 *
 * <p>Engines and legs: neural-text's BM25 leg on its own ({@code neural-text bm25}: a {@link Bm25Index} with the
 * store's settings over the same chunks, returning ids and scores as Lucene's {@code TopDocs} does; checked to rank
 * every query exactly as the store does), the {@link InMemoryCaseStore}'s search of that leg alone ({@code
 * neural-text-hits bm25}: hits with their text decoded and metadata, what a caller of the store gets), its dense leg,
 * BM25 + dense fused with the default fusion, Lucene BM25 with the eval's code analyzer ({@link LucenePeer#codeAnalyzer(boolean)}), Lucene HNSW
 * with float and with int8 (scalar-quantized) vectors, an exact {@link VectorUtil} scan, and Lucene BM25 + that scan
 * fused the same way as ours (the reference of the hybrid row). Both engines get the query text: ours tokenizes it
 * inside its search, Lucene's analyzer runs inside the timed call too; query vectors are given (no model runs). Each leg fetches {@code --leg-limit} candidates (the
 * retriever's default minimum leg limit, 100); hybrid returns {@code --limit}. Reported: p50 / p95 / p99 per engine
 * and leg with the ratio to the Lucene reference of that leg, build time and throughput, retained heap per chunk after
 * a full GC, bytes on disk per chunk, save and load (open) times, and dense recall@10 against the exact scan. Indexes
 * live in a temporary folder (Lucene's in an {@link MMapDirectory}) that is deleted at the end. {@code --json FILE}
 * writes every figure as a record {@code {docs, engine, leg, metric, value}}. {@code --ef-sweep} then loads the saved
 * store again with each listed {@code efSearch} and times its dense and hybrid legs with their recall (engine {@code
 * neural-text-efN}), so that one graph build serves the whole curve.
 *
 * <p>Not thread-safe; run one at a time, with a heap that holds the corpus twice (e.g. {@code -Xmx16g} for 1M chunks).
 */
public final class ScaleBenchmark {

    private static final String OURS = "neural-text";
    private static final String OURS_HITS = "neural-text-hits";
    static final String LUCENE_BM25 = "lucene-bm25";
    static final String LUCENE_SCAN = "lucene-exact-scan";
    static final String LUCENE_HYBRID = "lucene-bm25+scan";
    private static final String HNSW_FLOAT = "lucene-hnsw-float";
    private static final String HNSW_INT8 = "lucene-hnsw-int8";
    private static final int RECALL_K = 10;
    private static final int BATCH = 1000;

    /** One timed search: engine, leg, the engine it is compared with, and the search of query {@code i}. */
    record Runner(String engine, String leg, String reference, Search search) {
    }

    @FunctionalInterface
    interface Search {
        List<String> run(int query) throws IOException;
    }

    private final ScaleOptions options;
    private final PrintStream out;
    private final ScaleReport report;

    private ScaleBenchmark(ScaleOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.report = new ScaleReport(options.docs(), out);
    }

    public static void main(String[] args) {
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs the benchmark; returns the process exit code (0 ok, 2 usage error, 1 failure). */
    public static int run(String... args) {
        ScaleOptions options;
        try {
            options = ScaleOptions.parse(args);
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            System.err.println("bad arguments: " + e.getMessage());
            ScaleOptions.usage(System.err);
            return 2;
        }
        if (options == null) {
            ScaleOptions.usage(System.out);
            return 0;
        }
        if (!Files.isRegularFile(options.dataset().resolve("corpus.jsonl"))) {
            System.err.println("no corpus.jsonl under " + options.dataset().toAbsolutePath());
            return 2;
        }
        try {
            new ScaleBenchmark(options, System.out).bench();
            return 0;
        } catch (IOException | UncheckedIOException | NeuralTextException e) {
            System.err.println("benchmark failed: " + e.getMessage());
            return 1;
        }
    }

    private void bench() throws IOException {
        EvalDataset data = BeirDataset.load(options.dataset());
        SyntheticCorpus corpus = new SyntheticCorpus(data.documents(), data.queries(), relevantBase(data),
                options.docs(), options.dimension(), options.seed(), options.vectors());
        int n = corpus.size();
        int q = options.queries();
        out.printf(Locale.ROOT, "bench scale: %,d documents (%d copies of %s, %d documents), %d queries, dense %s,"
                        + " leg limit %d, limit %d, %d warm-up and %d timed pass(es), max heap %d MB%n", n,
                corpus.copies(), options.dataset().getFileName(), data.documents().size(), q,
                options.dense() ? options.dimension() + "-d " + options.vectors().name().toLowerCase(Locale.ROOT)
                        + " unit vectors, dense search " + options.denseSearch().name().toLowerCase(Locale.ROOT) + " "
                        + options.hnswParams() : "off", options.legLimit(),
                options.limit(), options.warmup(), options.passes(), Runtime.getRuntime().maxMemory() >> 20);

        String[] ids = new String[n];
        for (int o = 0; o < n; o++) {
            ids[o] = corpus.document(o).id();
        }
        String[] queryTexts = new String[q];
        for (int i = 0; i < q; i++) {
            queryTexts[i] = corpus.query(i);
        }
        float[][] vectors = null;
        float[][] queryVectors = null;
        if (options.dense()) {
            vectors = new float[n][];
            for (int o = 0; o < n; o++) {
                vectors[o] = corpus.documentVector(o);
            }
            queryVectors = new float[q][];
            for (int i = 0; i < q; i++) {
                queryVectors[i] = corpus.queryVector(i);
            }
        }
        Path work = Files.createTempDirectory("neural-text-bench-scale");
        try {
            run(corpus, ids, queryTexts, vectors, queryVectors, work);
        } finally {
            deleteTree(work);
        }
        if (options.json() != null) {
            report.writeJson(options.json());
            out.println("wrote " + options.json().toAbsolutePath());
        }
    }

    /** Per query of {@code data}, the index of its first relevant document (highest grade), or -1. */
    private static int[] relevantBase(EvalDataset data) {
        Map<String, Integer> index = new HashMap<>();
        for (int d = 0; d < data.documents().size(); d++) {
            index.put(data.documents().get(d).id(), d);
        }
        int[] out = new int[data.queries().size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = -1;
            int best = 0;
            for (Map.Entry<String, Integer> j : data.judgments(data.queries().get(i)).entrySet()) {
                Integer d = index.get(data.canonicalId(j.getKey()));
                if (d != null && j.getValue() > best) {
                    best = j.getValue();
                    out[i] = d;
                }
            }
        }
        return out;
    }

    private void run(SyntheticCorpus corpus, String[] ids, String[] queryTexts, float[][] vectors,
            float[][] queryVectors, Path work) throws IOException {
        int n = corpus.size();
        long baseline = usedHeapAfterGc();

        // ---- neural-text: BM25 only, then BM25 + dense; built, saved, loaded
        long t0 = System.nanoTime();
        InMemoryCaseStore bm25Only = build(corpus, null);
        double bm25Build = seconds(t0);
        long bm25Heap = usedHeapAfterGc() - baseline;
        IndexFingerprint lexical = InMemoryCaseStore.builder().fingerprint();
        Path bm25Dir = work.resolve("ours-bm25");
        t0 = System.nanoTime();
        bm25Only.save(bm25Dir, lexical);
        double bm25Save = seconds(t0);
        bm25Only = null;
        usedHeapAfterGc();
        t0 = System.nanoTime();
        InMemoryCaseStore bm25Loaded = InMemoryCaseStore.load(bm25Dir, lexical);
        double bm25Load = seconds(t0);
        long bm25LoadedHeap = usedHeapAfterGc() - baseline;
        bm25Loaded.count(PayloadFilter.all()); // keeps it reachable until measured
        bm25Loaded = null;
        report.buildFigures(OURS, "bm25", n, bm25Build, bm25Heap, bm25LoadedHeap, size(bm25Dir), bm25Save, bm25Load);

        InMemoryCaseStore ours;
        Path hybridDir = null;
        IndexFingerprint hybridFingerprint = null;
        if (vectors != null) {
            usedHeapAfterGc();
            t0 = System.nanoTime();
            InMemoryCaseStore built = build(corpus, vectors);
            double build = seconds(t0);
            long heap = usedHeapAfterGc() - baseline;
            IndexFingerprint fingerprint = lexical.withDense(options.vectors().name().toLowerCase(Locale.ROOT)
                    + "-unit-vectors", options.dimension());
            Path dir = work.resolve("ours-hybrid");
            t0 = System.nanoTime();
            built.save(dir, fingerprint);
            double save = seconds(t0);
            built = null;
            usedHeapAfterGc();
            t0 = System.nanoTime();
            ours = storeBuilder().load(dir, fingerprint);
            double load = seconds(t0);
            long loadedHeap = usedHeapAfterGc() - baseline;
            report.buildFigures(OURS, "bm25+dense", n, build, heap, loadedHeap, size(dir), save, load);
            hybridDir = dir;
            hybridFingerprint = fingerprint;
        } else {
            ours = InMemoryCaseStore.load(bm25Dir, lexical);
        }
        InMemoryCaseStore store = ours;
        Bm25Index bm25Leg = bm25Leg(corpus);

        // ---- Lucene BM25 (code analyzer), then HNSW float and int8
        long before = usedHeapAfterGc();
        Path luceneDir = work.resolve("lucene-bm25");
        t0 = System.nanoTime();
        buildLucene(luceneDir, corpus, null, null);
        double luceneBuild = seconds(t0);
        t0 = System.nanoTime();
        DirectoryReader bm25Reader = DirectoryReader.open(new MMapDirectory(luceneDir));
        double luceneOpen = seconds(t0);
        IndexSearcher bm25Searcher = new IndexSearcher(bm25Reader);
        bm25Searcher.setSimilarity(new BM25Similarity());
        long luceneHeap = usedHeapAfterGc() - before;
        report.buildFigures(LUCENE_BM25, "bm25", n, luceneBuild, luceneHeap, luceneHeap, size(luceneDir), 0, luceneOpen);

        List<AutoCloseable> toClose = new ArrayList<>();
        toClose.add(bm25Reader);
        try {
            IndexSearcher hnswFloat = null;
            IndexSearcher hnswInt8 = null;
            if (options.hnsw()) {
                hnswFloat = openHnsw(work.resolve("lucene-hnsw-float"), corpus, vectors, new Lucene99HnswVectorsFormat(),
                        HNSW_FLOAT, toClose);
                hnswInt8 = openHnsw(work.resolve("lucene-hnsw-int8"), corpus, vectors,
                        new Lucene99HnswScalarQuantizedVectorsFormat(), HNSW_INT8, toClose);
            }
            if (vectors != null) {
                report.figure(LUCENE_SCAN, "dense", "heap_bytes_per_chunk", (double) n * options.dimension() * 4 / n);
            }
            timeAll(store, bm25Leg, bm25Searcher, hnswFloat, hnswInt8, ids, queryTexts, vectors, queryVectors);
            if (vectors != null && !options.efSweep().isEmpty()) {
                store = null;
                ours = null;
                sweepEf(hybridDir, hybridFingerprint, ids, queryTexts, vectors, queryVectors);
            }
        } finally {
            for (AutoCloseable c : toClose) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IOException("closing a Lucene reader failed", e);
                }
            }
        }
    }

    private void timeAll(InMemoryCaseStore store, Bm25Index bm25Leg, IndexSearcher bm25Searcher,
            IndexSearcher hnswFloat, IndexSearcher hnswInt8, String[] ids, String[] queryTexts, float[][] vectors,
            float[][] queryVectors) throws IOException {
        int legLimit = options.legLimit();
        int limit = options.limit();
        // both engines get the query text: ours tokenizes it inside the search, Lucene analyses it in the timed call
        Analyzer queryAnalyzer = LucenePeer.codeAnalyzer(false);
        Fusion fusion = Fusion.of(FusionMethod.defaultMethod());
        List<Runner> runners = new ArrayList<>();
        // the leg (ids and scores, as Lucene's TopDocs), and the store's search of that leg alone (hits with text)
        runners.add(new Runner(OURS, "bm25", LUCENE_BM25, i -> legIds(bm25Leg.search(queryTexts[i], legLimit))));
        runners.add(new Runner(OURS_HITS, "bm25", LUCENE_BM25,
                i -> ids(store.search(query(queryTexts[i], null, EnumSet.of(Leg.BM25), legLimit, legLimit)))));
        for (int i = 0; i < queryTexts.length; i++) {
            // the store breaks score ties by id (the leg by doc ordinal): compare with the leg ranked that way
            List<String> leg = bm25Leg.search(queryTexts[i], Math.max(legLimit, ids.length)).stream()
                    .sorted(java.util.Comparator.comparingDouble(LegResult::score).reversed()
                            .thenComparing(LegResult::id))
                    .limit(legLimit).map(LegResult::id).toList();
            List<String> hits = runners.get(1).search().run(i);
            if (!leg.equals(hits)) {
                throw new IllegalStateException("the BM25 leg and the store's BM25 search rank query " + i + " ('"
                        + queryTexts[i] + "') differently: " + leg + " against " + hits);
            }
        }
        runners.add(new Runner(LUCENE_BM25, "bm25", LUCENE_BM25,
                i -> luceneIds(bm25Searcher.search(LucenePeer.termsQuery(queryAnalyzer, "text", queryTexts[i]), legLimit),
                        ids)));
        if (vectors != null) {
            runners.add(new Runner(OURS, "dense", LUCENE_SCAN, i -> ids(store.search(
                    query(queryTexts[i], queryVectors[i], EnumSet.of(Leg.DENSE), legLimit, legLimit)))));
            runners.add(new Runner(LUCENE_SCAN, "dense", LUCENE_SCAN,
                    i -> ordinalIds(ExactScan.top(vectors, queryVectors[i], legLimit), ids)));
            if (hnswFloat != null) {
                IndexSearcher s = hnswFloat;
                runners.add(new Runner(HNSW_FLOAT, "dense", LUCENE_SCAN,
                        i -> luceneIds(s.search(new KnnFloatVectorQuery("v", queryVectors[i], legLimit), legLimit), ids)));
            }
            if (hnswInt8 != null) {
                IndexSearcher s = hnswInt8;
                runners.add(new Runner(HNSW_INT8, "dense", LUCENE_SCAN,
                        i -> luceneIds(s.search(new KnnFloatVectorQuery("v", queryVectors[i], legLimit), legLimit), ids)));
            }
            runners.add(new Runner(OURS, "hybrid", LUCENE_HYBRID, i -> ids(store.search(
                    query(queryTexts[i], queryVectors[i], EnumSet.of(Leg.BM25, Leg.DENSE), legLimit, limit)))));
            runners.add(new Runner(LUCENE_HYBRID, "hybrid", LUCENE_HYBRID, i -> {
                Map<Leg, List<LegResult>> legs = new EnumMap<>(Leg.class);
                legs.put(Leg.BM25, legResults(bm25Searcher.search(
                        LucenePeer.termsQuery(queryAnalyzer, "text", queryTexts[i]), legLimit), ids));
                int[] top = ExactScan.top(vectors, queryVectors[i], legLimit);
                List<LegResult> dense = new ArrayList<>(top.length);
                for (int o : top) {
                    dense.add(new LegResult(ids[o], VectorUtil.dotProduct(queryVectors[i], vectors[o])));
                }
                legs.put(Leg.DENSE, dense);
                List<FusedResult> fused = fusion.fuse(legs, limit);
                List<String> out = new ArrayList<>(fused.size());
                fused.forEach(f -> out.add(f.id()));
                return out;
            }));
            recall(runners, ids, vectors, queryVectors);
        }

        time(runners, queryTexts.length);
        report.latencies(runners);
        report.indexes();
    }

    /**
     * The dense and hybrid legs again, for each {@code --ef-sweep} value: the saved store loaded with that
     * {@code efSearch} as a fixed beam (efSearchScale 0; the graph is read, not rebuilt), its recall@10 against the
     * exact scan and its latency.
     */
    private void sweepEf(Path dir, IndexFingerprint fingerprint, String[] ids, String[] queryTexts, float[][] vectors,
            float[][] queryVectors) throws IOException {
        int legLimit = options.legLimit();
        HnswParams base = options.hnswParams();
        List<Runner> all = new ArrayList<>();
        for (int ef : options.efSweep()) {
            usedHeapAfterGc();
            InMemoryCaseStore store = InMemoryCaseStore.builder().denseSearch(options.denseSearch())
                    .hnswParams(new HnswParams(base.maxConnections(), base.beamWidth(), ef, base.buildThreads(), 0))
                    .load(dir, fingerprint);
            String engine = OURS + "-ef" + ef;
            List<Runner> runners = List.of(
                    new Runner(engine, "dense", LUCENE_SCAN, i -> ids(store.search(
                            query(queryTexts[i], queryVectors[i], EnumSet.of(Leg.DENSE), legLimit, legLimit)))),
                    new Runner(engine, "hybrid", LUCENE_HYBRID, i -> ids(store.search(query(queryTexts[i],
                            queryVectors[i], EnumSet.of(Leg.BM25, Leg.DENSE), legLimit, options.limit())))));
            recall(runners, ids, vectors, queryVectors);
            time(runners, queryTexts.length);
            all.addAll(runners);
            out.printf(Locale.ROOT, "  efSearch %d done%n", ef);
        }
        out.printf(Locale.ROOT, "%nefSearch sweep (the same saved graph loaded with each efSearch):");
        report.latencies(all);
    }

    /** Times every runner over every query, interleaved pass by pass, and records p50 / p95 / p99 and the ratio. */
    private void time(List<Runner> runners, int queries) throws IOException {
        long[][] latency = new long[runners.size()][queries * options.passes()];
        for (int p = 0; p < options.warmup() + options.passes(); p++) {
            boolean timed = p >= options.warmup();
            for (int r = 0; r < runners.size(); r++) {
                Search search = runners.get(r).search();
                for (int i = 0; i < queries; i++) {
                    long t0 = System.nanoTime();
                    search.run(i);
                    long elapsed = System.nanoTime() - t0;
                    if (timed) {
                        latency[r][(p - options.warmup()) * queries + i] = elapsed;
                    }
                }
            }
            out.printf(Locale.ROOT, "  pass %d of %d done%n", p + 1, options.warmup() + options.passes());
        }
        for (int r = 0; r < runners.size(); r++) {
            Runner runner = runners.get(r);
            for (int pct : new int[] {50, 95, 99}) {
                report.figure(runner.engine(), runner.leg(), "p" + pct + "_ms", EvalRun.percentile(latency[r], pct) / 1e6);
            }
        }
        for (Runner runner : runners) {
            double p50 = report.value(runner.engine(), runner.leg(), "p50_ms");
            double ref = report.value(runner.reference(), runner.leg(), "p50_ms");
            report.figure(runner.engine(), runner.leg(), "p50_ratio_to_" + runner.reference(), p50 / ref);
        }
    }

    /** Dense recall@10 of every dense runner against the exact scan's top 10 (top leg limit, if smaller). */
    private void recall(List<Runner> runners, String[] ids, float[][] vectors, float[][] queryVectors)
            throws IOException {
        int queries = queryVectors.length;
        int k = Math.min(RECALL_K, options.legLimit());
        List<Set<String>> exact = new ArrayList<>(queries);
        for (int i = 0; i < queries; i++) {
            exact.add(new HashSet<>(ordinalIds(ExactScan.top(vectors, queryVectors[i], k), ids)));
        }
        for (Runner runner : runners) {
            if (!runner.leg().equals("dense")) {
                continue;
            }
            long found = 0;
            for (int i = 0; i < queries; i++) {
                List<String> got = runner.search().run(i);
                for (String id : got.subList(0, Math.min(k, got.size()))) {
                    if (exact.get(i).contains(id)) {
                        found++;
                    }
                }
            }
            report.figure(runner.engine(), "dense", "recall_at_10", (double) found / ((long) queries * k));
        }
    }

    private InMemoryCaseStore.Builder storeBuilder() {
        return InMemoryCaseStore.builder().denseSearch(options.denseSearch()).hnswParams(options.hnswParams());
    }

    private HybridQuery query(String text, float[] dense, Set<Leg> legs, int legLimit, int limit) {
        return new HybridQuery(text, dense, null, legs, PayloadFilter.all(), legLimit, limit,
                FusionMethod.defaultMethod(), false);
    }

    /**
     * The embedded store's BM25 leg on its own: a {@link Bm25Index} with the store's default settings, given the same
     * chunks' BM25 fields, so that the leg can be timed as Lucene's search is (ids and scores, no stored text). The
     * timing checks that it ranks every query exactly as the store does.
     */
    private static Bm25Index bm25Leg(SyntheticCorpus corpus) {
        Bm25Index index = Bm25Index.builder().build();
        List<Bm25Index.Document> batch = new ArrayList<>(BATCH);
        for (int o = 0; o < corpus.size(); o++) {
            var chunk = corpus.document(o).toChunkInput();
            batch.add(new Bm25Index.Document(chunk.id(), chunk.bm25Fields()));
            if (batch.size() == BATCH) {
                index.upsertAll(batch);
                batch.clear();
            }
        }
        index.upsertAll(batch);
        return index;
    }

    private InMemoryCaseStore build(SyntheticCorpus corpus, float[][] vectors) {
        InMemoryCaseStore store = storeBuilder().build();
        List<IndexedCase> batch = new ArrayList<>(BATCH);
        for (int o = 0; o < corpus.size(); o++) {
            batch.add(new IndexedCase(corpus.document(o).toChunkInput(), vectors == null ? null : vectors[o], null));
            if (batch.size() == BATCH) {
                store.upsert(batch);
                batch.clear();
            }
        }
        store.upsert(batch);
        return store;
    }

    private void buildLucene(Path dir, SyntheticCorpus corpus, float[][] vectors, KnnVectorsFormat format)
            throws IOException {
        IndexWriterConfig config = new IndexWriterConfig(LucenePeer.codeAnalyzer(true))
                .setSimilarity(new BM25Similarity())
                .setMergePolicy(new LogByteSizeMergePolicy()) // merges keep insertion order: doc id = ordinal
                .setRAMBufferSizeMB(vectors == null ? 256 : 1900);
        if (format != null) {
            Codec codec = new Lucene912Codec() {
                @Override
                public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                    return format;
                }
            };
            config.setCodec(codec);
        }
        try (MMapDirectory directory = new MMapDirectory(dir); IndexWriter writer = new IndexWriter(directory, config)) {
            for (int o = 0; o < corpus.size(); o++) {
                Document doc = new Document();
                if (vectors == null) {
                    EvalDocument d = corpus.document(o);
                    doc.add(new TextField("text", d.title() + "\n" + d.text(), Field.Store.NO));
                } else {
                    doc.add(new KnnFloatVectorField("v", vectors[o], VectorSimilarityFunction.DOT_PRODUCT));
                }
                writer.addDocument(doc);
            }
            writer.forceMerge(1);
        }
    }

    private IndexSearcher openHnsw(Path dir, SyntheticCorpus corpus, float[][] vectors, KnnVectorsFormat format,
            String engine, List<AutoCloseable> toClose) throws IOException {
        long before = usedHeapAfterGc();
        long t0 = System.nanoTime();
        buildLucene(dir, corpus, vectors, format);
        double build = seconds(t0);
        t0 = System.nanoTime();
        DirectoryReader reader = DirectoryReader.open(new MMapDirectory(dir));
        double open = seconds(t0);
        toClose.add(reader);
        long heap = usedHeapAfterGc() - before;
        report.buildFigures(engine, "dense", corpus.size(), build, heap, heap, size(dir), 0, open);
        out.printf(Locale.ROOT, "  %s built in %.1f s%n", engine, build);
        return new IndexSearcher(reader);
    }

    // ------------------------------------------------------------------ helpers

    private static List<String> ids(List<SearchHit> hits) {
        List<String> out = new ArrayList<>(hits.size());
        hits.forEach(h -> out.add(h.id()));
        return out;
    }

    private static List<String> legIds(List<LegResult> results) {
        List<String> out = new ArrayList<>(results.size());
        results.forEach(r -> out.add(r.id()));
        return out;
    }

    private static List<String> luceneIds(TopDocs top, String[] ids) {
        List<String> out = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc sd : top.scoreDocs) {
            out.add(ids[sd.doc]);
        }
        return out;
    }

    private static List<LegResult> legResults(TopDocs top, String[] ids) {
        List<LegResult> out = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc sd : top.scoreDocs) {
            out.add(new LegResult(ids[sd.doc], sd.score));
        }
        return out;
    }

    private static List<String> ordinalIds(int[] ordinals, String[] ids) {
        List<String> out = new ArrayList<>(ordinals.length);
        for (int o : ordinals) {
            out.add(ids[o]);
        }
        return out;
    }

    /** Used heap after full collections (until it stops shrinking), in bytes. */
    static long usedHeapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (now >= used) {
                return now;
            }
            used = now;
        }
        return used;
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> all = new ArrayList<>(files.toList());
            all.sort((a, b) -> b.getNameCount() - a.getNameCount());
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        }
    }
}
