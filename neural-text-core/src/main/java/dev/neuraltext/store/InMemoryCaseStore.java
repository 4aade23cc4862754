package dev.neuraltext.store;

import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The embedded {@link CaseStore}: chunks, a BM25 index ({@link Bm25Index} over
 * {@link ChunkInput#bm25Fields()}), an exact cosine index over dense vectors and an inverted index over sparse vectors,
 * all in this JVM; the legs and their fusion run in Java. Saves to and loads from a folder
 * ({@link #save(Path, IndexFingerprint)}, {@link #load(Path, IndexFingerprint)}).
 *
 * <p>Defaults ({@link #builder()}): {@link CodeDomainTokenizer#standard()}, {@link Bm25Params#defaults()} (k1 = 1.2,
 * b = 0.75), the BM25 index's field settings ({@link Bm25Index#DEFAULT_FIELD_WEIGHTS}), dense dimension fixed by the
 * first dense vector upserted, dense search {@link DenseSearch#AUTO} with {@link HnswParams#defaults()}.
 *
 * <p>Dense leg: an exact cosine scan below {@link DenseSearch#AUTO_ANN_THRESHOLD} vectors, an HNSW graph (Lucene's
 * {@code org.apache.lucene.util.hnsw}) from there on, kept up to date by the writes: the write that crosses the
 * threshold builds it (over {@link HnswParams#buildThreads()} threads); newer vectors wait in a small tail that is
 * scanned exactly, until a write merges them into the graph (at an eighth of the graph or 8,192 vectors); a replaced
 * or deleted vector leaves a dead node, and the graph is rebuilt once a quarter of its nodes are dead. Such writes take
 * seconds at 100,000 vectors. The graph is saved with the index, so a load does not rebuild it. The graph's
 * candidates are rescored exactly; a filter runs inside the graph search, and a filter that passes few chunks (no more
 * than the search would visit) falls back to the exact scan. {@link Builder#denseSearch} forces either.
 *
 * <p>Memory: a store that was built and never loaded keeps every chunk on the heap. A loaded store keeps only the
 * ids, metadata (for filters), BM25 postings and vectors on the heap; chunk text and BM25 fields stay in the saved
 * generation's {@code chunks.bin}, memory-mapped read-only, and are decoded only for the hits returned (and for
 * {@link #chunk(String)}, {@link #chunks(PayloadFilter)}, {@link #chunksLackingDense(int)} and saves). Chunks upserted
 * after the load are on the heap. The mapped file stays readable after later saves delete its generation.
 *
 * <p>Search semantics: each requested leg runs only when the store holds data for it ({@link #legsWithData()}); the
 * filter is evaluated inside every leg before its top-{@code legLimit} cut, so a filtered search still fills the limit
 * from matching chunks; the fused score is on the scale of {@link dev.neuraltext.fusion.FusionMethod}; because fusion is
 * local, every hit always carries the rank and raw score of every leg whose top {@code legLimit} contains it (whether or
 * not {@link HybridQuery#explain()} is set). The dense and sparse legs break score ties by chunk id, BM25 by indexing
 * order (see {@link Bm25Index}).
 *
 * <p>Thread safety: safe for any number of concurrent searches, counts and saves, together with writers
 * (upsert, delete), which are serialised. A {@link ReentrantReadWriteLock} guards all state: searches take the read
 * lock, writes the write lock, so a search sees either all or none of one upsert call.
 */
public final class InMemoryCaseStore implements CaseStore {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final IndexFingerprint fingerprint;

    private volatile Map<String, byte[]> loadedAttachments = Map.of();
    private final StoreState state;

    private InMemoryCaseStore(Builder b) {
        Bm25Index bm25 = b.bm25Index();
        this.fingerprint = IndexFingerprint.lexical(b.tokenizer.id(), b.bm25Params, new TreeMap<>(bm25.fieldWeights()));
        this.state = new StoreState(bm25, b.denseSearch, b.hnswParams, b.denseDimension);
    }

    /** A store with every default. */
    public static InMemoryCaseStore create() {
        return builder().build();
    }

    /** A builder; see the class documentation for the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void upsert(List<IndexedCase> cases) {
        Checks.notNull(cases, "cases");
        for (int i = 0; i < cases.size(); i++) {
            Checks.notNull(cases.get(i), "cases[" + i + "]");
        }
        if (cases.isEmpty()) {
            return;
        }
        Lock w = lock.writeLock();
        w.lock();
        try {
            state.upsert(cases);
        } finally {
            w.unlock();
        }
    }

    @Override
    public void delete(Collection<String> idsToDelete) {
        Checks.notNull(idsToDelete, "ids");
        Lock w = lock.writeLock();
        w.lock();
        try {
            state.delete(idsToDelete);
        } finally {
            w.unlock();
        }
    }

    @Override
    public void deleteWhere(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        Lock w = lock.writeLock();
        w.lock();
        try {
            state.deleteWhere(filter);
        } finally {
            w.unlock();
        }
    }

    // ---------------------------------------------------------------- reads

    @Override
    public long count(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.count(filter);
        } finally {
            r.unlock();
        }
    }

    @Override
    public List<SearchHit> search(HybridQuery query) {
        Objects.requireNonNull(query, "query");
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.search(query);
        } finally {
            r.unlock();
        }
    }

    /** The legs this store holds data for: BM25 when it holds any chunk, DENSE / SPARSE when any chunk has such a vector. */
    @Override
    public Set<Leg> legsWithData() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.legsWithData();
        } finally {
            r.unlock();
        }
    }

    /** How many stored chunks have a dense vector, of how many ({@link DenseCoverage}). */
    public DenseCoverage denseCoverage() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.denseCoverage();
        } finally {
            r.unlock();
        }
    }

    /**
     * Up to {@code max} stored chunks that have no dense vector (indexed without the model), in storage order: the
     * work list of {@link dev.neuraltext.retrieve.DenseBackfill}.
     *
     * @throws IllegalArgumentException if {@code max < 1}
     */
    public List<ChunkInput> chunksLackingDense(int max) {
        Checks.positive(max, "max");
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.chunksLackingDense(max);
        } finally {
            r.unlock();
        }
    }

    /**
     * Gives stored chunks that lack a dense vector the vector of {@code cases}, leaving everything else as it is: a
     * case whose chunk is no longer the stored one (the same instance {@link #chunksLackingDense} returned; the chunk
     * was replaced or deleted meanwhile) or that already has a vector is skipped, so a concurrent update never gets
     * a stale vector.
     *
     * @return how many chunks got a vector
     * @throws IllegalArgumentException if a case has no dense vector or one of another dimension than the store's
     */
    public int attachDense(List<IndexedCase> cases) {
        Checks.notNull(cases, "cases");
        Lock w = lock.writeLock();
        w.lock();
        try {
            for (int i = 0; i < cases.size(); i++) {
                IndexedCase c = Checks.notNull(cases.get(i), "cases[" + i + "]");
                if (c.dense() == null) {
                    throw new IllegalArgumentException("cases[" + i + "] (chunk '" + c.chunk().id()
                            + "') has no dense vector to attach");
                }
            }
            return state.attachDense(cases);
        } finally {
            w.unlock();
        }
    }

    /** The stored chunk with this id, if any. */
    public Optional<ChunkInput> chunk(String id) {
        Objects.requireNonNull(id, "id");
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.chunk(id);
        } finally {
            r.unlock();
        }
    }

    /**
     * A copy of the dense vector stored for the chunk with this id (unit length, as searched), or empty when there is
     * no such chunk or it has no dense vector yet: for comparing two indexes' contents (a live one against a fresh
     * one), not for search.
     */
    public Optional<float[]> denseVector(String id) {
        Objects.requireNonNull(id, "id");
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.denseVector(id);
        } finally {
            r.unlock();
        }
    }

    /** The dense dimension, once fixed (by the builder or the first dense vector upserted). */
    @Override
    public OptionalInt denseDimension() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.denseDimension();
        } finally {
            r.unlock();
        }
    }

    /** A snapshot of the stored chunks matching {@code filter}, sorted by id. */
    public List<ChunkInput> chunks(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.chunks(filter);
        } finally {
            r.unlock();
        }
    }

    /**
     * The lexical part of this store's indexing configuration (tokenizer, BM25 parameters, field weights); add the
     * models with {@link IndexFingerprint#withDense} and {@link IndexFingerprint#withSparse}.
     */
    @Override
    public IndexFingerprint fingerprint() {
        return fingerprint;
    }

    // ---------------------------------------------------------------- persistence

    /**
     * Saves this store to {@code dir} (created if needed) together with {@code fingerprint}, which must describe this
     * store's configuration ({@link #fingerprint()}) plus the models that produced its vectors (take
     * {@link dev.neuraltext.retrieve.HybridCaseRetriever#fingerprint()}).
     *
     * <p>Atomic: the files are written to a new generation folder {@code dir/gen-<n>.tmp}, flushed to disk, renamed to
     * {@code dir/gen-<n>}, and only then does {@code dir/CURRENT} (replaced by an atomic rename) point to it; older
     * generations are deleted afterwards, except the one {@code CURRENT} named before (a reader may be opening it). A
     * crash or failure at any point leaves the previous index loadable. Other files in {@code dir} are left alone.
     *
     * <p>One writer per folder: the save holds the folder's {@link IndexWriteLock} (an OS file lock, so this holds
     * across processes); a second writer fails at once with {@link IndexLockedException} and changes nothing. Loading
     * never needs the lock. Searches continue during a save; writers of this store wait for it.
     *
     * @throws IndexLockedException if another writer, in this or another process, holds the folder's write lock
     * @throws IllegalArgumentException if {@code fingerprint} does not match this store's configuration or dimension
     * @throws java.io.UncheckedIOException if the folder cannot be created or locked (the message names it)
     * @throws dev.neuraltext.NonRetriableNeuralTextException if writing fails (the cause attached)
     */
    public void save(Path dir, IndexFingerprint fingerprint) {
        save(dir, fingerprint, Map.of());
    }

    /**
     * Saves as {@link #save(Path, IndexFingerprint)}, together with {@code attachments}: opaque files (by name,
     * {@code [A-Za-z0-9][A-Za-z0-9._-]*}, at most 64 characters) committed in the same generation and checksummed like
     * the store's own files, for data that must never disagree with the store (a per-file manifest). Read them back
     * with {@link #loadedAttachment(String)} after {@link #load}. Takes the folder's {@link IndexWriteLock} for the
     * duration of the save.
     *
     * @throws IndexLockedException if another writer holds the folder's write lock
     * @throws IllegalArgumentException if {@code fingerprint} does not match this store or an attachment name is invalid
     * @throws java.io.UncheckedIOException if the folder cannot be created or locked (the message names it)
     * @throws dev.neuraltext.NonRetriableNeuralTextException if writing fails (the cause attached)
     */
    public void save(Path dir, IndexFingerprint fingerprint, Map<String, byte[]> attachments) {
        Objects.requireNonNull(dir, "dir");
        try (IndexWriteLock held = IndexWriteLock.acquire(dir)) {
            save(held, fingerprint, attachments);
        }
    }

    /**
     * Saves as {@link #save(Path, IndexFingerprint, Map)} into the folder of {@code lock}, which the caller holds, for
     * a writer that keeps the lock across load, update and save (so that no other writer can interleave).
     *
     * @throws IllegalStateException if the lock was released
     */
    public void save(IndexWriteLock lock, IndexFingerprint fingerprint, Map<String, byte[]> attachments) {
        save(lock, fingerprint, attachments, IndexFiles.SaveHook.NONE);
    }

    void save(Path dir, IndexFingerprint expected, IndexFiles.SaveHook hook) {
        try (IndexWriteLock held = IndexWriteLock.acquire(dir)) {
            save(held, expected, Map.of(), hook);
        }
    }

    void save(IndexWriteLock writeLock, IndexFingerprint expected, Map<String, byte[]> attachments,
            IndexFiles.SaveHook hook) {
        Objects.requireNonNull(writeLock, "lock");
        Objects.requireNonNull(expected, "fingerprint");
        Objects.requireNonNull(attachments, "attachments");
        if (!expected.lexicalPart().equals(fingerprint)) {
            throw new IllegalArgumentException("fingerprint does not describe this store's configuration: "
                    + String.join("; ", fingerprint.differences(expected.lexicalPart())));
        }
        Lock r = lock.readLock();
        r.lock();
        try {
            IndexFiles.save(writeLock, expected, state.source(expected), attachments, hook);
        } finally {
            r.unlock();
        }
    }

    /**
     * Loads the index saved in {@code dir} with the default configuration ({@link #builder()}).
     *
     * @param expected the fingerprint of the current configuration (e.g. {@code builder().fingerprint().withDense(embedder)})
     * @throws IndexNotFoundException  if {@code dir} holds no saved index
     * @throws CorruptIndexException   if a file is missing, truncated, of an unknown version or fails its checksum
     * @throws IndexMismatchException  if the index holds vectors of other models than {@code expected} names (dense model
     *                                 or dimension, sparse model); lexical settings may differ: then the BM25 index is
     *                                 rebuilt from the stored chunks with the loading configuration
     * @throws IllegalArgumentException if {@code expected} does not describe the default configuration
     */
    public static InMemoryCaseStore load(Path dir, IndexFingerprint expected) {
        return builder().load(dir, expected);
    }

    /** Whether {@code dir} holds a saved index (it may still be corrupt or mismatched). */
    public static boolean exists(Path dir) {
        return IndexFiles.exists(dir);
    }

    /**
     * The fingerprint the index in {@code dir} was saved with, for messages such as "index built with model X".
     *
     * @throws IndexNotFoundException if {@code dir} holds no saved index
     * @throws CorruptIndexException  if its manifest cannot be read
     */
    public static IndexFingerprint readFingerprint(Path dir) {
        return IndexFiles.readFingerprint(dir);
    }

    /**
     * An attachment saved with this store's generation ({@link #save(Path, IndexFingerprint, Map)}), as loaded from
     * disk by {@link #load}; empty for a store that was not loaded or a generation without it. Its checksum was
     * verified on load. Later changes to the store do not change it.
     */
    public Optional<byte[]> loadedAttachment(String name) {
        Objects.requireNonNull(name, "name");
        byte[] b = loadedAttachments.get(name);
        return b == null ? Optional.empty() : Optional.of(b.clone());
    }

    void loadAttachments(Map<String, byte[]> attachments) {
        this.loadedAttachments = Map.copyOf(attachments);
    }

    /** The state a loader reads the saved index into, before the store is published. */
    StoreState state() {
        return state;
    }

    /** Whether the dense leg currently searches a graph rather than scanning: for tests and benchmarks. */
    boolean denseUsesGraph() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.denseUsesGraph();
        } finally {
            r.unlock();
        }
    }

    /** How many dense graphs this store built from scratch (not loaded): for tests. */
    int denseGraphBuilds() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return state.denseGraphBuilds();
        } finally {
            r.unlock();
        }
    }

    /**
     * Builder of {@link InMemoryCaseStore}; not thread-safe. Defaults: {@link CodeDomainTokenizer#standard()},
     * {@link Bm25Params#defaults()}, {@link Bm25Index#DEFAULT_FIELD_WEIGHTS}, dense dimension fixed by the first vector.
     */
    public static final class Builder {
        private CodeDomainTokenizer tokenizer = CodeDomainTokenizer.standard();
        private Bm25Params bm25Params = Bm25Params.defaults();
        private final Map<String, Double> fieldWeights = new LinkedHashMap<>();
        private int denseDimension;
        private DenseSearch denseSearch = DenseSearch.AUTO;
        private HnswParams hnswParams = HnswParams.defaults();

        private Builder() {
        }

        /**
         * How the dense leg searches; default {@link DenseSearch#AUTO} (exact below
         * {@link DenseSearch#AUTO_ANN_THRESHOLD} vectors, the HNSW graph from there on).
         */
        public Builder denseSearch(DenseSearch mode) {
            this.denseSearch = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * The HNSW graph's parameters; default {@link HnswParams#defaults()}. A loaded graph keeps the structure
         * (maxConnections, beamWidth) it was built with; efSearch applies to every search.
         */
        public Builder hnswParams(HnswParams params) {
            this.hnswParams = Objects.requireNonNull(params, "params");
            return this;
        }

        /** The BM25 tokenizer; default {@link CodeDomainTokenizer#standard()}. Its {@code id()} goes into fingerprints. */
        public Builder tokenizer(CodeDomainTokenizer tokenizer) {
            this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
            return this;
        }

        /** BM25 parameters; default {@link Bm25Params#defaults()} (k1 = 1.2, b = 0.75). */
        public Builder bm25Params(Bm25Params params) {
            this.bm25Params = Objects.requireNonNull(params, "params");
            return this;
        }

        /**
         * The BM25F weight of a field of {@link ChunkInput#bm25Fields()}; default {@link Bm25Index#DEFAULT_FIELD_WEIGHTS}
         * (name 8, signature 3, doc 1, body 1), 1.0 for other fields.
         */
        public Builder fieldWeight(String field, double weight) {
            Checks.notBlank(field, "field");
            Checks.nonNegativeFinite(weight, "weight of field '" + field + "'");
            fieldWeights.put(field, weight);
            return this;
        }

        /** Fixes the dense dimension up front; default: fixed by the first dense vector upserted. */
        public Builder denseDimension(int dimension) {
            this.denseDimension = Checks.positive(dimension, "denseDimension");
            return this;
        }

        /**
         * The lexical fingerprint of this configuration (no models): the tokenizer's id, the BM25 parameters and the
         * effective field weights (the BM25 index's defaults overridden by {@link #fieldWeight}).
         */
        public IndexFingerprint fingerprint() {
            return IndexFingerprint.lexical(tokenizer.id(), bm25Params, new TreeMap<>(bm25Index().fieldWeights()));
        }

        Bm25Index bm25Index() {
            Bm25Index.Builder bb = Bm25Index.builder().tokenizer(tokenizer).params(bm25Params);
            fieldWeights.forEach(bb::fieldWeight);
            return bb.build();
        }

        /** An empty store. */
        public InMemoryCaseStore build() {
            return new InMemoryCaseStore(this);
        }

        /**
         * The fingerprint to load the index in {@code dir} with so that it keeps the legs it has: this configuration's
         * lexical part plus the dense and sparse models the index was saved with. Use it to search or update an index
         * without loading its models (a BM25-only run that keeps the dense vectors).
         *
         * @throws IndexNotFoundException if {@code dir} holds no saved index
         * @throws CorruptIndexException  if its manifest cannot be read
         */
        public IndexFingerprint fingerprintAsSaved(Path dir) {
            IndexFingerprint onDisk = readFingerprint(dir);
            IndexFingerprint f = fingerprint();
            if (!onDisk.denseModel().isEmpty()) {
                f = f.withDense(onDisk.denseModel(), onDisk.denseDimension());
            }
            if (!onDisk.sparseModel().isEmpty()) {
                f = f.withSparse(onDisk.sparseModel());
            }
            return f;
        }

        /**
         * Loads the index saved in {@code dir} into a store with this configuration; see
         * {@link InMemoryCaseStore#load(Path, IndexFingerprint)} for the failures. The BM25 index is read as saved
         * when it was saved with this configuration's BM25 settings, and otherwise rebuilt from the stored chunks;
         * vectors are read as saved; chunk text and fields stay in the memory-mapped {@code chunks.bin}.
         */
        public InMemoryCaseStore load(Path dir, IndexFingerprint expected) {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(expected, "expected");
            IndexFingerprint mine = fingerprint();
            if (!expected.lexicalPart().equals(mine)) {
                throw new IllegalArgumentException("expected fingerprint does not describe this store configuration: "
                        + String.join("; ", mine.differences(expected.lexicalPart())));
            }
            if (denseDimension > 0 && expected.denseDimension() != 0 && expected.denseDimension() != denseDimension) {
                throw new IllegalArgumentException("expected fingerprint dense dimension " + expected.denseDimension()
                        + " differs from the configured dense dimension " + denseDimension);
            }
            Builder copy = copyWithDimension(expected.denseDimension() > 0 ? expected.denseDimension() : denseDimension);
            // a writer may replace and garbage-collect the generation while we read it: then read the new one
            return IndexFiles.readCurrent(dir, () -> copy.buildAndLoad(store -> IndexFiles.load(dir, expected, store)));
        }

        private Builder copyWithDimension(int dimension) {
            Builder copy = new Builder();
            copy.tokenizer = tokenizer;
            copy.bm25Params = bm25Params;
            copy.fieldWeights.putAll(fieldWeights);
            copy.denseSearch = denseSearch;
            copy.hnswParams = hnswParams;
            copy.denseDimension = dimension;
            return copy;
        }

        /** A new store filled by {@code load} under its write lock. */
        private InMemoryCaseStore buildAndLoad(java.util.function.Consumer<InMemoryCaseStore> load) {
            InMemoryCaseStore store = build();
            Lock w = store.lock.writeLock();
            w.lock();
            try {
                load.accept(store);
            } finally {
                w.unlock();
            }
            return store;
        }

        /**
         * Loads the generation folder {@code gen} of {@code dir}, current or not, into a store with this configuration
         * and the dense dimension of {@code expected}, for {@link IndexCheck}; no retry, no lexical check.
         */
        InMemoryCaseStore loadGeneration(Path dir, Path gen, IndexFingerprint expected) {
            return copyWithDimension(expected.denseDimension())
                    .buildAndLoad(store -> IndexFileReader.loadGeneration(dir, gen, expected, store));
        }
    }
}
