package dev.neuraltext.cli.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.neuraltext.retrieve.RelatedCode;
import dev.neuraltext.retrieve.Relation;
import dev.neuraltext.retrieve.RelatedRequest;
import dev.neuraltext.retrieve.RelatedResult;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Entry point of {@code neural-text eval --related}: the {@code find_related} evaluation. For each repository of a
 * roots file it builds the keyword index ({@code neural-text index} defaults, no dense model: {@code RelatedCode}
 * reads names and BM25 postings only), generates the queries ({@link RelatedDataset}: a definition and the other files
 * that name it), asks {@link RelatedCode} for the definition's symbol, and compares its files with the grep baselines.
 *
 * <p>Metrics, per query, averaged over the queries (each repository weighs by its query count):
 * <ul>
 *   <li><b>Acc@k</b>: whether at least one referencing file is among the first k files;</li>
 *   <li><b>R@5</b>: the share of the referencing files among the first 5 (at most 5 / |referencing|);</li>
 *   <li><b>P@5</b>: the share of the first 5 files (as many as there are, at most 5) that reference it.</li>
 * </ul>
 * Writes {@code related.md}, {@code related.json} (every query with each system's files) and
 * {@code related-queries.jsonl} (the generated set) to the report folder.
 */
public final class RelatedMain {

    /** Files compared per query. */
    static final int DEPTH = 10;

    /**
     * The systems: {@code related} (every relation, as the tool answers by default), {@code related names-it} (the
     * relations whose files name the definition: used-by, test, doc), and the two greps of {@link RelatedDataset}.
     */
    private static final List<String> SYSTEMS = List.of("related", "related names-it", "grep -F", "grep -w");
    private static final Set<Relation> NAMES_IT = Set.of(Relation.USED_BY, Relation.TEST, Relation.DOC);

    private RelatedMain() {
    }

    /**
     * Runs the evaluation and returns the exit code (0).
     *
     * @param roots         {@code name<TAB>language<TAB>folder-to-index} per repository
     * @param only          repository names to run (empty: all)
     * @param perRepository definitions sampled per repository
     * @param seed          the sampling seed
     * @param out           report folder, or null for stdout only
     * @throws IllegalArgumentException naming the option and value of bad input
     */
    public static int run(Path roots, List<String> only, int perRepository, long seed, Path out, PrintStream stdout,
            PrintStream stderr) {
        if (perRepository < 1) {
            throw new IllegalArgumentException("--related-per-repo must be >= 1, got " + perRepository);
        }
        long t0 = System.nanoTime();
        List<Map<String, Object>> rows = new ArrayList<>();
        List<RelatedDataset.Query> all = new ArrayList<>();
        Map<String, Map<String, double[]>> byRepo = new LinkedHashMap<>();
        for (SembleDataset.Repository repo : SembleDataset.repositories(roots, only, "--related")) {
            stderr.println("related: indexing " + repo.name() + " " + repo.folder());
            SembleHarness.Indexed ix = SembleHarness.index(repo, null, RepositoryRanking.off());
            Map<String, String> texts = RelatedDataset.texts(repo.folder(), ix.chunks());
            List<RelatedDataset.Query> queries = RelatedDataset.generate(repo.name(), texts, ix.chunks(),
                    perRepository, seed);
            stderr.printf(Locale.ROOT, "related: %s: %d files, %d chunks, %d queries%n", repo.name(), ix.files(),
                    ix.chunks().size(), queries.size());
            RelatedCode related = RelatedCode.over((InMemoryCaseStore) ix.retriever().store());
            Map<String, double[]> sums = new LinkedHashMap<>();
            for (RelatedDataset.Query q : queries) {
                long s = System.nanoTime();
                RelatedResult r = related.find(new RelatedRequest(q.path(), 0, q.symbol(), DEPTH));
                double millis = (System.nanoTime() - s) / 1e6;
                Map<String, List<String>> files = new LinkedHashMap<>();
                files.put("related", r.files());
                files.put("related names-it", related.find(new RelatedRequest(q.path(), 0, q.symbol(), DEPTH,
                        NAMES_IT)).files());
                files.put("grep -F", RelatedDataset.grep(texts, q, false));
                files.put("grep -w", RelatedDataset.grep(texts, q, true));
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("repository", q.repository());
                row.put("path", q.path());
                row.put("symbol", q.symbol());
                row.put("referencing", q.referencing().size());
                row.put("millis", Math.round(millis * 10) / 10.0);
                Map<String, Object> bySystem = new LinkedHashMap<>();
                for (String system : SYSTEMS) {
                    List<String> top = files.get(system);
                    double[] m = metrics(top, q.referencing());
                    double[] acc = sums.computeIfAbsent(system, k -> new double[5]);
                    for (int i = 0; i < m.length; i++) {
                        acc[i] += m[i];
                    }
                    acc[4]++;
                    bySystem.put(system, Map.of("acc1", m[0], "acc5", m[1], "recall5", m[2], "precision5", m[3],
                            "files", top.subList(0, Math.min(DEPTH, top.size()))));
                }
                row.put("systems", bySystem);
                rows.add(row);
            }
            byRepo.put(repo.name(), sums);
            all.addAll(queries);
        }
        String md = markdown(byRepo, perRepository, seed);
        stdout.print(md);
        if (out != null) {
            write(out, md, rows, all, roots, perRepository, seed, (System.nanoTime() - t0) / 1e9);
            stderr.println("wrote " + out.resolve("related.md"));
        }
        return 0;
    }

    /** Acc@1, Acc@5, R@5, P@5 of a ranked file list against the referencing files. */
    static double[] metrics(List<String> ranked, List<String> referencing) {
        Set<String> gold = new HashSet<>(referencing);
        int hits5 = 0;
        List<String> top5 = ranked.subList(0, Math.min(5, ranked.size()));
        for (String f : top5) {
            if (gold.contains(f)) {
                hits5++;
            }
        }
        double acc1 = !ranked.isEmpty() && gold.contains(ranked.get(0)) ? 1 : 0;
        return new double[] {acc1, hits5 > 0 ? 1 : 0, gold.isEmpty() ? 0 : (double) hits5 / gold.size(),
            top5.isEmpty() ? 0 : (double) hits5 / top5.size()};
    }

    private static String markdown(Map<String, Map<String, double[]>> byRepo, int perRepository, long seed) {
        StringBuilder b = new StringBuilder();
        b.append("# find_related: a definition's referencing files\n\n");
        b.append(String.format(Locale.ROOT, "Up to %d definitions per repository (seed %d); gold: the other indexed "
                + "files naming the definition as a whole identifier. `related` answers with every relation (its "
                + "top files include the definitions the target uses, which are not gold); `related names-it` with "
                + "used-by, test and doc only. `grep -w` is the gold rule itself (the ceiling); `grep -F` is what an "
                + "assistant runs (substrings too), files in path order.%n%n", perRepository, seed));
        Map<String, double[]> total = new LinkedHashMap<>();
        byRepo.values().forEach(sums -> sums.forEach((system, m) -> {
            double[] t = total.computeIfAbsent(system, k -> new double[5]);
            for (int i = 0; i < 5; i++) {
                t[i] += m[i];
            }
        }));
        b.append("| system | queries | Acc@1 | Acc@5 | R@5 | P@5 |\n|---|---:|---:|---:|---:|---:|\n");
        for (String s : SYSTEMS) {
            double[] m = total.getOrDefault(s, new double[5]);
            b.append("| ").append(s).append(" | ").append((int) m[4]).append(" |");
            appendMeans(b, m, 0, 4);
            b.append('\n');
        }
        b.append("\nPer repository, Acc@5 / R@5:\n\n| repository | queries |");
        SYSTEMS.forEach(s -> b.append(' ').append(s).append(" |"));
        b.append("\n|---|---:|").append("---:|".repeat(SYSTEMS.size())).append('\n');
        byRepo.forEach((repo, sums) -> {
            b.append("| ").append(repo).append(" | ").append(sums.isEmpty() ? 0 : (int) sums.get("related")[4])
                    .append(" |");
            for (String s : SYSTEMS) {
                double[] m = sums.getOrDefault(s, new double[5]);
                double n = Math.max(1, m[4]);
                b.append(m[4] == 0 ? " — |" : String.format(Locale.ROOT, " %.2f / %.2f |", m[1] / n, m[2] / n));
            }
            b.append('\n');
        });
        return b.toString();
    }

    private static void appendMeans(StringBuilder b, double[] m, int from, int to) {
        double n = Math.max(1, m[4]);
        for (int i = from; i < to; i++) {
            b.append(String.format(Locale.ROOT, " %.3f |", m[i] / n));
        }
    }

    private static void write(Path out, String md, List<Map<String, Object>> rows, List<RelatedDataset.Query> queries,
            Path roots, int perRepository, long seed, double seconds) {
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("related.md"), md, StandardCharsets.UTF_8);
            ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("roots", roots.toString());
            run.put("perRepository", perRepository);
            run.put("seed", seed);
            run.put("seconds", seconds);
            run.put("finished", Instant.now().toString());
            run.put("git", GitInfo.commit());
            run.put("queries", rows);
            json.writeValue(out.resolve("related.json").toFile(), run);
            StringBuilder lines = new StringBuilder();
            ObjectMapper compact = new ObjectMapper();
            for (RelatedDataset.Query q : queries) {
                lines.append(compact.writeValueAsString(q)).append('\n');
            }
            Files.writeString(out.resolve("related-queries.jsonl"), lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + out, e);
        }
    }
}
