package dev.neuraltext.cli.eval;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.cli.install.ModelJars;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.Reranker;
import dev.neuraltext.encode.SparseEncoder;
import dev.neuraltext.eval.BeirDataset;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.eval.EvalRun;
import dev.neuraltext.eval.EvalRunner;
import dev.neuraltext.eval.HeadToHead;
import dev.neuraltext.eval.MetricSuite;
import dev.neuraltext.eval.QueryResult;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.onnx.DenseModels;
import dev.neuraltext.onnx.EmbeddingPreset;
import dev.neuraltext.onnx.OnnxEmbedder;
import dev.neuraltext.retrieve.DenseText;
import dev.neuraltext.retrieve.GradedFusion;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs an evaluation: loads the dataset, indexes it once into neural-text (all configured legs) and into each peer,
 * runs every technique and peer over every query (after a warm-up), and assembles an {@link EvalReport}. Not
 * thread-safe; one run per instance.
 */
final class EvalHarness {

    private final EvalSettings settings;
    private final ProgressBar progress;
    private final PrintStream log;
    private final List<AutoCloseable> owned = new ArrayList<>();

    EvalHarness(EvalSettings settings, ProgressBar progress, PrintStream log) {
        this.settings = settings;
        this.progress = progress;
        this.log = log;
    }

    EvalReport run() {
        try {
            return doRun();
        } finally {
            closeOwned();
        }
    }

