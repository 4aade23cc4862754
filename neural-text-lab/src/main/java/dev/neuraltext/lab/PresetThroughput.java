package dev.neuraltext.lab;

import dev.neuraltext.cli.eval.IndexedChunk;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.eval.BeirDataset;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.onnx.EmbeddingPreset;
import dev.neuraltext.onnx.OnnxEmbedder;
import dev.neuraltext.retrieve.DenseText;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Document embedding throughput of every {@link EmbeddingPreset} x {@link DenseText} variant, side by side in one run
 * ({@code LabMain presets}; it was {@code neural-text bench presets}): the documents of a BEIR dataset (as the eval indexes them) are embedded in
 * slices, every configuration embedding each slice in turn (the order rotating per slice), so that the load of a
 * shared machine falls on all alike. Reports documents/s (wall), documents per CPU-second, and the ratio to the first
 * configuration. Not a unit test.
 */
public final class PresetThroughput {

    private PresetThroughput() {
    }

    /** Runs the benchmark; returns the process exit code (0 ok, 2 usage error). */
    public static int run(String... args) {
        PrintStream out = System.out;
        Path dataset = null;
        int limit = 400;
        int slice = 50;
        List<String> models = EmbeddingPreset.ids();
        List<DenseText> variants = List.of(DenseText.CHUNK_TEXT);
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--dataset" -> dataset = Path.of(args[++i]);
                    case "--limit" -> limit = Integer.parseInt(args[++i]);
                    case "--slice" -> slice = Integer.parseInt(args[++i]);
                    case "--models" -> models = List.of(args[++i].split(","));
                    case "--dense-text" -> variants = List.of(args[++i].split(",")).stream().map(DenseText::byId)
                            .toList();
                    default -> throw new IllegalArgumentException("unknown option: " + args[i]
                            + " (options: --dataset DIR (required) --limit N --slice N --models a,b --dense-text chunk,header)");
                }
            }
            if (dataset == null) {
                throw new IllegalArgumentException("--dataset is required: a BEIR folder (corpus.jsonl, ...)");
            }
            models.forEach(EmbeddingPreset::byId);
        } catch (RuntimeException e) {
            System.err.println("bad arguments: " + e.getMessage());
            return 2;
        }
        EvalDataset data = BeirDataset.load(dataset);
        List<EvalDocument> docs = data.documents().subList(0, Math.min(limit, data.documents().size()));
        List<String> names = new ArrayList<>();
        List<OnnxEmbedder> embedders = new ArrayList<>();
        List<List<String>> texts = new ArrayList<>();
        try {
            for (String m : models) {
                OnnxEmbedder e = OnnxEmbedder.preset(EmbeddingPreset.byId(m));
                embedders.add(e);
                for (DenseText v : variants) {
                    names.add(m + " / " + v.id());
                    List<String> t = new ArrayList<>();
                    docs.forEach(d -> t.add(v.apply(IndexedChunk.of(d))));
                    texts.add(t);
                }
            }
            int n = names.size();
            long[] wall = new long[n];
            long[] cpu = new long[n];
            for (int c = 0; c < n; c++) { // warm-up
                embedders.get(c / variants.size()).embed(texts.get(c).subList(0, Math.min(16, docs.size())),
                        TextRole.DOCUMENT);
            }
            int round = 0;
            for (int from = 0; from < docs.size(); from += slice, round++) {
                int to = Math.min(docs.size(), from + slice);
                for (int j = 0; j < n; j++) {
                    int c = (round + j) % n;
                    long c0 = cpuNanos();
                    long t0 = System.nanoTime();
                    embedders.get(c / variants.size()).embed(texts.get(c).subList(from, to), TextRole.DOCUMENT);
                    wall[c] += System.nanoTime() - t0;
                    cpu[c] += cpuNanos() - c0;
                }
            }
            out.printf(Locale.ROOT, "%s: %d documents, %d cores, slices of %d%n%n", data.name(), docs.size(),
                    Runtime.getRuntime().availableProcessors(), slice);
            out.println("| preset / dense text | documents/s | documents/cpu-s | ratio (documents/cpu-s) |");
            out.println("|---|---:|---:|---:|");
            for (int c = 0; c < n; c++) {
                double perCpu = docs.size() / (cpu[c] / 1e9);
                double first = docs.size() / (cpu[0] / 1e9);
                out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |%n", names.get(c), docs.size() / (wall[c] / 1e9),
                        perCpu, perCpu / first);
            }
            return 0;
        } finally {
            embedders.forEach(OnnxEmbedder::close);
        }
    }

    private static long cpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
