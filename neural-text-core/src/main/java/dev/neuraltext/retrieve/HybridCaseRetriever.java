package dev.neuraltext.retrieve;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.Reranker;
import dev.neuraltext.encode.SparseEncoder;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.SearchTimings;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexedCase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The object users hold: indexes chunks (encoding them in batches) into a {@link CaseStore} and answers
 * {@link SearchRequest}s with the store's fused legs, an optional rerank of the shortlist and adaptive extension.
 *
 * <p><b>Legs.</b> BM25 is always available; {@link Leg#DENSE} needs an {@link Embedder}, {@link Leg#SPARSE} a
 * {@link SparseEncoder}. A search runs the requested legs (all available ones when the request names none) that this
 * retriever can run and that the store holds data for ({@link CaseStore#legsWithData()}); a requested leg that cannot run
 * is skipped and {@link SearchResponse#legsRun()} says what ran.
 *
 * <p><b>Search pipeline.</b> The query is encoded once per vector leg ({@link TextRole#QUERY}, timed as
 * {@link SearchTimings#queryEncoding()}). The store returns {@code fetch = adaptiveExtension.fetchSize(limit)} fused
 * candidates (when reranking, at least {@code max(rerankDepth, limit)}), each leg contributing its best
 * {@code max(fetch, minLegLimit)} (default {@value #DEFAULT_MIN_LEG_LIMIT}) so that fusion sees deep enough lists.
 * With a reranker and {@link SearchRequest#rerank()}, the top {@code max(rerankDepth, limit)} candidates (default depth
 * {@value #DEFAULT_RERANK_DEPTH}) are scored by {@link Reranker#score}: those scores (in [0, 1]) become the hits'
 * {@link SearchHit#score()}, the fused score is kept, and candidates below the depth are dropped so every score is on
 * the reranker's scale. Then {@link AdaptiveExtension} runs when {@link SearchRequest#adaptive()}; otherwise the list is
 * cut to the limit ({@link SearchResponse#totalAboveThreshold()} is reported either way).
 *
 * <p><b>Automatic fusion.</b> A request without an explicit {@link SearchRequest#fusion()} (the default) is fused by
 * {@link #fusionFor(String)}: weighted RRF whose BM25 weight is a graded function of the query (the share of tokens
 * that look like code, the share of English stop words, the identifier shape), see {@link GradedFusion}; the default
 * parameters, {@link GradedFusion#defaults()}, were fitted across three dev datasets with leave-one-dataset-out. An
 * explicit fusion method in the request is honoured exactly; the fused score stays on the normalised RRF scale of
 * {@link FusionMethod}.
 *
 * <p><b>Ranking stage.</b> Unless the request sets an explicit fusion method or asks to rerank with a reranker, the
 * fused candidates (at least {@link RepositoryRanking#depth()} of them) are re-ordered by the retriever's
 * {@link RepositoryRanking} (default {@link RepositoryRanking#defaults()}): definition, file-name, folder and file
 * evidence, path priors and per-file diversity, each hit carrying its signals in {@link SearchHit#rankSignals()}.
 *
 * <p><b>Indexing.</b> {@link #index(List)} encodes {@code indexBatchSize} chunks at a time (default
 * {@value #DEFAULT_INDEX_BATCH_SIZE}, {@link TextRole#DOCUMENT}) and upserts each batch; an embedder whose vectors do not
 * have its declared {@link Embedder#dimension()}, or whose dimension differs from the store's, fails at index time.
 *
 * <p><b>Errors.</b> Failures of the encoders, the reranker or the store that are not already
 * {@link NeuralTextException}s are wrapped in a {@link NonRetriableNeuralTextException} naming the step that failed,
 * with the cause attached.
 *
 * <p><b>Thread safety.</b> Immutable once built; safe for concurrent searches, also while another thread indexes
 * (the store serialises writers and isolates readers). It does not own the store or the encoders: whoever created them
 * closes them.
 */
public final class HybridCaseRetriever {

    /** Default number of fused candidates the reranker rescores. */
    public static final int DEFAULT_RERANK_DEPTH = 50;
    /** Default number of chunks encoded and upserted per batch. */
    public static final int DEFAULT_INDEX_BATCH_SIZE = 64;
    /** Default minimum number of candidates each leg contributes to the fusion. */
    public static final int DEFAULT_MIN_LEG_LIMIT = 100;

    private final CaseStore store;
    private final Embedder embedder;
    private final DenseText denseText;
    private final SparseEncoder sparseEncoder;
    private final Reranker reranker;
    private final AdaptiveExtension extension;
    private final int rerankDepth;
    private final int indexBatchSize;
    private final int minLegLimit;
    private final GradedFusion autoFusion;
    private final RepositoryRanking ranking;

    private HybridCaseRetriever(Builder b) {
        this.store = b.store;
        this.embedder = b.embedder;
        this.denseText = b.denseText;
        this.sparseEncoder = b.sparseEncoder;
        this.reranker = b.reranker;
        this.extension = b.extension;
        this.rerankDepth = b.rerankDepth;
        this.indexBatchSize = b.indexBatchSize;
        this.minLegLimit = b.minLegLimit;
        this.autoFusion = b.autoFusion;
        this.ranking = b.ranking;
    }

    /** A builder over {@code store}; see the class documentation for the defaults. */
    public static Builder builder(CaseStore store) {
        return new Builder(store);
    }

    // ------------------------------------------------------------------ indexing

    /**
     * Encodes the chunks in batches ({@link TextRole#DOCUMENT}) and upserts them; a chunk with an id already in the
     * store replaces it. Batches already upserted stay when a later batch fails.
     *
     * @throws NeuralTextException if an encoder or the store fails, or the embedder's vectors do not match its declared
     *                             dimension or the store's
     */
    public void index(List<ChunkInput> chunks) {
        Checks.notNull(chunks, "chunks");
        for (int i = 0; i < chunks.size(); i++) {
            Checks.notNull(chunks.get(i), "chunks[" + i + "]");
        }
        if (embedder != null) {
            OptionalInt storeDimension = store.denseDimension();
            if (storeDimension.isPresent() && storeDimension.getAsInt() != embedder.dimension()) {
                throw new NonRetriableNeuralTextException("embedder '" + embedder.modelId() + "' has dimension "
                        + embedder.dimension() + " but the store's dense dimension is " + storeDimension.getAsInt()
                        + " (an index built with another model?)", null);
            }
        }
        for (int from = 0; from < chunks.size(); from += indexBatchSize) {
            List<ChunkInput> batch = chunks.subList(from, Math.min(chunks.size(), from + indexBatchSize));
            List<String> texts = new ArrayList<>(batch.size());
            List<String> denseTexts = new ArrayList<>(batch.size());
            for (ChunkInput c : batch) {
                texts.add(c.text());
                denseTexts.add(denseText.apply(c));
            }
            String batchName = "batch of " + batch.size() + " chunks starting at '" + batch.get(0).id() + "'";
            List<float[]> dense = null;
            if (embedder != null) {
                dense = step("embedding a " + batchName + " with '" + embedder.modelId() + "'",
                        () -> embedder.embed(denseTexts, TextRole.DOCUMENT));
                checkDense(dense, batch);
            }
            List<SparseVector> sparse = null;
            if (sparseEncoder != null) {
                sparse = step("sparse-encoding a " + batchName + " with '" + sparseEncoder.modelId() + "'",
                        () -> sparseEncoder.encode(texts, TextRole.DOCUMENT));
                checkCount(sparse, batch.size(), "sparse encoder '" + sparseEncoder.modelId() + "'");
            }
            List<IndexedCase> cases = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                float[] d = dense == null ? null : dense.get(i);
                SparseVector s = sparse == null ? null : sparse.get(i);
                if (sparse != null && s == null) {
                    throw new NonRetriableNeuralTextException("sparse encoder '" + sparseEncoder.modelId()
                            + "' returned null for chunk '" + batch.get(i).id() + "'", null);
                }
                ChunkInput chunk = batch.get(i);
                cases.add(step("preparing chunk '" + chunk.id() + "'", () -> new IndexedCase(chunk, d, s)));
            }
            run("upserting a " + batchName + " into the store", () -> store.upsert(cases));
        }
    }

    private void checkDense(List<float[]> dense, List<ChunkInput> batch) {
        checkCount(dense, batch.size(), "embedder '" + embedder.modelId() + "'");
        for (int i = 0; i < dense.size(); i++) {
            float[] v = dense.get(i);
            if (v == null || v.length != embedder.dimension()) {
                throw new NonRetriableNeuralTextException("embedder '" + embedder.modelId() + "' declares dimension "
                        + embedder.dimension() + " but returned " + (v == null ? "null" : "a vector of length " + v.length)
                        + " for chunk '" + batch.get(i).id() + "'", null);
            }
        }
    }

    private static void checkCount(List<?> results, int expected, String who) {
        if (results == null || results.size() != expected) {
            throw new NonRetriableNeuralTextException(who + " returned " + (results == null ? "null" : results.size()
                    + " results") + " for " + expected + " texts", null);
        }
    }

    /** Deletes chunks by id; unknown ids are ignored. */
    public void delete(Collection<String> ids) {
        Checks.notNull(ids, "ids");
        run("deleting " + ids.size() + " chunks from the store", () -> store.delete(ids));
    }

    /** Deletes every chunk matching {@code filter} (e.g. all chunks of one file, to re-index it). */
    public void deleteWhere(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        run("deleting chunks matching a filter from the store", () -> store.deleteWhere(filter));
    }

    // ------------------------------------------------------------------ search

    /**
     * Runs {@code request}; see the class documentation for the pipeline.
     *
     * @throws NeuralTextException if an encoder, the store or the reranker fails
     */
    public SearchResponse search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        long start = System.nanoTime();
        Set<Leg> legs = EnumSet.noneOf(Leg.class);
        legs.addAll(request.legs().isEmpty() ? availableLegs() : request.legs());
        legs.retainAll(availableLegs());
        legs.retainAll(store.legsWithData());
        if (legs.isEmpty()) {
            Duration total = Duration.ofNanos(System.nanoTime() - start);
            return new SearchResponse(List.of(), 0, false, Set.of(), false,
                    new SearchTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO, total));
        }
        String text = request.text();
        boolean rerank = request.rerank() && reranker != null;
        boolean ranked = !rerank && request.autoFusion() && !ranking.isOff();
        // an issue (a bug report with a traceback, snippets, names) is read by its structure, see IssueSearch
        IssueText issue = ranked && IssueText.looksLikeIssue(text) ? IssueText.parse(text) : null;
        String denseQuery = issue == null ? text : issue.lead();

        long encodeStart = System.nanoTime();
        float[] dense = null;
        if (legs.contains(Leg.DENSE)) {
            List<float[]> v = step("embedding the query with '" + embedder.modelId() + "'",
                    () -> embedder.embed(List.of(denseQuery), TextRole.QUERY));
            checkCount(v, 1, "embedder '" + embedder.modelId() + "'");
            dense = v.get(0);
            if (dense == null || dense.length != embedder.dimension()) {
                throw new NonRetriableNeuralTextException("embedder '" + embedder.modelId() + "' declares dimension "
                        + embedder.dimension() + " but returned " + (dense == null ? "null" : "a vector of length "
                        + dense.length) + " for the query", null);
            }
        }
        SparseVector sparse = null;
        if (legs.contains(Leg.SPARSE)) {
            List<SparseVector> v = step("sparse-encoding the query with '" + sparseEncoder.modelId() + "'",
                    () -> sparseEncoder.encode(List.of(text), TextRole.QUERY));
            checkCount(v, 1, "sparse encoder '" + sparseEncoder.modelId() + "'");
            sparse = Objects.requireNonNullElse(v.get(0), SparseVector.empty());
        }
        long encodeEnd = System.nanoTime();

        int limit = request.limit();
        int fetch = Math.max(limit, extension.fetchSize(limit));
        int depth = Math.max(rerankDepth, limit);
        int storeLimit = rerank ? Math.max(fetch, depth) : issue != null ? Math.max(fetch, IssueSearch.DEPTH)
                : ranked ? Math.max(fetch, ranking.depth()) : fetch;
        int legLimit = Math.max(storeLimit, minLegLimit);
        FusionMethod fusion = request.autoFusion() ? fusionFor(text) : request.fusion();
        HybridQuery query = new HybridQuery(text, dense, sparse, legs, request.filter(), legLimit, storeLimit,
                fusion, request.explain());
        List<SearchHit> hits = step("searching the store", () -> store.search(query));
        if (issue != null) {
            List<SearchHit> found = hits;
            hits = step("ranking the issue's files", () -> IssueSearch.rank(store, ranking, issue, query, found));
        } else if (ranked) {
            hits = ranking.rank(text, hits);
        }
        long storeEnd = System.nanoTime();

        boolean reranked = false;
        if (rerank && !hits.isEmpty()) {
            hits = rerank(text, hits.subList(0, Math.min(depth, hits.size())));
            reranked = true;
        }
        long rerankEnd = System.nanoTime();

        AdaptiveExtension.Extension extended = extension.apply(hits, limit);
        List<SearchHit> result;
        boolean wasExtended;
        if (request.adaptive()) {
            result = extended.hits();
            wasExtended = extended.extended();
        } else {
            result = hits.subList(0, Math.min(limit, hits.size()));
            wasExtended = false;
        }
        long end = System.nanoTime();
        SearchTimings timings = new SearchTimings(Duration.ofNanos(encodeEnd - encodeStart),
                Duration.ofNanos(storeEnd - encodeEnd), Duration.ofNanos(rerankEnd - storeEnd),
                Duration.ofNanos(end - start));
        return new SearchResponse(result, extended.aboveThreshold(), wasExtended, legs, reranked, timings);
    }

    private List<SearchHit> rerank(String text, List<SearchHit> shortlist) {
        List<String> passages = new ArrayList<>(shortlist.size());
        for (SearchHit h : shortlist) {
            passages.add(h.text());
        }
        double[] scores = step("reranking " + shortlist.size() + " candidates with '" + reranker.modelId() + "'",
                () -> reranker.score(text, passages));
        if (scores == null || scores.length != shortlist.size()) {
            throw new NonRetriableNeuralTextException("reranker '" + reranker.modelId() + "' returned "
                    + (scores == null ? "null" : scores.length + " scores") + " for " + shortlist.size() + " passages", null);
        }
        List<SearchHit> out = new ArrayList<>(shortlist.size());
        for (int i = 0; i < scores.length; i++) {
            if (!(scores[i] >= 0 && scores[i] <= 1)) {
                throw new NonRetriableNeuralTextException("reranker '" + reranker.modelId() + "' returned score "
                        + scores[i] + " for passage " + i + " ('" + shortlist.get(i).id() + "'), expected a value in [0, 1]",
                        null);
            }
            out.add(shortlist.get(i).withScore(scores[i]));
        }
        // stable sort: equal reranker scores keep the fused order
        out.sort((a, b) -> Double.compare(b.score(), a.score()));
        return out;
    }

    // ------------------------------------------------------------------ properties

    /**
     * The fusion a request for {@code query} without an explicit fusion method uses: the retriever's
     * {@link GradedFusion} applied to the query (see the class documentation).
     *
     * @throws IllegalArgumentException if {@code query} is null
     */
    public FusionMethod fusionFor(String query) {
        return autoFusion.methodFor(query);
    }

    /** The legs this retriever can run: BM25, plus DENSE with an embedder and SPARSE with a sparse encoder. */
    public Set<Leg> availableLegs() {
        Set<Leg> legs = EnumSet.of(Leg.BM25);
        if (embedder != null) {
            legs.add(Leg.DENSE);
        }
        if (sparseEncoder != null) {
            legs.add(Leg.SPARSE);
        }
        return Collections.unmodifiableSet(legs);
    }

    /** The ranking stage over the fused candidates (see the class documentation). */
    public RepositoryRanking ranking() {
        return ranking;
    }

    /** The store this retriever indexes into and searches. */
    public CaseStore store() {
        return store;
    }

    /**
     * What an index built by this retriever depends on: the store's lexical configuration
     * ({@link CaseStore#fingerprint()}), the embedder's model id and dimension and the sparse encoder's model id. Save
     * it with the index ({@link dev.neuraltext.store.InMemoryCaseStore#save}) and pass it when loading.
     */
    public IndexFingerprint fingerprint() {
        IndexFingerprint f = store.fingerprint();
        if (embedder != null) {
            f = f.withDense(denseModelId(), embedder.dimension());
        }
        if (sparseEncoder != null) {
            f = f.withSparse(sparseEncoder);
        }
        return f;
    }

    /** The embedder's model id, plus {@code +text:<variant>} when the dense leg reads more than the chunk's text. */
    private String denseModelId() {
        return denseText.indexedModelId(embedder.modelId());
    }

    /** What the dense leg embeds of each chunk at index time. */
    public DenseText denseText() {
        return denseText;
    }

    private static <T> T step(String what, Supplier<T> action) {
        try {
            return action.get();
        } catch (NeuralTextException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new NonRetriableNeuralTextException(what + " failed: " + e, e);
        }
    }

    private static void run(String what, Runnable action) {
        step(what, () -> {
            action.run();
            return null;
        });
    }

    /**
     * Builder of {@link HybridCaseRetriever}; not thread-safe. Defaults: no embedder, sparse encoder or reranker (BM25
     * only), {@link AdaptiveExtension#defaults()}, rerank depth {@value #DEFAULT_RERANK_DEPTH}, index batch size
     * {@value #DEFAULT_INDEX_BATCH_SIZE}, minimum per-leg limit {@value #DEFAULT_MIN_LEG_LIMIT}, automatic fusion
     * {@link GradedFusion#defaults()}, dense text {@link DenseText#defaults()}.
     */
    public static final class Builder {
        private final CaseStore store;
        private Embedder embedder;
        private DenseText denseText = DenseText.defaults();
        private SparseEncoder sparseEncoder;
        private Reranker reranker;
        private AdaptiveExtension extension = AdaptiveExtension.defaults();
        private int rerankDepth = DEFAULT_RERANK_DEPTH;
        private int indexBatchSize = DEFAULT_INDEX_BATCH_SIZE;
        private int minLegLimit = DEFAULT_MIN_LEG_LIMIT;
        private GradedFusion autoFusion = GradedFusion.defaults();
        private RepositoryRanking ranking = RepositoryRanking.defaults();

        private Builder(CaseStore store) {
            this.store = Checks.notNull(store, "store");
        }

        /** The dense embedder; enables {@link Leg#DENSE}. Default none. */
        public Builder embedder(Embedder embedder) {
            this.embedder = embedder;
            return this;
        }

        /**
         * What the dense leg embeds of each chunk; default {@link DenseText#defaults()}. Part of
         * {@link #fingerprint()}, so an index embedded with another variant is detected.
         */
        public Builder denseText(DenseText text) {
            this.denseText = Checks.notNull(text, "denseText");
            return this;
        }

        /** The sparse encoder; enables {@link Leg#SPARSE}. Default none. */
        public Builder sparseEncoder(SparseEncoder encoder) {
            this.sparseEncoder = encoder;
            return this;
        }

        /** The reranker for the shortlist. Default none. */
        public Builder reranker(Reranker reranker) {
            this.reranker = reranker;
            return this;
        }

        /** The adaptive extension policy; default {@link AdaptiveExtension#defaults()}. */
        public Builder adaptiveExtension(AdaptiveExtension extension) {
            this.extension = Checks.notNull(extension, "adaptiveExtension");
            return this;
        }

        /** How many fused candidates the reranker rescores (at least the request's limit); default {@value #DEFAULT_RERANK_DEPTH}. */
        public Builder rerankDepth(int depth) {
            this.rerankDepth = Checks.positive(depth, "rerankDepth");
            return this;
        }

        /** Chunks encoded and upserted per batch; default {@value #DEFAULT_INDEX_BATCH_SIZE}. */
        public Builder indexBatchSize(int size) {
            this.indexBatchSize = Checks.positive(size, "indexBatchSize");
            return this;
        }

        /** The minimum number of candidates each leg contributes to the fusion; default {@value #DEFAULT_MIN_LEG_LIMIT}. */
        public Builder minLegLimit(int limit) {
            this.minLegLimit = Checks.positive(limit, "minLegLimit");
            return this;
        }

        /** The ranking stage over the fused candidates (default {@link RepositoryRanking#defaults()}). */
        public Builder ranking(RepositoryRanking ranking) {
            this.ranking = Checks.notNull(ranking, "ranking");
            return this;
        }

        /**
         * The automatic fusion, used by requests without an explicit fusion method; default
         * {@link GradedFusion#defaults()}.
         */
        public Builder autoFusion(GradedFusion fusion) {
            this.autoFusion = Checks.notNull(fusion, "autoFusion");
            return this;
        }

        /** The retriever. */
        public HybridCaseRetriever build() {
            return new HybridCaseRetriever(this);
        }
    }
}