    private void closeOwned() {
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                log.println("warning: closing " + c + " failed: " + e);
            }
        }
        owned.clear();
    }

    /** The name of the previous default's row ({@code --previous-default}). */
    static final String PREVIOUS_DEFAULT = "previous-default";
    private static final String PREVIOUS_FUSION = "shape switch (RRF k=20, BM25 x10 for identifier shape)";

    private Embedder embedder;
    private EmbeddingCache cache;

    /**
     * The library's default before this change, on its own in-memory store: all-MiniLM-L6-v2, the chunk text, the
     * former shape switch, over the same chunks as the default ({@link IndexedChunk}), so the two differ in
     * ranking only.
     */
    private HybridCaseRetriever previousDefault(EvalDataset dataset, List<EvalReport.Indexing> indexing) {
        OnnxEmbedder onnx = OnnxEmbedder.preset(EmbeddingPreset.ALL_MINILM_L6_V2);
        owned.add(onnx);
        EmbeddingCache minilm = new EmbeddingCache(onnx, settings.cacheDir());
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).embedder(minilm)
                .denseText(DenseText.CHUNK_TEXT).autoFusion(GradedFusion.shapeSwitch()).build();
        long t0 = System.nanoTime();
        List<EvalDocument> docs = dataset.documents();
        for (int from = 0; from < docs.size(); from += 256) {
            List<ChunkInput> chunks = new ArrayList<>();
            for (int i = from; i < Math.min(docs.size(), from + 256); i++) {
                chunks.add(IndexedChunk.of(docs.get(i)));
            }
            r.index(chunks);
        }
        minilm.flush();
        indexing.add(new EvalReport.Indexing(PREVIOUS_DEFAULT, docs.size(), (System.nanoTime() - t0) / 1e9,
                minilm.hits() + " document embeddings from the cache, " + minilm.misses() + " computed"));
        return r;
    }
    private SparseEncoder sparse;
    private Reranker reranker;

    /** The retriever over a fresh in-memory store with every configured encoder (owned encoders closed by run). */
    private HybridCaseRetriever buildRetriever() {
        if (settings.dense()) {
            Embedder model = DenseModels.load(settings.model());
            owned.add((AutoCloseable) model);
            cache = new EmbeddingCache(model, settings.cacheDir());
            embedder = cache;
        }
        sparse = settings.spladeModel() == null ? null : OptionalModels.splade(settings.spladeModel(), owned);
        reranker = settings.rerankerModel() == null ? null : OptionalModels.reranker(settings.rerankerModel(), owned);
        HybridCaseRetriever.Builder rb = HybridCaseRetriever.builder(InMemoryCaseStore.create())
                .denseText(settings.denseText());
        rb.ranking(settings.ranking());
        if (embedder != null) {
            rb.embedder(embedder);
        }
        if (sparse != null) {
            rb.sparseEncoder(sparse);
        }
        if (reranker != null) {
            rb.reranker(reranker);
        }
        return rb.build();
    }

    /** Indexes every document in batches; returns the seconds it took. */
    private double index(HybridCaseRetriever retriever, List<EvalDocument> docs) {
        return IndexedChunk.indexAll(retriever, docs, progress);
    }

    private EvalReport doRun() {
        Instant started = Instant.now();
        // what this run needs beyond the installation's models, said before any work starts
        if (settings.peers().contains("langchain4j-minilm")) {
            ModelJars.require(EmbeddingPreset.ALL_MINILM_L6_V2.id(), "the langchain4j-minilm peer");
        }
        if (settings.previousDefault()) {
            ModelJars.require(EmbeddingPreset.ALL_MINILM_L6_V2.id(), "--previous-default");
        }
        if (settings.dense()) {
            ModelJars.require(settings.model(), null);
        }
        EvalDataset dataset = BeirDataset.loader(settings.dataset()).split(settings.split()).load();
        log.println(dataset.summary());
        dataset.warnings().forEach(w -> log.println("warning: " + w));
        MetricSuite suite = MetricSuite.withK(settings.k());
        EvalRunner runner = EvalRunner.builder().metrics(suite).build();

        // ---- neural-text: one index, every configured leg
        HybridCaseRetriever retriever = buildRetriever();
        Set<Leg> legs = EnumSet.copyOf(retriever.availableLegs());
        List<Technique> techniques = selectTechniques(legs, reranker != null);
        Embedder embedder = this.embedder;
        EmbeddingCache cache = this.cache;

        List<EvalReport.Indexing> indexing = new ArrayList<>();
        List<TechniqueResult> results = new ArrayList<>();
        if (!techniques.isEmpty()) {
            List<EvalDocument> docs = dataset.documents();
            double secs = index(retriever, docs);
            String note = "legs " + legs + (cache == null ? "" : "; " + cache.hits()
                    + " document embeddings from the cache, " + cache.misses() + " computed");
            if (cache != null) {
                cache.flush();
            }
            indexing.add(new EvalReport.Indexing("neural-text", docs.size(), secs, note));

            Map<String, TechniqueResult> byName = new HashMap<>();
            HybridCaseRetriever previous = settings.previousDefault() ? previousDefault(dataset, indexing) : null;
            for (Technique t : techniques) {
                if (previous != null && t.name().equals("hybrid")) {
                    // the default and the previous default, query by query in turn: their latencies compare
                    Technique p = new Technique(PREVIOUS_DEFAULT, "hybrid", t.legs(), null, false, false);
                    List<TechniqueResult> pair = runInterleaved(dataset, runner, List.of(retriever, previous),
                            List.of(t, p), List.of("neural-text: " + t.description(settings.alpha()),
                                    "neural-text before graded fusion: " + EmbeddingPreset.ALL_MINILM_L6_V2.id()
                                            + ", chunk text, " + PREVIOUS_FUSION));
                    results.addAll(pair);
                    byName.put(t.name(), pair.get(0));
                    continue;
                }
                TechniqueResult r = runTechnique(dataset, runner, retriever, t);
                results.add(r);
                byName.put(t.name(), r);
            }
            for (int i = 0; i < results.size(); i++) {
                String name = results.get(i).name();
                Technique t = techniques.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
                if (t != null && t.adaptive()) {
                    TechniqueResult fixed = byName.get(t.fixedCutName());
                    results.set(i, results.get(i).withAdaptive(AdaptiveStats.of(dataset, results.get(i).run(),
                            fixed == null ? null : fixed.run(), settings.k())));
                }
            }
        }

        // ---- peers
        Map<String, TechniqueResult> peerResults = new LinkedHashMap<>();
        for (String name : settings.peers()) {
            Peer peer = switch (name) {
                case "grep" -> new GrepPeer();
                case "lucene-standard" -> LucenePeer.standard();
                case "lucene-wdgf" -> LucenePeer.wordDelimiter();
                default -> new MiniLmPeer(settings.cacheDir());
            };
            owned.add(peer);
            progress.start("indexing " + name, dataset.documents().size());
            long t0 = System.nanoTime();
            peer.index(dataset.documents(), progress);
            double secs = (System.nanoTime() - t0) / 1e9;
            progress.finish();
            indexing.add(new EvalReport.Indexing(name, dataset.documents().size(), secs, peer.indexNote()));
            TechniqueResult r = runPeer(dataset, runner, peer);
            peerResults.put(name, r);
            results.add(r);
        }
        TechniqueResult wdgf = peerResults.get("lucene-wdgf");
        TechniqueResult minilm = peerResults.get("langchain4j-minilm");
        if (wdgf != null && minilm != null) {
            results.add(peerRrf(dataset, runner, wdgf, minilm));
        }

        // ---- head to head against the baseline
        List<HeadToHead.Result> h2h = new ArrayList<>();
        TechniqueResult baseline = null;
        for (TechniqueResult r : results) {
            if (r.name().equals(settings.baseline())) {
                baseline = r;
            }
        }
        if (baseline == null && !results.isEmpty()) {
            baseline = results.get(0);
        }
        HeadToHead test = HeadToHead.on(suite.ndcg());
        for (TechniqueResult r : results) {
            if (r != baseline) {
                h2h.add(test.compare(r.run(), baseline.run()));
            }
        }
        for (String pair : settings.compare()) {
            String[] ab = pair.split(":");
            TechniqueResult a = find(results, ab[0].trim());
            TechniqueResult b = find(results, ab[1].trim());
            h2h.add(test.compare(a.run(), b.run()));
        }

        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("dataset", dataset.name());
        meta.put("datasetPath", settings.dataset().toAbsolutePath().normalize().toString());
        meta.put("split", settings.split());
        meta.put("documents", dataset.documents().size());
        meta.put("queries", dataset.queries().size());
        meta.put("excludedQueries", dataset.excludedQueries().size());
        meta.put("judgments", dataset.qrels().size());
        meta.put("warnings", dataset.warnings());
        meta.put("gitCommit", GitInfo.commit());
        meta.put("cores", Runtime.getRuntime().availableProcessors());
        meta.put("java", System.getProperty("java.version"));
        meta.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        meta.put("date", started.truncatedTo(ChronoUnit.SECONDS).toString());
        meta.put("durationSeconds", Math.round((Instant.now().toEpochMilli() - started.toEpochMilli()) / 100.0) / 10.0);
        meta.put("k", settings.k());
        meta.put("depth", settings.depth());
        meta.put("warmupQueries", settings.warmup());
        meta.put("sliceBy", settings.sliceBy());
        meta.put("baseline", baseline == null ? null : baseline.name());
        meta.put("legs", legs.stream().map(Leg::label).toList());
        meta.put("denseModel", embedder == null ? null : embedder.modelId());
        meta.put("denseText", settings.denseText().id());
        meta.put("sparseModel", sparse == null ? null : sparse.modelId());
        meta.put("rerankerModel", reranker == null ? null : reranker.modelId());
        meta.put("alpha", settings.alpha());
        return new EvalReport(dataset, settings, suite, meta, indexing, results, h2h);
    }

    private static TechniqueResult find(List<TechniqueResult> results, String name) {
        for (TechniqueResult r : results) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        List<String> names = results.stream().map(TechniqueResult::name).toList();
        throw new IllegalArgumentException("--compare names '" + name + "', which did not run; ran " + names);
    }

    private List<Technique> selectTechniques(Set<Leg> legs, boolean hasReranker) {
        if (settings.techniques().isEmpty()) {
            return Technique.all(legs, hasReranker, settings.alpha());
        }
        List<Technique> out = new ArrayList<>();
        for (String name : settings.techniques()) {
            if (name.equalsIgnoreCase("none")) {
                continue;
            }
            out.add(Technique.parse(name, legs, hasReranker, settings.alpha()));
        }
        return out;
    }

    private TechniqueResult runTechnique(EvalDataset dataset, EvalRunner runner, HybridCaseRetriever retriever,
            Technique t) {
        return runInterleaved(dataset, runner, List.of(retriever), List.of(t), List.of("neural-text: "
                + t.description(settings.alpha()))).get(0);
    }

    /**
     * Runs techniques side by side: every query goes to each (retriever, technique) pair in turn, the order rotating
     * per query, so that a shared machine's load falls on all alike and their latencies compare.
     */
    private List<TechniqueResult> runInterleaved(EvalDataset dataset, EvalRunner runner,
            List<HybridCaseRetriever> retrievers, List<Technique> ts, List<String> descriptions) {
        List<EvalQuery> queries = dataset.queries();
        int n = ts.size();
        for (int j = 0; j < n; j++) {
            Technique t = ts.get(j);
            int limit = t.adaptive() ? settings.k() : settings.depth();
            for (int i = 0; i < Math.min(settings.warmup(), queries.size()); i++) {
                retrievers.get(j).search(request(t, queries.get(i).text(), limit));
            }
        }
        progress.start(n == 1 ? ts.get(0).name() : ts.get(0).name() + " and " + (n - 1) + " more", queries.size());
        List<List<QueryResult>> results = new ArrayList<>();
        long[][] total = new long[n][queries.size()];
        long[][] encoding = new long[n][queries.size()];
        for (int j = 0; j < n; j++) {
            results.add(new ArrayList<>(queries.size()));
        }
        for (int i = 0; i < queries.size(); i++) {
            EvalQuery q = queries.get(i);
            for (int step = 0; step < n; step++) {
                int j = (i + step) % n;
                Technique t = ts.get(j);
                int limit = t.adaptive() ? settings.k() : settings.depth();
                boolean encodes = t.legs().contains(Leg.DENSE) || t.legs().contains(Leg.SPARSE);
                long start = System.nanoTime();
                SearchResponse response = retrievers.get(j).search(request(t, q.text(), limit));
                total[j][i] = System.nanoTime() - start;
                encoding[j][i] = encodes ? response.timings().queryEncoding().toNanos() : 0;
                List<String> ids = new ArrayList<>(response.hits().size());
                for (SearchHit h : response.hits()) {
                    ids.add(h.id());
                }
                results.get(j).add(runner.score(dataset, q, ids, total[j][i]));
            }
            progress.update(i + 1);
        }
        progress.finish();
        List<TechniqueResult> out = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            Technique t = ts.get(j);
            EvalRun run = new EvalRun(t.name(), dataset.name(), runner.suite(), results.get(j));
            out.add(new TechniqueResult(t.name(), TechniqueResult.NEURAL_TEXT, descriptions.get(j), run, total[j],
                    encoding[j], null));
        }
        return out;
    }

    private static SearchRequest request(Technique t, String text, int limit) {
        return SearchRequest.builder(text).limit(limit).legs(t.legs()).fusion(t.fusionFor(text)).rerank(t.rerank())
                .adaptive(t.adaptive()).build();
    }

    private TechniqueResult runPeer(EvalDataset dataset, EvalRunner runner, Peer peer) {
        List<EvalQuery> queries = dataset.queries();
        for (int i = 0; i < Math.min(settings.warmup(), queries.size()); i++) {
            peer.search(queries.get(i).text(), settings.depth());
        }
        progress.start(peer.name(), queries.size());
        List<QueryResult> results = new ArrayList<>(queries.size());
        long[] total = new long[queries.size()];
        long[] encoding = new long[queries.size()];
        for (int i = 0; i < queries.size(); i++) {
            EvalQuery q = queries.get(i);
            long start = System.nanoTime();
            Peer.Ranking ranking = peer.search(q.text(), settings.depth());
            total[i] = System.nanoTime() - start;
            encoding[i] = ranking.encodingNanos();
            results.add(runner.score(dataset, q, ranking.ids(), total[i]));
            progress.update(i + 1);
        }
        progress.finish();
        return new TechniqueResult(peer.name(), TechniqueResult.PEER, peer.description(),
                new EvalRun(peer.name(), dataset.name(), runner.suite(), results), total, encoding, null);
    }

    /**
     * RRF (k = 60, 1-based ranks, top {@code depth} of each) of two peers' rankings; its latency is the sum of theirs
     * (run one after the other).
     */
    private TechniqueResult peerRrf(EvalDataset dataset, EvalRunner runner, TechniqueResult a, TechniqueResult b) {
        List<QueryResult> results = new ArrayList<>();
        List<QueryResult> ra = a.run().results();
        long[] total = new long[ra.size()];
        long[] encoding = new long[ra.size()];
        for (int i = 0; i < ra.size(); i++) {
            QueryResult x = ra.get(i);
            QueryResult y = b.run().result(x.query().id());
            Map<String, Double> scores = new LinkedHashMap<>();
            for (List<String> ranked : List.of(x.ranked(), y.ranked())) {
                for (int r = 0; r < ranked.size(); r++) {
                    scores.merge(ranked.get(r), 1.0 / (60 + r + 1), Double::sum);
                }
            }
            List<Map.Entry<String, Double>> entries = new ArrayList<>(scores.entrySet());
            // equal fused scores (same ranks in swapped lists) are ordered by id, so the result does not depend on
            // which list is read first
            entries.sort((e1, e2) -> e1.getValue().equals(e2.getValue()) ? e1.getKey().compareTo(e2.getKey())
                    : Double.compare(e2.getValue(), e1.getValue()));
            List<String> ids = new ArrayList<>();
            for (int r = 0; r < Math.min(settings.depth(), entries.size()); r++) {
                ids.add(entries.get(r).getKey());
            }
            total[i] = a.totalNanos()[i] + b.totalNanos()[i];
            encoding[i] = a.encodingNanos()[i] + b.encodingNanos()[i];
            results.add(runner.score(dataset, x.query(), ids, total[i]));
        }
        return new TechniqueResult("peers-rrf", TechniqueResult.PEER, "RRF (k = 60) of " + a.name() + " and "
                + b.name(), new EvalRun("peers-rrf", dataset.name(), runner.suite(), results), total, encoding, null);
    }
}
