package dev.neuraltext.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TaskExecutor;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.hnsw.HnswConcurrentMergeBuilder;
import org.apache.lucene.util.hnsw.HnswGraph;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.NeighborArray;
import org.apache.lucene.util.hnsw.OnHeapHnswGraph;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

/**
 * The approximate half of {@link DenseVectorIndex}: an HNSW graph built and searched by Lucene's
 * {@code org.apache.lucene.util.hnsw} over the index's unit vectors, scored as Lucene's {@code DOT_PRODUCT}
 * ({@code (1 + cos) / 2}).
 *
 * <p>A graph is complete once built: nodes ("ords") {@code 0 .. ords-1}, numbered separately from the store's slots.
 * New vectors join by {@link #withAdded}: a new graph of the combined size, the old nodes copied in with their
 * neighbour lists (no distance is computed again), the new ones inserted by Lucene's concurrent builder over
 * {@link HnswParams#buildThreads()} threads. A vector that is replaced or removed leaves its ord behind as a dead node
 * (still traversed, never returned; it scores as a zero vector) and {@link #deadFraction()} tells the owner when to
 * rebuild.
 *
 * <p>Filters run inside the graph search as Lucene's {@code acceptOrds}; when a filter passes at most {@code k} vectors,
 * or the graph search would visit more nodes than the filter passes (Lucene's rule), {@link #search} returns null and
 * the caller scans exactly.
 *
 * <p>On disk (a section of the index, {@link #write} and {@link #read}): format version, M, beam width, dimension, the
 * ord count, the entry node and level count, each ord's saved chunk ordinal (-1 for a dead ord), then per level the
 * nodes and their neighbour lists with Lucene's scores, so that a load fills the graph without computing a distance.
 *
 * <p>Not thread-safe for writes ({@link #remove}); concurrent searches are safe while no write runs
 * ({@link InMemoryCaseStore}'s lock).
 */
final class HnswDenseGraph {

    static final int FORMAT_VERSION = 1;
    private static final long SEED = 42;
    private static final AtomicInteger BUILD_THREADS = new AtomicInteger();

    private final DenseVectorIndex vectors;
    private final int maxConnections;
    private final int beamWidth;
    private final int ords;
    private final int[] ordToSlot;
    private final FixedBitSet live;
    private int[] slotToOrd = new int[0];
    private int dead;
    private OnHeapHnswGraph graph;

    private HnswDenseGraph(DenseVectorIndex vectors, int maxConnections, int beamWidth, int[] ordToSlot) {
        this.vectors = vectors;
        this.maxConnections = maxConnections;
        this.beamWidth = beamWidth;
        this.ords = ordToSlot.length;
        this.ordToSlot = ordToSlot;
        this.live = new FixedBitSet(Math.max(1, ords));
        for (int ord = 0; ord < ords; ord++) {
            int slot = ordToSlot[ord];
            if (slot >= 0) {
                live.set(ord);
                mapSlot(slot, ord);
            } else {
                dead++;
            }
        }
    }

    /** A graph over every vector {@code vectors} holds now. */
    static HnswDenseGraph build(DenseVectorIndex vectors, HnswParams params) {
        int[] slots = new int[vectors.size()];
        int n = 0;
        for (int slot = vectors.nextSlot(0); slot >= 0; slot = vectors.nextSlot(slot + 1)) {
            slots[n++] = slot;
        }
        HnswDenseGraph g = new HnswDenseGraph(vectors, params.maxConnections(), params.beamWidth(), slots);
        g.graph = g.insert(null, params.buildThreads());
        return g;
    }

    /**
     * A new graph holding this one's nodes (dead ones included, with their neighbour lists as they are) followed by
     * the current vectors of {@code slots}; this graph must not be used afterwards.
     */
    HnswDenseGraph withAdded(int[] slots, HnswParams params) {
        int[] map = Arrays.copyOf(ordToSlot, ords + slots.length);
        System.arraycopy(slots, 0, map, ords, slots.length);
        HnswDenseGraph g = new HnswDenseGraph(vectors, maxConnections, beamWidth, map);
        g.graph = g.insert(this, params.buildThreads());
        return g;
    }

