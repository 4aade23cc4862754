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
import java.util.function.ToDoubleFunction;

/**
 * The semble-dev figures: per system, NDCG@10 (chunk level, the benchmark's headline, and file level) as the mean over
 * repositories of each repository's mean, per category (mean over the repositories that have the category) and per
 * language; beside them the peer's published figures for the same repositories; the default search's latency. Written
 * as {@code semble.md}, {@code semble.json} (every question's top 10 included) and {@code semble.html}.
 */
final class SembleReport {

    private final List<SembleHarness.RepositoryResult> results;
    private final Map<String, SembleDataset.Published> published;
    private final Map<String, Object> run;

    SembleReport(List<SembleHarness.RepositoryResult> results, Map<String, SembleDataset.Published> published,
            Map<String, Object> run) {
        this.results = results;
        this.published = published;
        this.run = run;
    }

    /** The systems run, in the order of the first repository. */
    List<String> systems() {
        Set<String> s = new LinkedHashSet<>();
        for (SembleHarness.RepositoryResult r : results) {
            for (SembleHarness.QuestionResult q : r.questions()) {
                s.addAll(q.bySystem().keySet());
            }
        }
        return new ArrayList<>(s);
    }

    /** A repository's mean over its questions (of {@code category}, or all when null); NaN when there are none. */
    static double repoMean(SembleHarness.RepositoryResult r, String system, String category, boolean fileLevel) {
        double sum = 0;
        int n = 0;
        for (SembleHarness.QuestionResult q : r.questions()) {
            SembleHarness.Scored s = q.bySystem().get(system);
            if (s != null && (category == null || category.equals(q.category()))) {
                sum += fileLevel ? s.fileNdcg() : s.ndcg();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The mean of {@code f} over the repositories where it is not NaN (NaN when none). */
    static double meanOver(List<SembleHarness.RepositoryResult> rs, ToDoubleFunction<SembleHarness.RepositoryResult> f) {
        double sum = 0;
        int n = 0;
        for (SembleHarness.RepositoryResult r : rs) {
            double v = f.applyAsDouble(r);
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The headline: mean over repositories of each repository's mean (chunk level). */
    double overall(String system) {
        return meanOver(results, r -> repoMean(r, system, null, false));
    }

    String markdown() {
        StringBuilder sb = new StringBuilder();
        List<String> systems = systems();
        sb.append("# semble-dev: NDCG@10 by semble's rules (").append(results.size()).append(" repositories, ")
                .append(results.stream().mapToInt(r -> r.questions().size()).sum()).append(" questions)\n\n");
        sb.append("Mean over repositories of the per-question NDCG@10 of the top 10 chunks (file level: the chunks' files, "
                + "deduplicated). Published: the peer's own figures for the same repositories.\n\n");
        List<String> head = new ArrayList<>(List.of("", "repositories"));
        for (String s : systems) {
            head.add(s);
        }
        for (String s : systems) {
            head.add(s + " (files)");
        }
        head.addAll(List.of("semble (published)", "CodeRankEmbed hybrid (published)"));
        List<List<String>> rows = new ArrayList<>();
        rows.add(row("all", results, systems));
        for (String c : SembleDataset.CATEGORIES) {
            rows.add(categoryRow(c, systems));
        }
        table(sb, head, rows);
        sb.append("\n## Per language\n\n");
        Map<String, List<SembleHarness.RepositoryResult>> byLanguage = new LinkedHashMap<>();
        for (SembleHarness.RepositoryResult r : results) {
            byLanguage.computeIfAbsent(r.language(), l -> new ArrayList<>()).add(r);
        }
        List<List<String>> lrows = new ArrayList<>();
        byLanguage.forEach((language, rs) -> lrows.add(row(language, rs, systems)));
        table(sb, head, lrows);
        tokens(sb);
        sb.append("\n## Per repository\n\n");
        List<String> rhead = new ArrayList<>(List.of("repository", "language", "questions", "files", "chunks"));
        rhead.addAll(systems);
        rhead.addAll(List.of(systems.get(0) + " (files)", "semble", "CodeRankEmbed hybrid", "index s", "p50 ms",
                "p95 ms"));
        List<List<String>> rrows = new ArrayList<>();
        for (SembleHarness.RepositoryResult r : results) {
            List<String> row = new ArrayList<>(List.of(r.name(), r.language(), "" + r.questions().size(),
                    "" + r.files(), "" + r.chunks()));
            for (String s : systems) {
                row.add(f3(repoMean(r, s, null, false)));
            }
            row.add(f3(repoMean(r, systems.get(0), null, true)));
            SembleDataset.Published p = published.get(r.name());
            row.add(p == null ? "" : f3(p.semble()));
            row.add(p == null ? "" : f3(p.codeRankHybrid()));
            row.add(String.format(Locale.ROOT, "%.1f", r.indexSeconds()));
            long[] lat = latencies(List.of(r));
            row.add(ms(percentile(lat, 0.5)));
            row.add(ms(percentile(lat, 0.95)));
            rrows.add(row);
        }
        table(sb, rhead, rrows);
        SembleHarness.RepositoryResult largest = results.stream()
                .max((a, b) -> Integer.compare(a.chunks(), b.chunks())).orElseThrow();
        sb.append("\n## Latency (same run, questions in turn)\n\n");
        List<List<String>> lat = new ArrayList<>();
        for (String s : systems) {
            long[] all = latencies(results, s);
            if (all.length == 0 || all[all.length - 1] == 0) {
                continue;
            }
            long[] big = latencies(List.of(largest), s);
            lat.add(List.of(s, ms(percentile(all, 0.5)), ms(percentile(all, 0.95)), ms(percentile(big, 0.5)),
                    ms(percentile(big, 0.95))));
        }
        table(sb, List.of("system", "p50 ms (all)", "p95 ms (all)", "p50 ms (" + largest.name() + ")",
                "p95 ms (" + largest.name() + ")"), lat);
        return sb.toString();
    }

    private List<String> row(String label, List<SembleHarness.RepositoryResult> rs, List<String> systems) {
        List<String> row = new ArrayList<>(List.of(label, "" + rs.size()));
        for (String s : systems) {
            row.add(f3(meanOver(rs, r -> repoMean(r, s, null, false))));
        }
        for (String s : systems) {
            row.add(f3(meanOver(rs, r -> repoMean(r, s, null, true))));
        }
        row.add(f3(meanOver(rs, r -> publishedOf(r).semble())));
        row.add(f3(meanOver(rs, r -> publishedOf(r).codeRankHybrid())));
        return row;
    }

    private List<String> categoryRow(String category, List<String> systems) {
        List<SembleHarness.RepositoryResult> rs = results.stream()
                .filter(r -> !Double.isNaN(repoMean(r, systems.get(0), category, false))).toList();
        List<String> row = new ArrayList<>(List.of(category, "" + rs.size()));
        for (String s : systems) {
            row.add(f3(meanOver(rs, r -> repoMean(r, s, category, false))));
        }
        for (String s : systems) {
            row.add(f3(meanOver(rs, r -> repoMean(r, s, category, true))));
        }
        row.add(f3(meanOver(rs, r -> publishedOf(r).sembleByCategory().getOrDefault(category, Double.NaN))));
        row.add("");
        return row;
    }

    private SembleDataset.Published publishedOf(SembleHarness.RepositoryResult r) {
        SembleDataset.Published p = published.get(r.name());
        return p != null ? p : new SembleDataset.Published(Double.NaN, Map.of(), Double.NaN, Double.NaN);
    }

    static long[] latencies(List<SembleHarness.RepositoryResult> rs) {
        return latencies(rs, SembleHarness.DEFAULT);
    }

    static long[] latencies(List<SembleHarness.RepositoryResult> rs, String system) {
        long[] out = rs.stream().flatMap(r -> r.questions().stream()).map(q -> q.bySystem().get(system))
                .filter(java.util.Objects::nonNull).mapToLong(SembleHarness.Scored::nanos).toArray();
        Arrays.sort(out);
        return out;
    }

    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** Every question's token counts, per system. */
    List<TokenTable.Row> tokenRows() {
        List<TokenTable.Row> rows = new ArrayList<>();
        for (SembleHarness.RepositoryResult r : results) {
            for (SembleHarness.QuestionResult q : r.questions()) {
                q.bySystem().forEach((system, s) -> {
                    if (!s.tokens().isEmpty()) {
                        rows.add(new TokenTable.Row(system, q.category(), r.language(), s.tokens()));
                    }
                });
            }
        }
        return rows;
    }

    private void tokens(StringBuilder sb) {
        List<TokenTable.Row> rows = tokenRows();
        if (rows.isEmpty()) {
            return;
        }
        sb.append("\n## Tokens to the first relevant span\n\nThe tokens (characters / 4) an assistant reads in the "
                + "answer, in order, up to and including the first piece that overlaps a target; questions pooled. "
                + "chunks: our top 10 hits whole; packed: the same hits packed into 2,000 tokens (the MCP default); "
                + "files: the grep peer's files listed, then read whole in its order.\n\n");
        Map<String, Double> ndcg = new LinkedHashMap<>();
        for (String s : systems()) {
            ndcg.put(s, overall(s));
        }
        TokenTable.overall(sb, rows, ndcg);
        sb.append("\nPer category (median tokens / share within 2,000):\n\n");
        TokenTable.byGroup(sb, rows, "category", TokenTable.Row::category);
        sb.append("\nPer language (median tokens / share within 2,000):\n\n");
        TokenTable.byGroup(sb, rows, "language", TokenTable.Row::language);
    }

    /** Everything, every question's per-system scores and top 10 included. */
    String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("run", run);
        Map<String, Object> overall = new LinkedHashMap<>();
        for (String s : systems()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ndcg10", orNull(overall(s)));
            m.put("fileNdcg10", orNull(meanOver(results, r -> repoMean(r, s, null, true))));
            for (String c : SembleDataset.CATEGORIES) {
                m.put(c, orNull(meanOver(results, r -> repoMean(r, s, c, false))));
            }
            overall.put(s, m);
        }
        root.put("overall", overall);
        root.put("tokens", TokenTable.json(tokenRows()));
        root.put("repositories", results);
        Map<String, Object> pub = new LinkedHashMap<>();
        published.forEach((name, p) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("semble", orNull(p.semble()));
            p.sembleByCategory().forEach((c, v) -> m.put("semble_" + c, orNull(v)));
            m.put("coderankembedHybrid", orNull(p.codeRankHybrid()));
            m.put("coderankembedDense", orNull(p.codeRankDense()));
            pub.put(name, m);
        });
        root.put("published", pub);
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new NonRetriableNeuralTextException("cannot write the semble report as JSON: " + e.getMessage(), e);
        }
    }

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    /** The Markdown tables as a standalone HTML page. */
    String html() {
        StringBuilder sb = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>semble-dev</title>"
                + "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
                + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left}"
                + "</style></head><body>\n");
        boolean inTable = false;
        for (String line : markdown().split("\n")) {
            if (line.startsWith("|")) {
                if (line.startsWith("|---")) {
                    continue;
                }
                if (!inTable) {
                    sb.append("<table>\n");
                    inTable = true;
                }
                sb.append("<tr>");
                for (String cell : line.substring(1, line.length() - 1).split("\\|", -1)) {
                    sb.append("<td>").append(escape(cell.strip())).append("</td>");
                }
                sb.append("</tr>\n");
                continue;
            }
            if (inTable) {
                sb.append("</table>\n");
                inTable = false;
            }
            if (line.startsWith("## ")) {
                sb.append("<h2>").append(escape(line.substring(3))).append("</h2>\n");
            } else if (line.startsWith("# ")) {
                sb.append("<h1>").append(escape(line.substring(2))).append("</h1>\n");
            } else if (!line.isBlank()) {
                sb.append("<p>").append(escape(line)).append("</p>\n");
            }
        }
        if (inTable) {
            sb.append("</table>\n");
        }
        return sb.append("</body></html>\n").toString();
    }

    /** Writes semble.md, semble.json and semble.html into {@code dir}; returns the folder. */
    Path writeAll(Path dir) {
        ReportWriter.writeText(dir.resolve("semble.md"), markdown());
        ReportWriter.writeText(dir.resolve("semble.json"), json());
        ReportWriter.writeText(dir.resolve("semble.html"), html());
        return dir;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static void table(StringBuilder sb, List<String> head, List<List<String>> rows) {
        sb.append("| ").append(String.join(" | ", head)).append(" |\n|");
        for (int i = 0; i < head.size(); i++) {
            sb.append(i == 0 ? "---|" : "---:|");
        }
        sb.append('\n');
        for (List<String> r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
    }

    static String f3(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
