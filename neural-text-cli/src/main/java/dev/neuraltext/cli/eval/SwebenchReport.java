package dev.neuraltext.cli.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.neuraltext.NonRetriableNeuralTextException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The localization figures: per system, Acc@1, Acc@5, Acc@10 (the share of instances whose gold file is among the first
 * k files) and MRR@10, per repository and over all instances (SWE-bench's convention: every instance counts once);
 * beside them the refresh time between base commits (median, worst), the first index time, and the default search's
 * query time (median, worst, and a {@value SwebenchHarness#LONG_QUERY_CHARS}-character issue). The same figures at
 * chunk level, over the instances with chunk gold (with the count of those without and why). Written as
 * {@code swebench.md} and {@code swebench.json} (every instance's answer included).
 */
final class SwebenchReport {

    static final int[] KS = {1, 5, 10};

    private final List<SwebenchHarness.RepositoryResult> results;
    private final Map<String, Object> run;

    SwebenchReport(List<SwebenchHarness.RepositoryResult> results, Map<String, Object> run) {
        this.results = results;
        this.run = run;
    }

    /** Acc@k, MRR@10 and the instance count of {@code system} over {@code instances}. */
    record Figures(double[] acc, double mrr, int n) {
    }

    static Figures figures(List<SwebenchHarness.InstanceResult> instances, String system) {
        return figures(instances, system, SwebenchHarness.InstanceResult::bySystem);
    }

    /** The chunk-level figures of {@code system}: over the instances that have chunk gold only. */
    static Figures chunkFigures(List<SwebenchHarness.InstanceResult> instances, String system) {
        return figures(instances, system, SwebenchHarness.InstanceResult::chunkBySystem);
    }

    private static Figures figures(List<SwebenchHarness.InstanceResult> instances, String system,
            Function<SwebenchHarness.InstanceResult, Map<String, SwebenchHarness.Answer>> answers) {
        double[] acc = new double[KS.length];
        double mrr = 0;
        int n = 0;
        for (SwebenchHarness.InstanceResult in : instances) {
            SwebenchHarness.Answer a = answers.apply(in).get(system);
            if (a == null) {
                continue;
            }
            n++;
            for (int k = 0; k < KS.length; k++) {
                acc[k] += a.rank() > 0 && a.rank() <= KS[k] ? 1 : 0;
            }
            mrr += a.rank() > 0 ? 1.0 / a.rank() : 0;
        }
        for (int k = 0; k < KS.length; k++) {
            acc[k] = n == 0 ? Double.NaN : 100 * acc[k] / n;
        }
        return new Figures(acc, n == 0 ? Double.NaN : mrr / n, n);
    }

    List<String> systems() {
        Set<String> s = new LinkedHashSet<>();
        for (SwebenchHarness.RepositoryResult r : results) {
            for (SwebenchHarness.InstanceResult in : r.instances()) {
                s.addAll(in.bySystem().keySet());
            }
        }
        return new ArrayList<>(s);
    }

    List<SwebenchHarness.InstanceResult> allInstances() {
        List<SwebenchHarness.InstanceResult> all = new ArrayList<>();
        for (SwebenchHarness.RepositoryResult r : results) {
            all.addAll(r.instances());
        }
        return all;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# Issue localization (SWE-bench protocol)\n\n");
        md.append("Model: ").append(run.getOrDefault("model", "?")).append("; commit ").append(run.getOrDefault("git", "?"))
                .append(". Files per answer: ").append(SwebenchHarness.FILES).append(".\n\n");
        appendTables(md, "\n## Per repository\n", SwebenchReport::figures);
        appendChunkLevel(md);
        md.append("\n## Index and query time (default search)\n\n| repository | files | chunks | first index s | "
                + "refresh s median | refresh s worst | query ms median | query ms worst | 10,000-char query ms |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Double> allRefresh = new ArrayList<>();
        List<Double> allQuery = new ArrayList<>();
        for (SwebenchHarness.RepositoryResult r : results) {
            List<Double> refresh = new ArrayList<>();
            List<Double> query = new ArrayList<>();
            for (int i = 0; i < r.instances().size(); i++) {
                SwebenchHarness.InstanceResult in = r.instances().get(i);
                if (i > 0) {
                    refresh.add(in.refreshSeconds());
                }
                query.add(in.bySystem().get(SwebenchHarness.DEFAULT).nanos() / 1e6);
            }
            allRefresh.addAll(refresh);
            allQuery.addAll(query);
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %s | %s | %s | %s | %.1f |%n", r.repo(),
                    r.files(), r.chunks(), r.firstIndexSeconds(), fmt(median(refresh), 2), fmt(max(refresh), 2),
                    fmt(median(query), 1), fmt(max(query), 1), r.longQueryNanos() / 1e6));
        }
        md.append(String.format(Locale.ROOT, "| all | | | | %s | %s | %s | %s | |%n", fmt(median(allRefresh), 2),
                fmt(max(allRefresh), 2), fmt(median(allQuery), 1), fmt(max(allQuery), 1)));
        return md.toString();
    }

    /** The chunk-level tables, and how many instances have no chunk gold and why. */
    private void appendChunkLevel(StringBuilder md) {
        List<SwebenchHarness.InstanceResult> all = allInstances();
        long noFix = all.stream().filter(in -> in.fix().commit() == null).count();
        long untouched = all.stream().filter(in -> in.fix().commit() != null && !in.fix().hasGold()).count();
        md.append("\n## Chunk level (search without --group-by file, ").append(SwebenchHarness.CHUNKS)
                .append(" chunks)\n\nA hit is relevant when it is a chunk of a gold file whose lines overlap a line "
                        + "the fix changed (old-side hunks of `git diff -U0 BASE FIX -- FILE`). Instances with chunk "
                        + "gold: ").append(all.size() - noFix - untouched).append(" of ").append(all.size())
                .append("; no fix commit found in the mirror: ").append(noFix)
                .append("; fix does not touch a gold file: ").append(untouched).append(".\n\n");
        appendTables(md, "", SwebenchReport::chunkFigures);
        List<TokenTable.Row> rows = tokenRows();
        if (!rows.isEmpty()) {
            md.append("\n## Tokens to the fix\n\nThe tokens (characters / 4) read up to and including the first "
                    + "piece that overlaps a line the fix changed: our chunk answer whole (chunks) and packed into "
                    + "2,000 tokens (packed); the grep peer's files listed, then read whole in its order (files). "
                    + "Instances with chunk gold.\n\n");
            TokenTable.overall(md, rows, Map.of());
            md.append("\nPer repository (median tokens / share within 2,000):\n\n");
            TokenTable.byGroup(md, rows, "repository", TokenTable.Row::category);
        }
    }

    /** Every instance's token counts, per system (the repository as the row's category and language). */
    List<TokenTable.Row> tokenRows() {
        List<TokenTable.Row> rows = new ArrayList<>();
        for (SwebenchHarness.RepositoryResult r : results) {
            for (SwebenchHarness.InstanceResult in : r.instances()) {
                in.tokens().forEach((system, t) -> rows.add(new TokenTable.Row(system, r.repo(), r.repo(), t)));
            }
        }
        return rows;
    }

    /** The overall table, then {@code heading} and the per-repository table, of the figures {@code figures} gives. */
    private void appendTables(StringBuilder md, String heading,
            BiFunction<List<SwebenchHarness.InstanceResult>, String, Figures> figures) {
        md.append("| system | instances | Acc@1 | Acc@5 | Acc@10 | MRR@10 |\n|---|---:|---:|---:|---:|---:|\n");
        for (String s : systems()) {
            row(md, s, figures.apply(allInstances(), s));
        }
        md.append(heading).append("\n| repository | system | instances | Acc@1 | Acc@5 | Acc@10 | MRR@10 |\n")
                .append("|---|---|---:|---:|---:|---:|---:|\n");
        for (SwebenchHarness.RepositoryResult r : results) {
            for (String s : systems()) {
                md.append("| ").append(r.repo()).append(' ');
                row(md, s, figures.apply(r.instances(), s));
            }
        }
    }

    private static void row(StringBuilder md, String system, Figures f) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s |%n", system, f.n(), fmt(f.acc()[0], 1),
                fmt(f.acc()[1], 1), fmt(f.acc()[2], 1), fmt(f.mrr(), 3)));
    }

    private static String fmt(double v, int places) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%." + places + "f", v);
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run);
        Map<String, Object> overall = new LinkedHashMap<>();
        for (String s : systems()) {
            overall.put(s, figuresJson(figures(allInstances(), s)));
        }
        root.put("overall", overall);
        Map<String, Object> chunkOverall = new LinkedHashMap<>();
        for (String s : systems()) {
            chunkOverall.put(s, figuresJson(chunkFigures(allInstances(), s)));
        }
        root.put("chunkOverall", chunkOverall);
        root.put("tokens", TokenTable.json(tokenRows()));
        List<Object> repos = new ArrayList<>();
        for (SwebenchHarness.RepositoryResult r : results) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("repo", r.repo());
            m.put("files", r.files());
            m.put("chunks", r.chunks());
            m.put("firstIndexSeconds", r.firstIndexSeconds());
            m.put("longQueryMillis", r.longQueryNanos() / 1e6);
            Map<String, Object> by = new LinkedHashMap<>();
            for (String s : systems()) {
                by.put(s, figuresJson(figures(r.instances(), s)));
            }
            m.put("systems", by);
            Map<String, Object> chunkBy = new LinkedHashMap<>();
            for (String s : systems()) {
                chunkBy.put(s, figuresJson(chunkFigures(r.instances(), s)));
            }
            m.put("chunkSystems", chunkBy);
            List<Object> instances = new ArrayList<>();
            for (SwebenchHarness.InstanceResult in : r.instances()) {
                Map<String, Object> i = new LinkedHashMap<>();
                i.put("id", in.id());
                i.put("gold", in.gold());
                i.put("issueChars", in.issueChars());
                i.put("refreshSeconds", in.refreshSeconds());
                i.put("changedFiles", in.changedFiles());
                Map<String, Object> answers = new LinkedHashMap<>();
                in.bySystem().forEach((s, a) -> answers.put(s, Map.of("rank", a.rank(), "files", a.files(),
                        "millis", a.nanos() / 1e6)));
                i.put("answers", answers);
                i.put("fixCommit", in.fix().commit());
                Map<String, Object> changed = new LinkedHashMap<>();
                in.fix().byFile().forEach((f, ranges) -> changed.put(f,
                        ranges.stream().map(range -> range.start() + "-" + range.end()).toList()));
                i.put("changedLines", changed);
                Map<String, Object> chunkAnswers = new LinkedHashMap<>();
                in.chunkBySystem().forEach((s, a) -> chunkAnswers.put(s, Map.of("rank", a.rank(), "chunks", a.files(),
                        "millis", a.nanos() / 1e6)));
                i.put("chunkAnswers", chunkAnswers);
                instances.add(i);
            }
            m.put("instances", instances);
            repos.add(m);
        }
        root.put("repositories", repos);
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new NonRetriableNeuralTextException("cannot write the SWE-bench report as JSON", e);
        }
    }

    private static Map<String, Object> figuresJson(Figures f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("instances", f.n());
        for (int k = 0; k < KS.length; k++) {
            m.put("acc@" + KS[k], f.acc()[k]);
        }
        m.put("mrr@10", f.mrr());
        return m;
    }

    /** Writes {@code swebench.md} and {@code swebench.json} into {@code dir}; returns their paths. */
    List<Path> writeAll(Path dir) {
        return Arrays.asList(ReportWriter.writeText(dir.resolve("swebench.md"), markdown()),
                ReportWriter.writeText(dir.resolve("swebench.json"), json()));
    }
}
