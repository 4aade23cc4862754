package dev.neuraltext.cli.eval;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of {@code neural-text eval --swebench}: issue-to-file localization ({@link SwebenchDataset}) run by
 * {@link SwebenchHarness}, reported by {@link SwebenchReport} (Markdown on stdout; {@code swebench.md} and {@code
 * swebench.json} in the report folder).
 */
public final class SwebenchMain {

    private SwebenchMain() {
    }

    /**
     * Runs the benchmark and returns the exit code (0).
     *
     * @param instances the instances file (JSON lines)
     * @param mirrors   the folder holding one git mirror per repository ({@code <owner>+<name>/repo})
     * @param work      where the work trees are checked out (one per repository, reused across runs)
     * @param only      repositories to run (empty: all)
     * @param model     dense model preset, or null for BM25 only
     * @param cacheDir  document embedding cache folder, or null (memory only)
     * @param grep      whether to run the grep peer
     * @param out       report folder, or null for stdout only
     * @throws IllegalArgumentException naming the option and value of bad input
     */
    public static int run(Path instances, Path mirrors, Path work, List<String> only, String model, Path cacheDir,
            boolean grep, Path out, PrintStream stdout, PrintStream stderr) {
        SwebenchDataset dataset = SwebenchDataset.load(instances, only);
        long t0 = System.nanoTime();
        List<SwebenchHarness.RepositoryResult> results = new SwebenchHarness(
                new SwebenchHarness.Settings(model, cacheDir, grep, mirrors, work), stderr).run(dataset);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("instances", instances.toString());
        run.put("mirrors", mirrors.toString());
        run.put("model", model == null ? "none (BM25 only)" : model);
        run.put("finished", Instant.now().toString());
        run.put("seconds", (System.nanoTime() - t0) / 1e9);
        run.put("git", GitInfo.commit());
        SwebenchReport report = new SwebenchReport(results, run);
        stdout.print(report.markdown());
        if (out != null) {
            stderr.println("wrote " + report.writeAll(out));
        }
        return 0;
    }
}
