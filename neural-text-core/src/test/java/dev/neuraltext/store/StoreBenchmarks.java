package dev.neuraltext.store;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.eval.BeirDataset;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Benchmarks of the embedded store (mains, not tests). Run from the core module's test classpath:
 *
 * <pre>
 * persistence [n] [dim] [dir]     synthetic chunks: build, save, load times, bytes on disk, heap per chunk
 * latency [datasetDir] [embedderFactory]
 *                                  search latency p50/p95 per leg and fused on a BEIR dataset; the embedder is a
 *                                  static factory "class#method" (e.g. dev.neuraltext.onnx.OnnxEmbedder#allMiniLmL6V2),
 *                                  or "random" for random 384-dim vectors (latency only)
 * scan [n] [dim] [rounds]          one exact dense scan of n vectors, one thread: the store's float dot product
 *                                  (8 accumulators) next to 4 accumulators, a plain loop and an int8 byte[] loop
 *                                  (8 int accumulators), interleaved round by round; median ms per scan
 * </pre>
 */
public final class StoreBenchmarks {

    private StoreBenchmarks() {
    }

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "persistence";
        if (what.equals("persistence")) {
            persistence(args.length > 1 ? Integer.parseInt(args[1]) : 100_000, args.length > 2 ? Integer.parseInt(args[2]) : 384,
                    args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("nt-bench"));
        } else if (what.equals("latency")) {
            latency(Path.of(args.length > 1 ? args[1] : "/work/shared/bench/datasets/commons-lang"),
                    args.length > 2 ? args[2] : "random", args.length > 3 ? Path.of(args[3]) : null);
        } else if (what.equals("scan")) {
            scan(args.length > 1 ? Integer.parseInt(args[1]) : 100_000, args.length > 2 ? Integer.parseInt(args[2]) : 384,
                    args.length > 3 ? Integer.parseInt(args[3]) : 15);
        } else {
            throw new IllegalArgumentException("unknown benchmark " + what);
        }
    }

    // ------------------------------------------------------------------ scan

    static void scan(int n, int dim, int rounds) {
        Random random = new Random(3);
        float[] data = new float[n * dim];
        byte[] bytes = new byte[n * dim];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) random.nextGaussian() / (float) Math.sqrt(dim);
            bytes[i] = (byte) Math.max(-127, Math.min(127, Math.round(data[i] * 127 * 4)));
        }
        float[] q = new float[dim];
        byte[] qb = new byte[dim];
        for (int i = 0; i < dim; i++) {
            q[i] = data[i];
            qb[i] = bytes[i];
        }
        String[] names = {"float, 8 accumulators (the store's)", "float, 4 accumulators", "float, plain loop",
            "int8, 8 int accumulators"};
        long[][] times = new long[names.length][rounds];
        double sink = 0;
        for (int r = -3; r < rounds; r++) { // three warm-up rounds
            for (int v = 0; v < names.length; v++) {
                long t0 = System.nanoTime();
                double best = Double.NEGATIVE_INFINITY;
                for (int o = 0; o < n; o++) {
                    double d = switch (v) {
                        case 0 -> DenseVectorIndex.dot(q, data, o * dim, dim);
                        case 1 -> dot4(q, data, o * dim, dim);
                        case 2 -> dotPlain(q, data, o * dim, dim);
                        default -> dotInt8(qb, bytes, o * dim, dim);
                    };
                    best = Math.max(best, d);
                }
                sink += best;
                if (r >= 0) {
                    times[v][r] = System.nanoTime() - t0;
                }
            }
        }
        System.out.printf(Locale.ROOT, "exact scan of %,d x %d, one thread, median of %d rounds (sink %.3f)%n", n, dim,
                rounds, sink);
        for (int v = 0; v < names.length; v++) {
            long[] t = times[v].clone();
            Arrays.sort(t);
            System.out.printf(Locale.ROOT, "  %-38s %8.2f ms  (%.2fx the store's)%n", names[v], t[rounds / 2] / 1e6,
                    (double) t[rounds / 2] / sortedMedian(times[0]));
        }
    }

    private static double sortedMedian(long[] times) {
        long[] t = times.clone();
        Arrays.sort(t);
        return t[t.length / 2];
    }

    private static double dot4(float[] q, float[] d, int offset, int dim) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < dim; i += 4) {
            s0 += q[i] * d[offset + i];
            s1 += q[i + 1] * d[offset + i + 1];
            s2 += q[i + 2] * d[offset + i + 2];
            s3 += q[i + 3] * d[offset + i + 3];
        }
        for (; i < dim; i++) {
            s0 += q[i] * d[offset + i];
        }
        return (double) s0 + s1 + s2 + s3;
    }

    private static double dotPlain(float[] q, float[] d, int offset, int dim) {
        float s = 0;
        for (int i = 0; i < dim; i++) {
            s += q[i] * d[offset + i];
        }
        return s;
    }

    private static double dotInt8(byte[] q, byte[] d, int offset, int dim) {
        int s0 = 0;
        int s1 = 0;
        int s2 = 0;
        int s3 = 0;
        int s4 = 0;
        int s5 = 0;
        int s6 = 0;
        int s7 = 0;
        int i = 0;
        for (; i + 7 < dim; i += 8) {
            int o = offset + i;
            s0 += q[i] * d[o];
            s1 += q[i + 1] * d[o + 1];
            s2 += q[i + 2] * d[o + 2];
            s3 += q[i + 3] * d[o + 3];
            s4 += q[i + 4] * d[o + 4];
            s5 += q[i + 5] * d[o + 5];
            s6 += q[i + 6] * d[o + 6];
            s7 += q[i + 7] * d[o + 7];
        }
        for (; i < dim; i++) {
            s0 += q[i] * d[offset + i];
        }
        return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
    }

    // ------------------------------------------------------------------ persistence

    static void persistence(int n, int dim, Path dir) throws IOException {
        Random random = new Random(1);
        String[] vocabulary = new String[5000];
        for (int i = 0; i < vocabulary.length; i++) {
            vocabulary[i] = randomIdentifier(random);
        }
        System.out.printf(Locale.ROOT, "persistence benchmark: %,d synthetic chunks, dense %d-dim, dir %s%n", n, dim, dir);
        long heapBefore = usedHeap();
        long t0 = System.nanoTime();
        InMemoryCaseStore store = InMemoryCaseStore.create();
        List<IndexedCase> batch = new ArrayList<>();
        long textChars = 0;
        for (int i = 0; i < n; i++) {
            StringBuilder text = new StringBuilder();
            int words = 40 + random.nextInt(80);
            for (int w = 0; w < words; w++) {
                text.append(vocabulary[(int) Math.abs(random.nextGaussian() * 800) % vocabulary.length]).append(' ');
            }
            textChars += text.length();
            float[] v = new float[dim];
            for (int j = 0; j < dim; j++) {
                v[j] = (float) random.nextGaussian();
            }
            ChunkInput chunk = new ChunkInput("src/main/java/pkg/File" + (i / 20) + ".java#Type.method" + i + "(String)",
                    text.toString(), Map.of("path", "src/main/java/pkg/File" + (i / 20) + ".java", "symbolType", "method",
                    "startLine", Integer.toString(i % 500), "endLine", Integer.toString(i % 500 + 12)), Map.of(), Map.of());
            batch.add(new IndexedCase(chunk, v, null));
            if (batch.size() == 1000) {
                store.upsert(batch);
                batch.clear();
            }
        }
        store.upsert(batch);
        long t1 = System.nanoTime();
        long heapAfter = usedHeap();
        System.out.printf(Locale.ROOT, "build (BM25 + dense upsert, no embedding): %.1f s; avg text %d chars%n",
                (t1 - t0) / 1e9, textChars / n);
        System.out.printf(Locale.ROOT, "heap: %.1f MB total, %.0f bytes per chunk (of which %d bytes dense vector)%n",
                (heapAfter - heapBefore) / 1e6, (heapAfter - heapBefore) / (double) n, dim * 4);
        IndexFingerprint fp = store.fingerprint().withDense("synthetic", dim);
        long sc0 = cpu();
        long s0 = System.nanoTime();
        store.save(dir, fp);
        long s1 = System.nanoTime();
        System.out.printf(Locale.ROOT, "save cpu: %.2f s%n", (cpu() - sc0) / 1e9);
        long bytes;
        try (Stream<Path> files = Files.walk(dir)) {
            bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        System.out.printf(Locale.ROOT, "save: %.2f s, %.1f MB on disk (%.0f bytes per chunk)%n", (s1 - s0) / 1e9,
                bytes / 1e6, bytes / (double) n);
        store = null;
        for (int run = 1; run <= 3; run++) {
            long c0 = cpu();
            long l0 = System.nanoTime();
            InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, fp);
            long l1 = System.nanoTime();
            System.out.printf(Locale.ROOT, "load run %d: %.2f s wall, %.2f s cpu (%,d chunks)%n", run, (l1 - l0) / 1e9,
                    (cpu() - c0) / 1e9, loaded.count(PayloadFilter.all()));
        }
        timeBm25Rebuild(dir, fp);
    }

    /** How much of the load is the BM25 rebuild: load a lexical-only copy of the same chunks. */
    private static void timeBm25Rebuild(Path dir, IndexFingerprint fp) {
        InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, fp);
        List<ChunkInput> chunks = loaded.chunks(PayloadFilter.all());
        loaded = null;
        long c0 = cpu();
        long r0 = System.nanoTime();
        InMemoryCaseStore lexical = InMemoryCaseStore.create();
        List<IndexedCase> batch = new ArrayList<>();
        for (ChunkInput c : chunks) {
            batch.add(IndexedCase.of(c));
        }
        lexical.upsert(batch);
        long r1 = System.nanoTime();
        System.out.printf(Locale.ROOT, "of which BM25 rebuild alone (upsert %,d chunks without vectors): %.2f s wall, "
                + "%.2f s cpu%n", chunks.size(), (r1 - r0) / 1e9, (cpu() - c0) / 1e9);
    }

    private static String randomIdentifier(Random random) {
        String[] parts = {"get", "set", "string", "array", "utils", "builder", "to", "from", "parse", "format", "date",
            "time", "number", "char", "sequence", "map", "list", "value", "index", "of", "is", "empty", "blank", "trim",
            "http", "server", "config", "reflect", "field", "method", "class", "lock", "event", "listener", "hash"};
        StringBuilder sb = new StringBuilder(parts[random.nextInt(parts.length)]);
        for (int i = 0, n = random.nextInt(3); i < n; i++) {
            String p = parts[random.nextInt(parts.length)];
            sb.append(Character.toUpperCase(p.charAt(0))).append(p.substring(1));
        }
        return sb.toString();
    }

    private static long cpu() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    // ------------------------------------------------------------------ latency

    static void latency(Path datasetDir, String embedderSpec, Path indexDir) throws Exception {
        EvalDataset dataset = BeirDataset.load(datasetDir);
        List<ChunkInput> chunks = new ArrayList<>();
        for (EvalDocument d : dataset.documents()) {
            chunks.add(d.toChunkInput());
        }
        Embedder embedder = embedderSpec.equals("random") ? new RandomEmbedder(384) : (Embedder) factory(embedderSpec);
        System.out.printf(Locale.ROOT, "latency benchmark: %s, %,d chunks, %,d queries, embedder %s%n",
                dataset.name(), chunks.size(), dataset.queries().size(), embedder.modelId());
        IndexFingerprint expected = InMemoryCaseStore.builder().fingerprint().withDense(embedder);
        InMemoryCaseStore store;
        if (indexDir != null && InMemoryCaseStore.exists(indexDir)) {
            long t0 = System.nanoTime();
            store = InMemoryCaseStore.load(indexDir, expected);
            long t1 = System.nanoTime();
            System.out.printf(Locale.ROOT, "loaded the saved index from %s in %.2f s instead of re-embedding%n", indexDir,
                    (t1 - t0) / 1e9);
        } else {
            store = InMemoryCaseStore.create();
            long t0 = System.nanoTime();
            HybridCaseRetriever.builder(store).embedder(embedder).build().index(chunks);
            long t1 = System.nanoTime();
            System.out.printf(Locale.ROOT, "index: %.1f s (%.0f chunks/s, with the embedder)%n", (t1 - t0) / 1e9,
                    chunks.size() / ((t1 - t0) / 1e9));
            if (indexDir != null) {
                long s0 = System.nanoTime();
                store.save(indexDir, expected);
                System.out.printf(Locale.ROOT, "saved to %s in %.2f s%n", indexDir, (System.nanoTime() - s0) / 1e9);
            }
        }
        HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).embedder(embedder).build();
        List<EvalQuery> queries = dataset.queries();
        for (Set<Leg> legs : List.of(EnumSet.of(Leg.BM25), EnumSet.of(Leg.DENSE), EnumSet.of(Leg.BM25, Leg.DENSE))) {
            // warm-up pass, then a measured pass
            run(retriever, queries, legs);
            long[][] t = run(retriever, queries, legs);
            System.out.printf(Locale.ROOT, "legs %-12s store search p50 %6.2f ms p95 %6.2f ms | end to end (incl. query "
                            + "encoding) p50 %6.2f ms p95 %6.2f ms%n", legs.toString(), pct(t[0], 50), pct(t[0], 95),
                    pct(t[1], 50), pct(t[1], 95));
        }
        if (embedder instanceof AutoCloseable) {
            ((AutoCloseable) embedder).close();
        }
    }

    private static long[][] run(HybridCaseRetriever retriever, List<EvalQuery> queries, Set<Leg> legs) {
        long[] store = new long[queries.size()];
        long[] total = new long[queries.size()];
        for (int i = 0; i < queries.size(); i++) {
            SearchResponse r = retriever.search(SearchRequest.builder(queries.get(i).text()).limit(10).legs(legs)
                    .adaptive(false).build());
            store[i] = r.timings().store().toNanos();
            total[i] = r.timings().total().toNanos();
        }
        return new long[][] {store, total};
    }

    private static double pct(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, idx)] / 1e6;
    }

    private static Object factory(String spec) throws Exception {
        String[] parts = spec.split("#");
        return Class.forName(parts[0]).getMethod(parts[1]).invoke(null);
    }

    /** Random unit-free vectors, deterministic per text: for latency only. */
    static final class RandomEmbedder implements Embedder {
        private final int dimension;

        RandomEmbedder(int dimension) {
            this.dimension = dimension;
        }

        @Override
        public int dimension() {
            return dimension;
        }

        @Override
        public String modelId() {
            return "random-" + dimension;
        }

        @Override
        public List<float[]> embed(List<String> texts, TextRole role) {
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                Random r = new Random(t.hashCode());
                float[] v = new float[dimension];
                for (int i = 0; i < dimension; i++) {
                    v[i] = (float) r.nextGaussian();
                }
                out.add(v);
            }
            return out;
        }
    }
}
