package dev.neuraltext.cli.eval;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.cli.install.ModelJars;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.RetrievedSpan;
import dev.neuraltext.eval.SpanNdcg;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.ingest.ChunkSink;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.IncrementalIndexer;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.retrieve.DenseBackfill;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs the semble-dev benchmark: each repository's folder is indexed with the real ingest pipeline (the
 * {@link DirectoryIngestor} defaults, as {@code neural-text index} and the MCP server use them; keywords first, then the
 * dense vectors backfilled as {@code index} does), each question is searched by every system, and the top
 * {@value SpanNdcg#K} chunks are scored with {@link SpanNdcg} (chunk level and file level).
 *
 * <p>Systems: {@code default} (the search {@code neural-text search} and the MCP server run: every leg the index has,
 * default fusion, {@link RepositoryRanking#wholeRepository()}; the dense leg only when a model is loaded),
 * {@code default-unranked} (the same without the ranking stage), {@code bm25} (the BM25 leg alone, same index), and the {@code grep} peer
 * ({@link GrepPeer}) over the same chunks. Document embeddings go through {@link EmbeddingCache} when a cache folder is
 * given. Not thread-safe; one run at a time. Its indexing ({@link #index(SembleDataset.Repository, Embedder,
 * RepositoryRanking)}) and span conversion ({@link #spans}) are public for the harness's users (the never-shipped
 * neural-text-lab module).
 */
public final class SembleHarness {

    static final String DEFAULT = "default";
    static final String BM25 = "bm25";
    static final String GREP = "grep";
    /** The default search without the ranking stage ({@link RepositoryRanking#off()}), run when the default has one. */
    static final String UNRANKED = "default-unranked";

    /**
     * Options: {@code model} null runs without the dense leg; {@code cacheDir} null caches in memory only;
     * {@code latencyRepeats} is how many times each question is timed per system (the median kept).
     */
    record Settings(String model, Path cacheDir, boolean grep, int latencyRepeats) {
        Settings {
            if (latencyRepeats < 1) {
                throw new IllegalArgumentException("--latency-repeats must be >= 1, got " + latencyRepeats);
            }
        }
    }

    /** One question's outcome for one system; {@code nanos} is the search's wall time (0 when not timed). */
    record Scored(double ndcg, double fileNdcg, List<String> top, long nanos, Map<String, Integer> tokens) {
    }

    /** One question and its outcome per system. */
    record QuestionResult(String query, String category, int targets, Map<String, Scored> bySystem) {

        /** The default search's wall time. */
        long defaultNanos() {
            Scored s = bySystem.get(DEFAULT);
            return s == null ? 0 : s.nanos();
        }
    }

    /** One repository's outcome. */
    record RepositoryResult(String name, String language, int files, int chunks, double indexSeconds,
            String indexNote, List<QuestionResult> questions) {
    }

    private final Settings settings;
    private final PrintStream log;

    SembleHarness(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** Runs every repository of {@code dataset} in order. */
    List<RepositoryResult> run(SembleDataset dataset) {
        return withEmbedder(settings, cache -> {
            List<RepositoryResult> out = new ArrayList<>();
            for (SembleDataset.Repository repo : dataset.repositories()) {
                out.add(run(repo, cache));
                if (cache != null) {
                    cache.flush();
                }
            }
            return out;
        });
    }

    /** Runs {@code task} with the settings' model behind an {@link EmbeddingCache} (null without a model), then closes it. */
    static <T> T withEmbedder(Settings settings, Function<EmbeddingCache, T> task) {
        return withEmbedder(settings.model(), settings.cacheDir(), task);
    }

    /**
     * Runs {@code task} with dense model preset {@code model} (null: none, the task gets null) behind an
     * {@link EmbeddingCache} under {@code cacheDir} (null: memory only), then closes the model.
     */
    public static <T> T withEmbedder(String model, Path cacheDir, Function<EmbeddingCache, T> task) {
        Embedder loaded = model == null ? null : ModelJars.load(model);
        try {
            return task.apply(loaded == null ? null : new EmbeddingCache(loaded, cacheDir));
        } finally {
            if (loaded instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    System.err.println("semble: closing the dense model failed: " + e);
                }
            }
        }
    }

    /** An indexed repository: its retriever and chunks, how many files, how long it took and a note on the dense leg. */
    public record Indexed(HybridCaseRetriever retriever, List<ChunkInput> chunks, int files, double seconds, String note) {
    }

    /** Indexes {@code repo}'s folder as {@code neural-text index} does, with the dense leg when {@code embedder}. */
    static Indexed index(SembleDataset.Repository repo, Embedder embedder) {
        return index(repo, embedder, RepositoryRanking.wholeRepository());
    }

    /** As {@link #index(SembleDataset.Repository, Embedder)}, searching with {@code ranking}. */
    public static Indexed index(SembleDataset.Repository repo, Embedder embedder, RepositoryRanking ranking) {
        long t0 = System.nanoTime();
        DirectoryIngestor ingestor = DirectoryIngestor.builder(repo.folder()).build();
        InMemoryCaseStore store = InMemoryCaseStore.create();
        HybridCaseRetriever keywordsFirst = HybridCaseRetriever.builder(store).build();
        IndexUpdate update = IncrementalIndexer.builder(ingestor).batchSize(64).build()
                .update(IndexManifest.empty(""), ChunkSink.of(keywordsFirst::index, keywordsFirst::delete));
        HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).ranking(ranking).build();
        String note = "";
        if (embedder != null) {
            retriever = HybridCaseRetriever.builder(store).embedder(embedder).ranking(ranking).build();
            long before = embedder instanceof EmbeddingCache c ? c.hits() : 0;
            DenseBackfill.Result r = DenseBackfill.builder(store, embedder).denseText(retriever.denseText()).build().run();
            note = r.embedded() + " chunks embedded" + (embedder instanceof EmbeddingCache c
                    ? " (" + (c.hits() - before) + " from the cache)" : "");
        }
        List<ChunkInput> chunks = store.chunks(PayloadFilter.all());
        return new Indexed(retriever, chunks, update.manifest().files().size(), (System.nanoTime() - t0) / 1e9, note);
    }

    private RepositoryResult run(SembleDataset.Repository repo, EmbeddingCache cache) {
        log.println("semble: indexing " + repo.name() + " (" + repo.language() + ") " + repo.folder());
        Indexed ix = index(repo, cache);
        log.printf("semble: %s: %d files, %d chunks in %.1f s %s%n", repo.name(), ix.files(), ix.chunks().size(),
                ix.seconds(), ix.note());
        GrepPeer grep = null;
        AnswerTokens tokens = new AnswerTokens();
        Map<String, ChunkInput> byId = new HashMap<>();
        for (ChunkInput c : ix.chunks()) {
            byId.put(c.id(), c);
        }
        if (settings.grep()) {
            grep = new GrepPeer();
            List<EvalDocument> docs = new ArrayList<>(ix.chunks().size());
            for (ChunkInput c : ix.chunks()) {
                docs.add(new EvalDocument(c.id(), "", c.text(), Map.of()));
            }
            grep.index(docs, ProgressBar.silent());
        }
        HybridCaseRetriever unranked = ix.retriever().ranking().isOff() ? null : retriever(ix, cache,
                RepositoryRanking.off());
        List<QuestionResult> results = new ArrayList<>();
        // one unmeasured pass, so that neither system's latencies include the JIT warming up the code both share
        for (SembleDataset.Question q : repo.questions()) {
            ix.retriever().search(SearchRequest.builder(q.query()).limit(SpanNdcg.K).build());
            if (unranked != null) {
                unranked.search(SearchRequest.builder(q.query()).limit(SpanNdcg.K).build());
            }
        }
        // the default and the unranked default take turns, and which goes first alternates too, so that their
        // latencies compare; every question is timed latencyRepeats times, in rounds over all questions, and keeps
        // its median: a pause of the machine (a JIT compilation taking one of two cores) lands on different
        // questions in different rounds instead of becoming one question's latency and, with 20 questions, the p95
        List<SembleDataset.Question> questions = repo.questions();
        List<List<Scored>> ranked = new ArrayList<>();
        List<List<Scored>> plain = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            ranked.add(new ArrayList<>());
            plain.add(new ArrayList<>());
        }
        for (int r = 0; r < settings.latencyRepeats(); r++) {
            for (int i = 0; i < questions.size(); i++) {
                SembleDataset.Question q = questions.get(i);
                SearchRequest request = SearchRequest.builder(q.query()).limit(SpanNdcg.K).build();
                boolean unrankedFirst = unranked != null && (r + i) % 2 == 1; // each question alternates too
                boolean first = r == 0; // the answers of every round are alike: their costs are counted once
                if (unrankedFirst) {
                    plain.get(i).add(timed(unranked, request, repo, q, first));
                }
                ranked.get(i).add(timed(ix.retriever(), request, repo, q, first));
                if (unranked != null && !unrankedFirst) {
                    plain.get(i).add(timed(unranked, request, repo, q, first));
                }
            }
        }
        for (int i = 0; i < questions.size(); i++) {
            SembleDataset.Question q = questions.get(i);
            Map<String, Scored> by = new LinkedHashMap<>();
            by.put(DEFAULT, median(ranked.get(i)));
            if (unranked != null) {
                by.put(UNRANKED, median(plain.get(i)));
            }
            if (ix.retriever().availableLegs().contains(Leg.DENSE)) {
                by.put(BM25, timed(ix.retriever(), SearchRequest.builder(q.query()).limit(SpanNdcg.K).legs(Leg.BM25)
                        .build(), repo, q, true));
            }
            if (grep != null) {
                List<RetrievedSpan> g = new ArrayList<>();
                for (String id : grep.search(q.query(), SpanNdcg.K).ids()) {
                    g.add(span(byId.get(id).metadata(), repo.prefix()));
                }
                Set<String> files = new LinkedHashSet<>();
                for (String id : grep.search(q.query(), GREP_CHUNKS_FOR_FILES).ids()) {
                    if (files.size() < SpanNdcg.K) {
                        files.add(byId.get(id).metadata().getOrDefault(ChunkMetadata.PATH, id));
                    }
                }
                by.put(GREP, score(g, q, 0, tokens.grep(new ArrayList<>(files), repo.folder(), repo.prefix(),
                        q.targets())));
            }
            results.add(new QuestionResult(q.query(), q.category(), q.targets().size(), by));
        }
        return new RepositoryResult(repo.name(), repo.language(), ix.files(), ix.chunks().size(), ix.seconds(),
                ix.note(), results);
    }

    /** A retriever over {@code ix}'s store with {@code embedder} (may be null) and {@code ranking}. */
    static HybridCaseRetriever retriever(Indexed ix, Embedder embedder, RepositoryRanking ranking) {
        HybridCaseRetriever.Builder b = HybridCaseRetriever.builder(ix.retriever().store()).ranking(ranking);
        if (embedder != null) {
            b.embedder(embedder);
        }
        return b.build();
    }

    /** The grep peer's chunks the files an assistant would read (the first 10 distinct) are taken from. */
    static final int GREP_CHUNKS_FOR_FILES = 200;

    /** How many times each question is timed per system unless {@code --latency-repeats} says otherwise. */
    static final int DEFAULT_LATENCY_REPEATS = 5;

    /** The first of {@code runs} (they rank alike) with the median of their wall times. */
    static Scored median(List<Scored> runs) {
        long[] nanos = runs.stream().mapToLong(Scored::nanos).sorted().toArray();
        Scored first = runs.get(0);
        return new Scored(first.ndcg(), first.fileNdcg(), first.top(), nanos[nanos.length / 2], first.tokens());
    }

    /** The search timed and scored; {@code withTokens}: its answer's token costs too ({@link AnswerTokens}). */
    private static Scored timed(HybridCaseRetriever retriever, SearchRequest request, SembleDataset.Repository repo,
            SembleDataset.Question q, boolean withTokens) {
        long t = System.nanoTime();
        SearchResponse response = retriever.search(request);
        long nanos = System.nanoTime() - t;
        return score(spans(response.hits(), repo.prefix()), q, nanos, withTokens ? AnswerTokens.ours(q.query(),
                response, repo.prefix(), q.targets()) : Map.of());
    }

    static Scored score(List<RetrievedSpan> ranked, SembleDataset.Question q, long nanos, Map<String, Integer> tokens) {
        List<String> top = new ArrayList<>();
        for (RetrievedSpan s : ranked.subList(0, Math.min(SpanNdcg.K, ranked.size()))) {
            top.add(s.path() + ":" + s.startLine() + "-" + s.endLine());
        }
        return new Scored(SpanNdcg.chunkLevel(ranked, q.targets(), SpanNdcg.K),
                SpanNdcg.fileLevel(ranked, q.targets(), SpanNdcg.K), top, nanos, tokens);
    }

    /** The hits as spans, paths relative to the repository root ({@code prefix} + the chunk's path). */
    public static List<RetrievedSpan> spans(List<SearchHit> hits, String prefix) {
        List<RetrievedSpan> out = new ArrayList<>(hits.size());
        for (SearchHit h : hits) {
            out.add(span(h.metadata(), prefix));
        }
        return out;
    }

    static RetrievedSpan span(Map<String, String> metadata, String prefix) {
        String path = metadata.getOrDefault(ChunkMetadata.PATH, "");
        return new RetrievedSpan(prefix.isEmpty() ? path : prefix + "/" + path, line(metadata, ChunkMetadata.START_LINE),
                line(metadata, ChunkMetadata.END_LINE));
    }

    private static int line(Map<String, String> metadata, String key) {
        String v = metadata.get(key);
        if (v == null) {
            return 0;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
