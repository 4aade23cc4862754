package dev.neuraltext.store;

import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusedResult;
import dev.neuraltext.fusion.Fusion;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
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
import java.util.function.IntPredicate;
import java.util.function.Predicate;

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

    private final Bm25Index bm25;
    private final DenseSearch denseSearch;
    private final HnswParams hnswParams;
    private DenseVectorIndex dense;
    private final SparseVectorIndex sparse = new SparseVectorIndex();

    private final Map<String, Integer> slotOf = new HashMap<>();
    private String[] ids = new String[16];
    private ChunkInput[] chunks = new ChunkInput[16];
    private Payload[] payloads = new Payload[16];
    // a loaded store's chunks stay in its mapped chunks.bin: per slot the record's offset, -1 once upserted or deleted
    private MappedChunks mapped;
    private long[] recordAt;
    private volatile Map<String, byte[]> loadedAttachments = Map.of();
    private int highWater;
    private int[] free = new int[16];
    private int freeCount;

    private InMemoryCaseStore(Builder b) {
        this.bm25 = b.bm25Index();
        this.fingerprint = IndexFingerprint.lexical(b.tokenizer.id(), b.bm25Params, new TreeMap<>(bm25.fieldWeights()));
        this.denseSearch = b.denseSearch;
        this.hnswParams = b.hnswParams;
        if (b.denseDimension > 0) {
            this.dense = newDenseIndex(b.denseDimension);
        }
    }

    private DenseVectorIndex newDenseIndex(int dimension) {
        return new DenseVectorIndex(dimension, denseSearch, hnswParams);
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
            prepareDense(cases);
            List<Bm25Index.Document> documents = new ArrayList<>(cases.size());
            for (IndexedCase c : cases) {
                documents.add(write(c.chunk(), c.dense(), c.sparse()));
            }
            bm25.upsertAll(documents);
        } finally {
            w.unlock();
        }
    }

    /**
     * Checks every dense vector of {@code cases} against the store's dimension (or, while none is fixed, the first
     * vector of the batch) before anything is written, then creates the dense index once a dimension is known. The
     * caller holds the write lock.
     *
     * @throws IllegalArgumentException naming the chunk and both dimensions
     */
    private void prepareDense(List<IndexedCase> cases) {
        int dimension = dense != null ? dense.dimension() : 0;
        String dimensionSource = dense != null ? "the store's dense dimension" : null;
        for (IndexedCase c : cases) {
            float[] v = c.dense();
            if (v == null) {
                continue;
            }
            if (dimension == 0) {
                dimension = v.length;
                dimensionSource = "the dimension of chunk '" + c.chunk().id() + "' in the same batch";
            } else if (v.length != dimension) {
                throw new IllegalArgumentException("chunk '" + c.chunk().id() + "' has a dense vector of dimension "
                        + v.length + " but " + dimensionSource + " is " + dimension);
            }
        }
        if (dense == null && dimension > 0) {
            dense = newDenseIndex(dimension);
        }
    }

    /**
     * Stores one chunk and its vectors, returning the BM25 document for the caller to upsert (caller holds the write
     * lock and has checked the dense dimension).
     */
    private Bm25Index.Document write(ChunkInput chunk, float[] denseVector, SparseVector sparseVector) {
        Integer existing = slotOf.get(chunk.id());
        int slot = existing != null ? existing : allocateSlot(chunk.id());
        chunks[slot] = chunk;
        payloads[slot] = payloadOf(chunk.metadata(), chunk.listMetadata());
        if (recordAt != null) {
            recordAt[slot] = -1;
        }
        if (denseVector != null) {
            dense.put(slot, denseVector);
        } else if (dense != null) {
            dense.remove(slot);
        }
        if (sparseVector != null) {
            sparse.put(slot, sparseVector);
        } else {
            sparse.remove(slot);
        }
        return new Bm25Index.Document(chunk.id(), chunk.bm25Fields());
    }

    private int allocateSlot(String id) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            slot = highWater++;
            if (slot >= ids.length) {
                int n = Math.max(16, ids.length * 2);
                ids = Arrays.copyOf(ids, n);
                chunks = Arrays.copyOf(chunks, n);
                payloads = Arrays.copyOf(payloads, n);
                if (recordAt != null) {
                    recordAt = Arrays.copyOf(recordAt, n);
                }
            }
        }
        ids[slot] = id;
        slotOf.put(id, slot);
        return slot;
    }

    @Override
    public void delete(Collection<String> idsToDelete) {
        Checks.notNull(idsToDelete, "ids");
        Lock w = lock.writeLock();
        w.lock();
        try {
            for (String id : idsToDelete) {
                if (id != null) {
                    remove(id);
                }
            }
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
            List<String> matching = new ArrayList<>();
            for (int slot = 0; slot < highWater; slot++) {
                if (ids[slot] != null && filter.test(payloads[slot])) {
                    matching.add(ids[slot]);
                }
            }
            matching.forEach(this::remove);
        } finally {
            w.unlock();
        }
    }

    private void remove(String id) {
        Integer slot = slotOf.remove(id);
        if (slot == null) {
            return;
        }
        bm25.delete(id);
        if (dense != null) {
            dense.remove(slot);
        }
        sparse.remove(slot);
        ids[slot] = null;
        chunks[slot] = null;
        payloads[slot] = null;
        if (recordAt != null) {
            recordAt[slot] = -1;
        }
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = slot;
    }

    // ---------------------------------------------------------------- reads

    @Override
    public long count(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        Lock r = lock.readLock();
        r.lock();
        try {
            if (filter.matchesAll()) {
                return slotOf.size();
            }
            long n = 0;
            for (int slot = 0; slot < highWater; slot++) {
                if (ids[slot] != null && filter.test(payloads[slot])) {
                    n++;
                }
            }
            return n;
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
            Set<Leg> runnable = legsWithDataLocked();
            PayloadFilter filter = query.filter();
            IntPredicate accept = filter.matchesAll() ? slot -> true : slot -> filter.test(payloads[slot]);
            Map<Leg, List<LegResult>> legs = new EnumMap<>(Leg.class);
            if (query.legs().contains(Leg.DENSE) && dense != null) {
                float[] q = query.dense();
                dense.checkDimension(q, "query vector");
                if (runnable.contains(Leg.DENSE)) {
                    legs.put(Leg.DENSE, toLegResults(dense.search(q, query.legLimit(),
                            filter.matchesAll() ? null : accept, this::idAt)));
                }
            }
            if (query.legs().contains(Leg.SPARSE) && runnable.contains(Leg.SPARSE)) {
                legs.put(Leg.SPARSE, toLegResults(sparse.search(query.sparse(), query.legLimit(), accept, this::idAt)));
            }
            if (query.legs().contains(Leg.BM25) && runnable.contains(Leg.BM25)) {
                // the store keeps the only payload table: BM25 filters by id through it
                Predicate<String> acceptId = filter.matchesAll() ? null : id -> filter.test(payloads[slotOf.get(id)]);
                legs.put(Leg.BM25, bm25Leg(query.text(), query.legLimit(), acceptId));
            }
            if (legs.isEmpty()) {
                return List.of();
            }
            List<FusedResult> fused = Fusion.of(query.fusion()).fuse(legs, query.limit());
            List<SearchHit> hits = new ArrayList<>(fused.size());
            for (FusedResult f : fused) {
                int slot = slotOf.get(f.id());
                Payload p = payloads[slot];
                hits.add(new SearchHit(ids[slot], textAt(slot), p.metadata(), p.listMetadata(), f.fusedScore(),
                        f.fusedScore(), f.legs()));
            }
            return hits;
        } finally {
            r.unlock();
        }
    }

    /**
     * The BM25 leg with score ties broken by id, as the dense and sparse legs break them. The BM25 index breaks them by
     * doc ordinal, that is by indexing history, so an index updated in place would rank tied chunks (and pick the ones
     * tied at the cut) otherwise than a fresh index of the same chunks: the hits tied with the last one kept are
     * fetched whole, then ordered by score and id.
     */
    private List<LegResult> bm25Leg(String text, int limit, Predicate<String> accept) {
        int ask = (int) Math.min(Integer.MAX_VALUE, (long) limit + 1);
        List<LegResult> hits = bm25.search(text, ask, accept);
        while (hits.size() >= ask && hits.size() > limit && ask < Integer.MAX_VALUE
                && hits.get(limit - 1).score() == hits.get(hits.size() - 1).score()) {
            ask = (int) Math.min(Integer.MAX_VALUE, 2L * ask);
            hits = bm25.search(text, ask, accept);
        }
        List<LegResult> sorted = new ArrayList<>(hits);
        sorted.sort(Comparator.comparingDouble(LegResult::score).reversed().thenComparing(LegResult::id));
        return sorted.size() > limit ? List.copyOf(sorted.subList(0, limit)) : sorted;
    }

    private String idAt(int slot) {
        return ids[slot];
    }

    private List<LegResult> toLegResults(List<TopK.Scored> scored) {
        List<LegResult> out = new ArrayList<>(scored.size());
        for (TopK.Scored s : scored) {
            out.add(new LegResult(ids[s.slot()], s.score()));
        }
        return out;
    }

    /** The legs this store holds data for: BM25 when it holds any chunk, DENSE / SPARSE when any chunk has such a vector. */
    @Override
    public Set<Leg> legsWithData() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return legsWithDataLocked();
        } finally {
            r.unlock();
        }
    }

    private Set<Leg> legsWithDataLocked() {
        Set<Leg> legs = EnumSet.noneOf(Leg.class);
        if (!slotOf.isEmpty()) {
            legs.add(Leg.BM25);
        }
        if (dense != null && dense.size() > 0) {
            legs.add(Leg.DENSE);
        }
        if (sparse.size() > 0) {
            legs.add(Leg.SPARSE);
        }
        return Set.copyOf(legs);
    }

    /** How many stored chunks have a dense vector, of how many ({@link DenseCoverage}). */
    public DenseCoverage denseCoverage() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return new DenseCoverage(slotOf.size(), dense == null ? 0 : dense.size());
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
            List<ChunkInput> out = new ArrayList<>(Math.min(max, 256));
            for (int slot = 0; slot < highWater && out.size() < max; slot++) {
                if (ids[slot] != null && (dense == null || !dense.has(slot))) {
                    out.add(chunkAt(slot));
                }
            }
            return out;
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
            prepareDense(cases);
            int attached = 0;
            for (IndexedCase c : cases) {
                Integer slot = slotOf.get(c.chunk().id());
                if (slot != null && isStored(slot, c.chunk()) && !dense.has(slot)) {
                    dense.put(slot, c.dense());
                    attached++;
                }
            }
            return attached;
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
            Integer slot = slotOf.get(id);
            return slot == null ? Optional.empty() : Optional.of(chunkAt(slot));
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
            Integer slot = slotOf.get(id);
            return slot == null || dense == null ? Optional.empty() : Optional.ofNullable(dense.get(slot));
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
            return dense == null ? OptionalInt.empty() : OptionalInt.of(dense.dimension());
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
            List<ChunkInput> out = new ArrayList<>();
            for (int slot = 0; slot < highWater; slot++) {
                if (ids[slot] != null && filter.test(payloads[slot])) {
                    out.add(chunkAt(slot));
                }
            }
            out.sort(Comparator.comparing(ChunkInput::id));
            return out;
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
            if (dense != null && dense.size() > 0 && expected.denseDimension() != dense.dimension()) {
                throw new IllegalArgumentException("fingerprint dense dimension " + expected.denseDimension()
                        + " does not match the store's dense dimension " + dense.dimension());
            }
            if (sparse.size() > 0 && expected.sparseModel().isEmpty()) {
                throw new IllegalArgumentException("the store holds sparse vectors but the fingerprint names no sparse model");
            }
            int[] live = new int[slotOf.size()];
            int n = 0;
            for (int slot = 0; slot < highWater; slot++) {
                if (ids[slot] != null) {
                    live[n++] = slot;
                }
            }
            IndexFiles.save(writeLock, expected, new IndexFiles.Source() {
                @Override
                public int size() {
                    return live.length;
                }

                @Override
                public ChunkInput chunk(int ordinal) {
                    return chunkAt(live[ordinal]);
                }

                @Override
                public float[] dense(int ordinal) {
                    return dense == null ? null : dense.get(live[ordinal]);
                }

                @Override
                public SparseVector sparse(int ordinal) {
                    return sparse.get(live[ordinal]);
                }

                @Override
                public void writeBm25(java.io.DataOutputStream out) throws java.io.IOException {
                    bm25.writeState(out);
                }

                @Override
                public boolean hasDenseGraph() {
                    return dense != null && dense.usesGraph();
                }

                @Override
                public boolean writeDenseGraph(DataOutputStream out) throws IOException {
                    int[] ordinalOfSlot = new int[highWater];
                    for (int i = 0; i < live.length; i++) {
                        ordinalOfSlot[live[i]] = i;
                    }
                    return dense != null && dense.writeGraph(out, ordinalOfSlot);
                }
            }, attachments, hook);
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

    /** Called by the loader, single-threaded before the store is published: the chunks of {@code chunks} follow. */
    void loadMapped(MappedChunks chunks, int count) {
        this.mapped = chunks;
        int n = Math.max(16, count);
        ids = Arrays.copyOf(ids, n);
        this.chunks = Arrays.copyOf(this.chunks, n);
        payloads = Arrays.copyOf(payloads, n);
        recordAt = new long[n];
        Arrays.fill(recordAt, -1);
    }

    /**
     * Called by the loader for chunk {@code ordinal}, in order: its id and metadata go on the heap, its text and fields
     * stay in the mapped file at {@code record}.
     *
     * @throws IllegalArgumentException if the id was loaded already
     */
    void loadMappedChunk(int ordinal, long record, MappedChunks.Record r) {
        if (slotOf.containsKey(r.id())) {
            throw new IllegalArgumentException("chunk id '" + r.id() + "' occurs twice");
        }
        int slot = allocateSlot(r.id());
        if (slot != ordinal) {
            throw new IllegalStateException("chunk " + ordinal + " loaded into slot " + slot);
        }
        payloads[slot] = payloadOf(r.metadata(), r.listMetadata());
        recordAt[slot] = record;
    }

    /**
     * Called by the loader: reads the BM25 state saved with the chunks; false when it was saved with other BM25
     * settings (then call {@link #reindexBm25}).
     */
    boolean loadBm25State(java.io.DataInput in) throws java.io.IOException {
        boolean read = bm25.readState(in, id -> {
            Integer slot = slotOf.get(id);
            if (slot == null) {
                throw new IllegalArgumentException("the BM25 index holds chunk '" + id + "', which is not stored");
            }
            return ids[slot];
        });
        if (read && bm25.size() != slotOf.size()) {
            throw new IllegalArgumentException("the BM25 index holds " + bm25.size() + " chunks, the store "
                    + slotOf.size());
        }
        return read;
    }

    /** Called by the loader when the saved BM25 state does not fit this configuration: indexes every chunk again. */
    void reindexBm25() {
        List<Bm25Index.Document> documents = new ArrayList<>(slotOf.size());
        for (int slot = 0; slot < highWater; slot++) {
            if (ids[slot] != null) {
                documents.add(new Bm25Index.Document(ids[slot], chunkAt(slot).bm25Fields()));
            }
        }
        bm25.upsertAll(documents);
    }

    /** The chunk in {@code slot}: on the heap, or decoded from the mapped file. */
    private ChunkInput chunkAt(int slot) {
        ChunkInput c = chunks[slot];
        return c != null ? c : mapped.chunk(recordAt[slot]);
    }

    /** The text of the chunk in {@code slot}, decoding only that from a mapped record. */
    private String textAt(int slot) {
        ChunkInput c = chunks[slot];
        return c != null ? c.text() : mapped.text(recordAt[slot]);
    }

    /** Whether {@code chunk} is the one stored in {@code slot}: the same instance, or equal to the mapped record. */
    private boolean isStored(int slot, ChunkInput chunk) {
        ChunkInput c = chunks[slot];
        return c != null ? c == chunk : recordAt[slot] >= 0 && mapped.chunk(recordAt[slot]).equals(chunk);
    }

    /** A payload of these maps, one shared instance for chunks without metadata. */
    private static Payload payloadOf(Map<String, String> metadata, Map<String, List<String>> listMetadata) {
        return metadata.isEmpty() && listMetadata.isEmpty() ? NO_METADATA : new Payload(metadata, listMetadata);
    }

    private static final Payload NO_METADATA = Payload.empty();

    void loadDense(int ordinal, float[] unit) {
        if (dense == null) {
            dense = newDenseIndex(unit.length);
        }
        dense.putUnit(ordinal, unit);
    }

    /** Called by the loader after the vectors when the index has a saved dense graph. */
    void loadDenseGraph(DataInputStream in, long fileSize, HnswDenseGraph.FormatCheck check) throws IOException {
        check.require(dense != null, "a dense graph but no dense vectors");
        dense.readGraph(in, fileSize, check); // finishDenseLoad drops it again when this store is configured exact
    }

    /** Called by the loader after the vectors (and graph, if any): builds a graph the index lacks but should have. */
    void finishDenseLoad() {
        if (dense != null) {
            dense.maintainGraph();
        }
    }

    /** Whether the dense leg currently searches a graph rather than scanning: for tests and benchmarks. */
    boolean denseUsesGraph() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return dense != null && dense.usesGraph();
        } finally {
            r.unlock();
        }
    }

    /** How many dense graphs this store built from scratch (not loaded): for tests. */
    int denseGraphBuilds() {
        Lock r = lock.readLock();
        r.lock();
        try {
            return dense == null ? 0 : dense.graphBuilds();
        } finally {
            r.unlock();
        }
    }

    void loadSparse(int ordinal, SparseVector vector) {
        sparse.put(ordinal, vector);
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
            Builder copy = new Builder();
            copy.tokenizer = tokenizer;
            copy.bm25Params = bm25Params;
            copy.fieldWeights.putAll(fieldWeights);
            copy.denseSearch = denseSearch;
            copy.hnswParams = hnswParams;
            copy.denseDimension = expected.denseDimension() > 0 ? expected.denseDimension() : denseDimension;
            // a writer may replace and garbage-collect the generation while we read it: then read the new one
            return IndexFiles.readCurrent(dir, () -> {
                InMemoryCaseStore store = copy.build();
                Lock w = store.lock.writeLock();
                w.lock();
                try {
                    IndexFiles.load(dir, expected, store);
                } finally {
                    w.unlock();
                }
                return store;
            });
        }
    }
}
