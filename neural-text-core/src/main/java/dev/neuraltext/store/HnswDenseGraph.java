package dev.neuraltext.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.function.IntPredicate;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;
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
 * <p>Graph nodes ("ords") are numbered in insertion order, separately from the store's slots, so the graph never has
 * holes: a vector that is replaced or removed leaves its ord behind as a dead node (still traversed, never returned;
 * it scores as a zero vector once its slot is gone) and a replacement is appended as a new ord. {@link #deadFraction()}
 * tells the owner when to rebuild.
 *
 * <p>Filters run inside the graph search as Lucene's {@code acceptOrds}; when a filter passes at most {@code k} vectors,
 * or the graph search would visit more nodes than the filter passes (Lucene's rule), {@link #search} returns null and
 * the caller scans exactly.
 *
 * <p>On disk (a section of the index, {@link #write} and {@link #read}): format version, M, beam width, dimension, the
 * ord count, the entry node and level count, each ord's saved chunk ordinal (-1 for a dead ord), then per level the
 * nodes and their neighbour lists with Lucene's scores, so that a load fills the graph without computing a distance.
 *
 * <p>Not thread-safe for writes; concurrent searches are safe while no write runs ({@link InMemoryCaseStore}'s lock).
 */
final class HnswDenseGraph {

    static final int FORMAT_VERSION = 1;
    private static final long SEED = 42;

    private final DenseVectorIndex vectors;
    private final int maxConnections;
    private final int beamWidth;
    private final HnswGraphBuilder builder;
    private final OnHeapHnswGraph graph;
    private int[] ordToSlot = new int[1024];
    private int[] slotToOrd = new int[0];
    private final FixedBitSetHolder live = new FixedBitSetHolder();
    private int ords;
    private int dead;

    private HnswDenseGraph(DenseVectorIndex vectors, int maxConnections, int beamWidth) {
        this.vectors = vectors;
        this.maxConnections = maxConnections;
        this.beamWidth = beamWidth;
        try {
            this.builder = HnswGraphBuilder.create(new Scorers(), maxConnections, beamWidth, SEED);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // on-heap scorers do no I/O
        }
        this.graph = builder.getGraph();
    }

    /** A graph over every vector {@code vectors} holds now, inserted in slot order. */
    static HnswDenseGraph build(DenseVectorIndex vectors, HnswParams params) {
        HnswDenseGraph g = new HnswDenseGraph(vectors, params.maxConnections(), params.beamWidth());
        for (int slot = vectors.nextSlot(0); slot >= 0; slot = vectors.nextSlot(slot + 1)) {
            g.add(slot);
        }
        return g;
    }

    int size() {
        return ords - dead;
    }

    /** The share of graph nodes that are dead (replaced or removed vectors). */
    double deadFraction() {
        return ords == 0 ? 0 : (double) dead / ords;
    }

    /** Inserts the current vector of {@code slot}, retiring the node of its previous vector if it had one. */
    void add(int slot) {
        remove(slot);
        int ord = ords;
        if (ord == ordToSlot.length) {
            ordToSlot = Arrays.copyOf(ordToSlot, ord * 2);
        }
        ordToSlot[ord] = slot;
        mapSlot(slot, ord);
        ords++;
        live.set(ord);
        try {
            builder.addGraphNode(ord);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Retires the node of {@code slot}'s vector, if any: it stays in the graph for navigation, never as a result. */
    void remove(int slot) {
        if (slot < slotToOrd.length && slotToOrd[slot] >= 0) {
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
     * Up to {@code k} candidate slots for unit query {@code q} among those {@code accept} admits (null: all), best
     * first by the graph's float score; null when the caller should scan exactly instead (a very selective filter).
     */
    int[] search(float[] q, int k, IntPredicate accept, int efSearch) {
        if (size() == 0) {
            return new int[0];
        }
        int topK = Math.max(k, efSearch);
        Bits acceptOrds = live.bits(ords);
        int visitLimit = Integer.MAX_VALUE;
        if (accept != null) {
            FixedBitSet passing = new FixedBitSet(ords);
            int count = 0;
            for (int ord = 0; ord < ords; ord++) {
                int slot = ordToSlot[ord];
                if (slot >= 0 && accept.test(slot)) {
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
    void write(DataOutputStream out, int[] ordinalOfSlot) throws IOException {
        out.writeInt(FORMAT_VERSION);
        out.writeInt(maxConnections);
        out.writeInt(beamWidth);
        out.writeInt(vectors.dimension());
        out.writeInt(ords);
        int levels = graph.numLevels();
        out.writeInt(graph.entryNode());
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
     * Reads a graph written by {@link #write} over {@code vectors} (already loaded, slot = saved chunk ordinal).
     *
     * @throws IOException (a format error) when the data is inconsistent with itself or with {@code vectors}
     */
    static HnswDenseGraph read(DataInputStream in, DenseVectorIndex vectors, FormatCheck check) throws IOException {
        int version = in.readInt();
        check.require(version == FORMAT_VERSION, "dense graph format version " + version + ", this library reads "
                + FORMAT_VERSION);
        int m = in.readInt();
        int beam = in.readInt();
        check.require(m >= 2 && m <= 512 && beam >= 1 && beam <= 3200, "dense graph parameters M " + m
                + ", beam width " + beam);
        int dimension = in.readInt();
        check.require(dimension == vectors.dimension(), "dense graph dimension " + dimension
                + " differs from the vectors' " + vectors.dimension());
        int ords = in.readInt();
        check.require(ords >= 0, "dense graph node count " + ords);
        int entry = in.readInt();
        int levels = in.readInt();
        check.require(ords == 0 ? levels >= 0 : entry >= 0 && entry < ords && levels >= 1 && levels <= 64,
                "dense graph entry node " + entry + " of " + ords + " with " + levels + " levels");
        HnswDenseGraph g = new HnswDenseGraph(vectors, m, beam);
        g.ordToSlot = new int[Math.max(16, ords)];
        int dead = 0;
        for (int ord = 0; ord < ords; ord++) {
            int slot = in.readInt();
            check.require(slot == -1 || vectors.has(slot), "dense graph node " + ord + " names chunk " + slot
                    + ", which has no dense vector");
            g.ordToSlot[ord] = slot;
            if (slot >= 0) {
                check.require(slot >= g.slotToOrd.length || g.slotToOrd[slot] < 0, "dense graph names chunk " + slot
                        + " twice");
                g.mapSlot(slot, ord);
                g.live.set(ord);
            } else {
                dead++;
            }
        }
        check.require(ords - dead == vectors.size(), "dense graph holds " + (ords - dead) + " live vectors, the index "
                + vectors.size());
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
        for (int node = 0; node < ords; node++) {
            for (int level = topLevel[node]; level >= 0; level--) {
                g.graph.addNode(level, node);
                NeighborArray target = g.graph.getNeighbors(level, node);
                int[] ids = neighbours[level][node];
                float[] s = scores[level][node];
                for (int j = 0; j < ids.length; j++) {
                    target.addOutOfOrder(ids[j], s[j]);
                }
            }
        }
        if (ords > 0) {
            g.graph.trySetNewEntryNode(entry, levels - 1);
        }
        g.ords = ords;
        g.dead = dead;
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

    /** Scores of graph nodes against one node, for Lucene's builder. */
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

    /** The live ords as a growable Lucene bit set. */
    private static final class FixedBitSetHolder {
        private FixedBitSet bits = new FixedBitSet(1024);

        void set(int ord) {
            bits = FixedBitSet.ensureCapacity(bits, ord);
            bits.set(ord);
        }

        void clear(int ord) {
            bits.clear(ord);
        }

        Bits bits(int length) {
            FixedBitSet b = bits;
            return new Bits() {
                @Override
                public boolean get(int index) {
                    return b.get(index);
                }

                @Override
                public int length() {
                    return length;
                }
            };
        }
    }
}