    /** Builds this graph's {@link OnHeapHnswGraph}: {@code previous}'s nodes copied, the others inserted. */
    private OnHeapHnswGraph insert(HnswDenseGraph previous, int threads) {
        try {
            Scorers scorers = new Scorers();
            OnHeapHnswGraph target = HnswGraphBuilder.create(scorers, maxConnections, beamWidth, SEED,
                    Math.max(1, ords)).getGraph();
            FixedBitSet initialized = new FixedBitSet(Math.max(1, ords));
            if (previous != null && previous.ords > 0) {
                copyInto(previous.graph, previous.ords, target);
                initialized.set(0, previous.ords);
            }
            if (ords == 0 || (previous != null && previous.ords == ords)) {
                return target;
            }
            int workers = Math.max(1, Math.min(threads, (ords - (previous == null ? 0 : previous.ords)) / 256 + 1));
            ExecutorService pool = Executors.newFixedThreadPool(workers, namedDaemonThreads());
            try {
                return new HnswConcurrentMergeBuilder(new TaskExecutor(pool), workers, scorers, maxConnections,
                        beamWidth, target, initialized).build(ords);
            } finally {
                pool.shutdown();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // on-heap scorers do no I/O
        }
    }

    private static ThreadFactory namedDaemonThreads() {
        return r -> {
            Thread t = new Thread(r, "neural-text-hnsw-build-" + BUILD_THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Copies every node of a complete graph {@code source} with {@code n} nodes into {@code target}, same ords. */
    private static void copyInto(OnHeapHnswGraph source, int n, OnHeapHnswGraph target) throws IOException {
        int levels = source.numLevels();
        int[] topLevel = new int[n];
        for (int level = 1; level < levels; level++) {
            HnswGraph.NodesIterator nodes = source.getNodesOnLevel(level);
            while (nodes.hasNext()) {
                topLevel[nodes.nextInt()] = level;
            }
        }
        for (int node = 0; node < n; node++) {
            for (int level = topLevel[node]; level >= 0; level--) {
                target.addNode(level, node);
                NeighborArray from = source.getNeighbors(level, node);
                NeighborArray to = target.getNeighbors(level, node);
                int[] ids = from.nodes();
                for (int i = 0; i < from.size(); i++) {
                    to.addOutOfOrder(ids[i], from.getScores(i));
                }
            }
        }
        target.trySetNewEntryNode(source.entryNode(), levels - 1);
    }

    /** Live nodes. */
    int size() {
        return ords - dead;
    }

    /** The share of graph nodes that are dead (replaced or removed vectors). */
    double deadFraction() {
        return ords == 0 ? 0 : (double) dead / ords;
    }

    /** Whether the graph holds the current vector of {@code slot}. */
    boolean contains(int slot) {
        return slot < slotToOrd.length && slotToOrd[slot] >= 0;
    }

    /** Retires the node of {@code slot}'s vector, if any: it stays in the graph for navigation, never as a result. */
    void remove(int slot) {
        if (contains(slot)) {
            int ord = slotToOrd[slot];
            slotToOrd[slot] = -1;
            ordToSlot[ord] = -1;
            live.clear(ord);
            dead++;
        }
    }

    private void mapSlot(int slot, int ord) {
        if (slot >= slotToOrd.length) {
            int old = slotToOrd.length;
            slotToOrd = Arrays.copyOf(slotToOrd, Math.max(slot + 1, old * 2 + 16));
            Arrays.fill(slotToOrd, old, slotToOrd.length, -1);
        }
        slotToOrd[slot] = ord;
    }

    /**
     * Up to {@code max(k, efSearch)} candidate slots for unit query {@code q} among those {@code accept} admits (null:
     * all), best first by the graph's float score; null when the caller should scan exactly instead (a filter that
     * passes no more vectors than the search keeps, or fewer than it would visit).
     */
    int[] search(float[] q, int k, IntPredicate accept, int efSearch) {
        if (size() == 0) {
            return new int[0];
        }
        int topK = Math.max(k, efSearch);
        FixedBitSet acceptOrds = live;
        int visitLimit = Integer.MAX_VALUE;
        if (accept != null) {
            FixedBitSet passing = new FixedBitSet(ords);
            int count = 0;
            for (int ord = 0; ord < ords; ord++) {
                if (live.get(ord) && accept.test(ordToSlot[ord])) {
                    passing.set(ord);
                    count++;
                }
            }
            if (count <= topK) {
                return null;
            }
            acceptOrds = passing;
            visitLimit = count;
        }
        KnnCollector collector;
        try {
            collector = HnswGraphSearcher.search(new QueryScorer(q), topK, graph, acceptOrds, visitLimit);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (collector.earlyTerminated()) {
            return null;
        }
        ScoreDoc[] docs = collector.topDocs().scoreDocs;
        int[] slots = new int[docs.length];
        for (int i = 0; i < docs.length; i++) {
            slots[i] = ordToSlot[docs[i].doc];
        }
        return slots;
    }

    // ------------------------------------------------------------------ persistence

    /** Writes the graph; {@code ordinalOfSlot} maps a live slot to its chunk ordinal in the saved index. */
    synchronized void write(DataOutputStream out, int[] ordinalOfSlot) throws IOException {
        // synchronized: saves run under the store's read lock, and Lucene caches the level lists on first use
        out.writeInt(FORMAT_VERSION);
        out.writeInt(maxConnections);
        out.writeInt(beamWidth);
        out.writeInt(vectors.dimension());
        out.writeInt(ords);
        int levels = ords == 0 ? 0 : graph.numLevels();
        out.writeInt(ords == 0 ? -1 : graph.entryNode());
        out.writeInt(levels);
        for (int ord = 0; ord < ords; ord++) {
            int slot = ordToSlot[ord];
            out.writeInt(slot < 0 ? -1 : ordinalOfSlot[slot]);
        }
        for (int level = 0; level < levels; level++) {
            HnswGraph.NodesIterator nodes = graph.getNodesOnLevel(level);
            out.writeInt(nodes.size());
            while (nodes.hasNext()) {
                int node = nodes.nextInt();
                NeighborArray neighbors = graph.getNeighbors(level, node);
                out.writeInt(node);
                int n = neighbors.size();
                out.writeInt(n);
                int[] ids = neighbors.nodes();
                for (int i = 0; i < n; i++) {
                    out.writeInt(ids[i]);
                }
                for (int i = 0; i < n; i++) {
                    out.writeFloat(neighbors.getScores(i));
                }
            }
        }
    }

    /**
     * Reads a graph written by {@link #write} over {@code vectors} (already loaded, slot = saved chunk ordinal). Slots
     * with a vector that the graph does not hold are the caller's to add.
     *
     * @throws IOException (a format error) when the data is inconsistent with itself or with {@code vectors}
     */
    static HnswDenseGraph read(DataInputStream in, long fileSize, DenseVectorIndex vectors, FormatCheck check)
            throws IOException {
        int version = in.readInt();
        check.require(version == FORMAT_VERSION, "its dense graph was written by graph format version " + version
                + ", this neural-text reads version " + FORMAT_VERSION + (version > FORMAT_VERSION
                ? ": upgrade neural-text or rebuild the index with `neural-text index`"
                : ": rebuild the index with `neural-text index`"));
        int m = in.readInt();
        int beam = in.readInt();
        check.require(m >= 2 && m <= 512 && beam >= 1 && beam <= 3200, "dense graph parameters M " + m
                + ", beam width " + beam);
        int dimension = in.readInt();
        check.require(dimension == vectors.dimension(), "dense graph dimension " + dimension
                + " differs from the vectors' " + vectors.dimension());
        int ords = in.readInt();
        check.require(ords >= 0 && ords * 8L <= fileSize, "dense graph node count " + ords);
        int entry = in.readInt();
        int levels = in.readInt();
        check.require(ords == 0 ? levels == 0 : entry >= 0 && entry < ords && levels >= 1 && levels <= 64,
                "dense graph entry node " + entry + " of " + ords + " with " + levels + " levels");
        int[] ordToSlot = new int[ords];
        boolean[] seen = new boolean[vectors.capacity()];
        for (int ord = 0; ord < ords; ord++) {
            int slot = in.readInt();
            check.require(slot == -1 || (slot >= 0 && slot < seen.length && vectors.has(slot) && !seen[slot]),
                    "dense graph node " + ord + " names chunk " + slot + ", which has no dense vector or another node");
            if (slot >= 0) {
                seen[slot] = true;
            }
            ordToSlot[ord] = slot;
        }
        HnswDenseGraph g = new HnswDenseGraph(vectors, m, beam, ordToSlot);
        // Lucene adds a node from its top level down: read every level first, then add, then fill the neighbours
        int[][][] neighbours = new int[levels][][];
        float[][][] scores = new float[levels][][];
        int[] topLevel = new int[ords];
        for (int level = 0; level < levels; level++) {
            int count = in.readInt();
            check.require(level == 0 ? count == ords : count >= 0 && count <= ords, "dense graph level " + level
                    + " has " + count + " nodes");
            neighbours[level] = new int[ords][];
            scores[level] = new float[ords][];
            for (int i = 0; i < count; i++) {
                int node = in.readInt();
                check.require(node >= 0 && node < ords && neighbours[level][node] == null
                        && (level == 0 || neighbours[level - 1][node] != null), "dense graph level " + level
                        + " lists node " + node);
                int n = in.readInt();
                check.require(n >= 0 && n <= 2 * m + 1, "dense graph node " + node + " has " + n + " neighbours");
                int[] ids = new int[n];
                float[] s = new float[n];
                for (int j = 0; j < n; j++) {
                    ids[j] = in.readInt();
                    check.require(ids[j] >= 0 && ids[j] < ords, "dense graph neighbour " + ids[j] + " of " + ords);
                }
                for (int j = 0; j < n; j++) {
                    s[j] = in.readFloat();
                }
                neighbours[level][node] = ids;
                scores[level][node] = s;
                topLevel[node] = level;
            }
        }
        check.require(ords == 0 || neighbours[levels - 1][entry] != null, "dense graph entry node " + entry
                + " is not on the top level");
        OnHeapHnswGraph target = HnswGraphBuilder.create(g.new Scorers(), m, beam, SEED, Math.max(1, ords)).getGraph();
        for (int node = 0; node < ords; node++) {
            for (int level = topLevel[node]; level >= 0; level--) {
                target.addNode(level, node);
                NeighborArray to = target.getNeighbors(level, node);
                int[] ids = neighbours[level][node];
                float[] s = scores[level][node];
                for (int j = 0; j < ids.length; j++) {
                    to.addOutOfOrder(ids[j], s[j]);
                }
            }
        }
        if (ords > 0) {
            target.trySetNewEntryNode(entry, levels - 1);
        }
        g.graph = target;
        return g;
    }

    /** Raises the format error of the caller's file when a condition fails. */
    @FunctionalInterface
    interface FormatCheck {
        void require(boolean ok, String message) throws IOException;
    }

    // ------------------------------------------------------------------ scoring

    private float score(float[] q, int ord) {
        int slot = ordToSlot[ord];
        if (slot < 0) {
            return 0.5f; // a dead node: as a zero vector
        }
        return (float) ((1 + DenseVectorIndex.dot(q, vectors.data(), slot * vectors.dimension(), q.length)) / 2);
    }

    /** Scores of graph nodes against one node, for Lucene's builders. */
    private final class Scorers implements RandomVectorScorerSupplier {
        @Override
        public RandomVectorScorer scorer(int ord) {
            int slot = ordToSlot[ord];
            float[] v = slot < 0 ? new float[vectors.dimension()] : vectors.unitAt(slot);
            return new QueryScorer(v);
        }

        @Override
        public RandomVectorScorerSupplier copy() {
            return this; // stateless: every scorer holds its own vector
        }
    }

    private final class QueryScorer implements RandomVectorScorer {
        private final float[] q;

        QueryScorer(float[] q) {
            this.q = q;
        }

        @Override
        public float score(int ord) {
            return HnswDenseGraph.this.score(q, ord);
        }

        @Override
        public int maxOrd() {
            return ords;
        }
    }
}
