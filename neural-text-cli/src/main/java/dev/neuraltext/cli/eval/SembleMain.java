package dev.neuraltext.cli.eval;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of {@code neural-text eval --semble}: the semble-dev benchmark ({@link SembleDataset}) run by
 * {@link SembleHarness}, reported by {@link SembleReport} (Markdown on stdout; {@code semble.md}, {@code semble.json},
 * {@code semble.html} in the report folder).
 */
public final class SembleMain {

    private SembleMain() {
    }

    /**
     * Runs the benchmark and returns the exit code (0).
     *
     * @param roots       {@code name<TAB>language<TAB>folder-to-index} per repository
     * @param annotations folder of {@code <name>.json} question files
     * @param published   the peer's {@code published.tsv} (null: the annotations folder's parent's, when present)
     * @param only        repository names to run (empty: all)
     * @param model       dense model preset, or null for BM25 only
     * @param cacheDir    document embedding cache folder, or null (memory only)
     * @param grep        whether to run the grep peer
     * @param latencyRepeats how many times each question is timed per system (its median kept; at least 1)
     * @param out         report folder, or null for stdout only
     * @throws IllegalArgumentException naming the option and value of bad input
     */
    public static int run(Path roots, Path annotations, Path published, List<String> only, String model,
            Path cacheDir, boolean grep, int latencyRepeats, Path out, PrintStream stdout, PrintStream stderr) {
        Path pub = published != null ? published
                : annotations.toAbsolutePath().normalize().getParent() == null ? null
                : annotations.toAbsolutePath().normalize().getParent().resolve("published.tsv");
        SembleDataset dataset = SembleDataset.load(roots, annotations, pub, only);
        SembleHarness.Settings settings = new SembleHarness.Settings(model, cacheDir, grep, latencyRepeats);
        long t0 = System.nanoTime();
        List<SembleHarness.RepositoryResult> results = new SembleHarness(settings, stderr).run(dataset);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("roots", roots.toString());
        run.put("annotations", annotations.toString());
        run.put("model", model == null ? "none (BM25 only)" : model);
        run.put("finished", Instant.now().toString());
        run.put("seconds", (System.nanoTime() - t0) / 1e9);
        run.put("git", GitInfo.commit());
        SembleReport report = new SembleReport(results, dataset.published(), run);
        stdout.print(report.markdown());
        if (out != null) {
            stderr.println("wrote " + report.writeAll(out));
        }
        return 0;
    }
}
