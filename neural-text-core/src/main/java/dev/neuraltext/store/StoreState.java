package dev.neuraltext.store;

import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusedResult;
import dev.neuraltext.fusion.Fusion;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * The state of an {@link InMemoryCaseStore} and the operations on it: the slot table (ids, chunks on the heap or in the
 * mapped {@code chunks.bin}, payloads, free slots), the BM25, dense and sparse indexes, the legs' search and their
 * fusion, what a save writes and what a load reads into it. Not thread-safe: the store calls it under its
 * read-write lock (reads under the read lock, everything that changes it under the write lock, a load before the
 * store is published).
 */
final class StoreState {

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
    private int highWater;
    private int[] free = new int[16];
    private int freeCount;

    StoreState(Bm25Index bm25, DenseSearch denseSearch, HnswParams hnswParams, int denseDimension) {
        this.bm25 = bm25;
        this.denseSearch = denseSearch;
        this.hnswParams = hnswParams;
        if (denseDimension > 0) {
            this.dense = newDenseIndex(denseDimension);
        }
    }

    private DenseVectorIndex newDenseIndex(int dimension) {
        return new DenseVectorIndex(dimension, denseSearch, hnswParams);
    }

    // ---------------------------------------------------------------- writes

    void upsert(List<IndexedCase> cases) {
        prepareDense(cases);
        List<Bm25Index.Document> documents = new ArrayList<>(cases.size());
        for (IndexedCase c : cases) {
            documents.add(write(c.chunk(), c.dense(), c.sparse()));
        }
        bm25.upsertAll(documents);
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

    void delete(Collection<String> idsToDelete) {
        for (String id : idsToDelete) {
            if (id != null) {
                remove(id);
            }
        }
    }

    void deleteWhere(PayloadFilter filter) {
        List<String> matching = new ArrayList<>();
        for (int slot = 0; slot < highWater; slot++) {
            if (ids[slot] != null && filter.test(payloads[slot])) {
                matching.add(ids[slot]);
            }
        }
        matching.forEach(this::remove);
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

    long count(PayloadFilter filter) {
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
    }

    List<SearchHit> search(HybridQuery query) {
        Set<Leg> runnable = legsWithData();
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

    Set<Leg> legsWithData() {
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

    DenseCoverage denseCoverage() {
        return new DenseCoverage(slotOf.size(), dense == null ? 0 : dense.size());
    }

    List<ChunkInput> chunksLackingDense(int max) {
        List<ChunkInput> out = new ArrayList<>(Math.min(max, 256));
        for (int slot = 0; slot < highWater && out.size() < max; slot++) {
            if (ids[slot] != null && (dense == null || !dense.has(slot))) {
                out.add(chunkAt(slot));
            }
        }
        return out;
    }

    /** {@link InMemoryCaseStore#attachDense} once every case was checked to have a vector. */
    int attachDense(List<IndexedCase> cases) {
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

    Optional<float[]> denseVector(String id) {
        Integer slot = slotOf.get(id);
        return slot == null || dense == null ? Optional.empty() : Optional.ofNullable(dense.get(slot));
    }

    Optional<ChunkInput> chunk(String id) {
        Integer slot = slotOf.get(id);
        return slot == null ? Optional.empty() : Optional.of(chunkAt(slot));
    }

    OptionalInt denseDimension() {
        return dense == null ? OptionalInt.empty() : OptionalInt.of(dense.dimension());
    }

    List<ChunkInput> chunks(PayloadFilter filter) {
        List<ChunkInput> out = new ArrayList<>();
        for (int slot = 0; slot < highWater; slot++) {
            if (ids[slot] != null && filter.test(payloads[slot])) {
                out.add(chunkAt(slot));
            }
        }
        out.sort(Comparator.comparing(ChunkInput::id));
        return out;
    }

    boolean denseUsesGraph() {
        return dense != null && dense.usesGraph();
    }

    int denseGraphBuilds() {
        return dense == null ? 0 : dense.graphBuilds();
    }

    // ---------------------------------------------------------------- persistence

    /**
     * What a save of this state writes, checked against {@code expected} (its dense dimension and sparse model): the
     * live slots in order, as the chunk ordinals of the saved generation.
     *
     * @throws IllegalArgumentException if {@code expected} does not fit the vectors held
     */
    IndexFiles.Source source(IndexFingerprint expected) {
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
        return new IndexFiles.Source() {
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
        };
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

    void loadSparse(int ordinal, SparseVector vector) {
        sparse.put(ordinal, vector);
    }
}
