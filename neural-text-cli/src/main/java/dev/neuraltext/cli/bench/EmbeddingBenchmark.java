package dev.neuraltext.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15.BgeSmallEnV15EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2.E5SmallV2EmbeddingModel;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.onnx.EmbeddingPreset;
import dev.neuraltext.onnx.LongInputPolicy;
import dev.neuraltext.onnx.OnnxEmbedder;
import dev.neuraltext.onnx.StaticEmbedder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Embedding throughput of {@link OnnxEmbedder} (a preset, all-MiniLM-L6-v2 by default) next to LangChain4j's in-process
 * embedding model class (of the same preset by default, or of another with {@code --theirs}) in the same run, on the
 * texts of a BEIR corpus ({@code title + "\n" + text}, with the preset's document prefix given to both).
 *
 * <p>{@code --preset all-minilm-l6-v2-q --theirs all-minilm-l6-v2 --max-length 128} compares our int8 model with
 * LangChain4j's default fp32 one at equal input (LangChain4j's MiniLM tokenizer cuts at 128 tokens).
 *
 * <p>{@code --static} adds the bundled {@link StaticEmbedder} on the same texts, interleaved with the others, and its
 * ratio to ours ({@code --preset bge-small-en-v1.5-q --only ours --static}: the static model against its teacher).
 *
 * <p>Reports documents/s for each, their ratio, the effective input length (word pieces each implementation feeds
 * the model: LangChain4j's tokenizer file cuts at 128 tokens), peak Java heap and process RSS. Run with
 * {@code --help} for the options. Not a unit test: it takes about a minute on 2 cores.
 */
public final class EmbeddingBenchmark {

    /** LangChain4j's tokenizer file truncates at 128 tokens, [CLS] and [SEP] included. */
    private static final int LANGCHAIN4J_CONTENT_TOKENS = 126;

    private EmbeddingBenchmark() {
    }

    public static void main(String[] args) {
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs the benchmark; returns the process exit code (0 ok, 2 usage error, 1 failure). */
    public static int run(String... args) {
        PrintStream out = System.out;
        Path corpus = null;
        EmbeddingPreset preset = EmbeddingPreset.ALL_MINILM_L6_V2;
        EmbeddingPreset theirsPreset = null;
        int limit = Integer.MAX_VALUE;
        int callSize = 512;
        int batchSize = 0;
        int threads = 0;
        int parallelism = 0;
        int maxLength = 0;
        boolean spin = false;
        boolean withStatic = false;
        String only = "both";
        LongInputPolicy policy = null;
        int warmup = 64;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--corpus" -> corpus = Path.of(args[++i]);
                    case "--preset" -> preset = EmbeddingPreset.byId(args[++i]);
                    case "--theirs" -> theirsPreset = EmbeddingPreset.byId(args[++i]);
                    case "--limit" -> limit = Integer.parseInt(args[++i]);
                    case "--call-size" -> callSize = Integer.parseInt(args[++i]);
                    case "--batch-size" -> batchSize = Integer.parseInt(args[++i]);
                    case "--threads" -> threads = Integer.parseInt(args[++i]);
                    case "--parallelism" -> parallelism = Integer.parseInt(args[++i]);
                    case "--max-length" -> maxLength = Integer.parseInt(args[++i]);
                    case "--spin" -> spin = true;
                    case "--static" -> withStatic = true;
                    case "--only" -> only = args[++i];
                    case "--policy" -> policy = LongInputPolicy.valueOf(args[++i].toUpperCase(Locale.ROOT));
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--help", "-h" -> {
                        usage(out);
                        return 0;
                    }
                    default -> {
                        System.err.println("unknown option: " + a);
                        usage(System.err);
                        return 2;
                    }
                }
            }
            if (!only.equals("both") && !only.equals("ours") && !only.equals("langchain4j")) {
                throw new IllegalArgumentException("--only must be both, ours or langchain4j, got " + only);
            }
            if (corpus == null) {
                throw new IllegalArgumentException("--corpus is required: a BEIR corpus.jsonl");
            }
            if (theirsPreset == null) {
                theirsPreset = preset;
            }
        } catch (RuntimeException e) {
            System.err.println("bad arguments: " + e.getMessage());
            usage(System.err);
            return 2;
        }
        if (!java.nio.file.Files.isRegularFile(corpus)) {
            System.err.println("no corpus file " + corpus.toAbsolutePath() + ": pass --corpus <corpus.jsonl>");
            return 2;
        }
        try {
            List<String> texts = readCorpus(corpus, limit);
            List<String> prefixed = new ArrayList<>(texts.size());
            for (String t : texts) {
                prefixed.add(preset.documentPrefix() + t);
            }
            out.printf(Locale.ROOT, "corpus %s: %d documents (title + \"\\n\" + text), %d cores, call size %d%n",
                    corpus, texts.size(), Runtime.getRuntime().availableProcessors(), callSize);
            out.printf(Locale.ROOT, "rss before loading: %s%n", rss());
            boolean runOurs = !only.equals("langchain4j");
            boolean runTheirs = !only.equals("ours");
            OnnxEmbedder ours = null;
            EmbeddingModel theirs = null;
            StaticEmbedder statik = null;
            try {
                if (withStatic) {
                    statik = StaticEmbedder.bundled();
                    out.printf(Locale.ROOT, "static: %s, rss after loading: %s%n", statik, rss());
                }
                if (runOurs) {
                    OnnxEmbedder.Builder builder = OnnxEmbedder.presetBuilder(preset).spinWait(spin);
                    if (batchSize > 0) {
                        builder.batchSize(batchSize);
                    }
                    if (parallelism > 0) {
                        builder.parallelism(parallelism);
                    }
                    if (maxLength > 0) {
                        builder.maxSequenceLength(maxLength);
                    }
                    if (threads > 0) {
                        builder.intraOpThreads(threads);
                    }
                    if (policy != null) {
                        builder.longInputPolicy(policy);
                    }
                    ours = builder.build();
                    out.printf(Locale.ROOT, "ours: %s, rss after loading: %s%n", ours, rss());
                }
                if (runTheirs) {
                    theirs = langChain4jModel(theirsPreset);
                    out.printf(Locale.ROOT, "langchain4j: %s, rss after loading: %s%n",
                            theirs.getClass().getSimpleName(), rss());
                }
                if (ours != null) {
                    long all = 0;
                    long seen = 0;
                    long theirsSeen = 0;
                    int window = ours.maxSequenceLength() - 2;
                    for (String t : texts) {
                        int n = ours.countTokens(t, TextRole.DOCUMENT);
                        all += n;
                        seen += ours.longInputPolicy() == LongInputPolicy.WINDOWS ? n : Math.min(n, window);
                        theirsSeen += Math.min(n, LANGCHAIN4J_CONTENT_TOKENS);
                    }
                    out.printf(Locale.ROOT, "word pieces in the texts: %.1f/doc; seen by ours (%s): %.1f/doc (%.1f%%);"
                            + " seen by langchain4j (cut at 128 tokens): %.1f/doc (%.1f%%)%n",
                            (double) all / texts.size(), ours.modelId(), (double) seen / texts.size(),
                            100.0 * seen / all, (double) theirsSeen / texts.size(), 100.0 * theirsSeen / all);
                }
                List<TextSegment> segments = new ArrayList<>(texts.size());
                for (String t : prefixed) {
                    segments.add(TextSegment.from(t));
                }
                int w = Math.min(warmup, texts.size());
                if (ours != null) {
                    ours.embed(texts.subList(0, w), TextRole.DOCUMENT);
                }
                if (theirs != null) {
                    theirs.embedAll(segments.subList(0, w));
                }
                if (statik != null) {
                    statik.embed(texts.subList(0, w), TextRole.DOCUMENT);
                }
                resetPeakHeap();
                // Interleaved: each slice is embedded by both, alternating who goes first, so that the load of a
                // shared machine falls on both alike.
                long[] wall = new long[3];
                long[] cpu = new long[3];
                int slice = 0;
                for (int from = 0; from < texts.size(); from += callSize, slice++) {
                    int to = Math.min(texts.size(), from + callSize);
                    for (int k = 0; k < 3; k++) {
                        int who = (slice + k) % 3;
                        long c0 = processCpuNanos();
                        long t0 = System.nanoTime();
                        if (who == 0 && ours != null) {
                            ours.embed(texts.subList(from, to), TextRole.DOCUMENT);
                        } else if (who == 1 && theirs != null) {
                            theirs.embedAll(segments.subList(from, to));
                        } else if (who == 2 && statik != null) {
                            statik.embed(texts.subList(from, to), TextRole.DOCUMENT);
                        }
                        wall[who] += System.nanoTime() - t0;
                        cpu[who] += processCpuNanos() - c0;
                    }
                }
                double oursRate = 0;
                double theirsRate = 0;
                if (ours != null) {
                    oursRate = texts.size() / (wall[0] / 1e9);
                    out.printf(Locale.ROOT, "ours:        %.1f s, %.1f documents/s, %.1f documents/cpu-s%n",
                            wall[0] / 1e9, oursRate, texts.size() / (cpu[0] / 1e9));
                }
                if (theirs != null) {
                    theirsRate = texts.size() / (wall[1] / 1e9);
                    out.printf(Locale.ROOT, "langchain4j: %.1f s, %.1f documents/s, %.1f documents/cpu-s%n",
                            wall[1] / 1e9, theirsRate, texts.size() / (cpu[1] / 1e9));
                }
                double staticRate = 0;
                if (statik != null) {
                    staticRate = texts.size() / (wall[2] / 1e9);
                    out.printf(Locale.ROOT, "static:      %.1f s, %.1f documents/s, %.1f documents/cpu-s%n",
                            wall[2] / 1e9, staticRate, texts.size() / (cpu[2] / 1e9));
                }
                out.printf(Locale.ROOT, "peak heap while embedding %s, %s%n", mb(peakHeap()), rss());
                if (staticRate > 0 && oursRate > 0) {
                    out.printf(Locale.ROOT, "ratio static / ours (%s): %.1fx documents/s, %.1fx documents/cpu-s%n",
                            preset.id(), staticRate / oursRate, (double) cpu[0] / cpu[2]);
                }
                if (oursRate > 0 && theirsRate > 0) {
                    out.printf(Locale.ROOT, "ratio ours / langchain4j: %.2fx documents/s, %.2fx documents/cpu-s%n",
                            oursRate / theirsRate, (double) cpu[1] / cpu[0]);
                }
            } finally {
                if (ours != null) {
                    ours.close();
                }
                if (statik != null) {
                    statik.close();
                }
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            System.err.println("benchmark failed: " + e);
            e.printStackTrace(System.err);
            return 1;
        }
    }

    /** LangChain4j's own in-process model class for {@code preset}'s model file. */
    static EmbeddingModel langChain4jModel(EmbeddingPreset preset) {
        return switch (preset) {
            case ALL_MINILM_L6_V2 -> new AllMiniLmL6V2EmbeddingModel();
            case ALL_MINILM_L6_V2_Q -> new AllMiniLmL6V2QuantizedEmbeddingModel();
            case BGE_SMALL_EN_V15 -> new BgeSmallEnV15EmbeddingModel();
            case BGE_SMALL_EN_V15_Q -> new BgeSmallEnV15QuantizedEmbeddingModel();
            case E5_SMALL_V2 -> new E5SmallV2EmbeddingModel();
        };
    }

    private static void usage(PrintStream s) {
        s.println("usage: EmbeddingBenchmark --corpus corpus.jsonl [--limit N] [--call-size 512] [--warmup 64]");
        s.println("         [--preset " + String.join("|", EmbeddingPreset.ids()) + "] (ours; default "
                + EmbeddingPreset.ALL_MINILM_L6_V2.id() + ")");
        s.println("         [--theirs <preset>] (LangChain4j's class for that model file; default: the same as --preset)");
        s.println("         [--only both|ours|langchain4j] [--policy truncate|windows] [--static (also the bundled"
                + " static model)]");
        s.println("         OnnxEmbedder settings (default: the preset's): [--max-length 256] [--batch-size N]"
                + " [--parallelism N] [--threads N (intra-op)] [--spin]");
    }

    static List<String> readCorpus(Path corpus, int limit) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<String> texts = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null && texts.size() < limit) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode doc = mapper.readTree(line);
                texts.add(doc.path("title").asText("") + "\n" + doc.path("text").asText(""));
            }
        }
        return texts;
    }

    /** CPU time of the whole process (all Java and native threads), or -1 if the JVM cannot tell. */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    private static void resetPeakHeap() {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** Sum of the heap pools' peaks since the last reset (an upper bound of the peak heap in use). */
    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /** Current and peak resident set size of the process, from /proc (Linux), or "rss n/a". */
    private static String rss() {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return "rss n/a";
        }
        try {
            String rss = "?";
            String hwm = "?";
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmRSS:")) {
                    rss = line.substring(6).trim();
                } else if (line.startsWith("VmHWM:")) {
                    hwm = line.substring(6).trim();
                }
            }
            return "rss " + rss + " (peak " + hwm + ")";
        } catch (IOException e) {
            return "rss n/a (" + e.getMessage() + ")";
        }
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1048576.0);
    }
}
