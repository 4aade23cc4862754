package dev.neuraltext.cli.eval;

import static dev.neuraltext.cli.eval.ReportWriter.f2;
import static dev.neuraltext.cli.eval.ReportWriter.f3;
import static dev.neuraltext.cli.eval.ReportWriter.ms;
import static dev.neuraltext.cli.eval.Svg.esc;

import dev.neuraltext.eval.HeadToHead;
import dev.neuraltext.eval.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The HTML report: one self-contained page, inline CSS and SVG, no script. */
final class HtmlReport {

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0;
              background:#f3f4f6;color:#111827}
            main{max-width:1180px;margin:0 auto;padding:28px 28px 60px}
            h1{font-size:26px;margin:0 0 4px}
            h2{font-size:18px;margin:34px 0 10px}
            .sub{color:#4b5563;margin:0 0 18px;font-size:14px}
            .chips{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 8px}
            .chip{background:white;border:1px solid #e5e7eb;border-radius:999px;padding:4px 12px;font-size:13px}
            .chip b{font-weight:600}
            .card{background:white;border:1px solid #e5e7eb;border-radius:10px;padding:14px;margin:0 0 16px;
              overflow-x:auto;box-shadow:0 1px 2px rgba(0,0,0,.04)}
            .note{color:#4b5563;font-size:13px;margin:6px 2px 0}
            table{border-collapse:collapse;font-size:13px;width:100%}
            th,td{padding:5px 8px;text-align:right;white-space:nowrap;border-bottom:1px solid #eef0f3}
            th{background:#f9fafb;font-weight:600;position:sticky;top:0}
            td:first-child,th:first-child{text-align:left}
            tr.peer td:first-child{font-style:italic;color:#9a3412}
            .better{color:#047857;font-weight:600}.worse{color:#b91c1c;font-weight:600}.insig{color:#6b7280}
            table.wide{font-size:12px}table.wide th,table.wide td{padding:4px 6px}
            """;

    private HtmlReport() {
    }

    static String html(EvalReport report) {
        Map<String, Object> meta = report.meta();
        String mrr = report.suite().mrr();
        String ndcg = report.suite().ndcg();
        int rk = report.suite().rubricK();
        List<String[]> slices = ReportWriter.sliceColumns(report);
        List<TechniqueResult> results = report.results();
        List<String> colors = colors(results);

        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
                .append("<title>neural-text eval: ").append(esc(String.valueOf(meta.get("dataset"))))
                .append("</title><style>").append(CSS).append("</style></head><body><main>\n");
        sb.append("<h1>neural-text eval: ").append(esc(String.valueOf(meta.get("dataset")))).append("</h1>\n");
        sb.append("<p class=\"sub\">").append(meta.get("documents")).append(" documents, ").append(meta.get("queries"))
                .append(" queries, ").append(meta.get("judgments")).append(" judgments &middot; ")
                .append(esc(String.valueOf(meta.get("date")))).append("</p>\n<div class=\"chips\">");
        chip(sb, "commit", String.valueOf(meta.get("gitCommit")).length() > 12
                ? String.valueOf(meta.get("gitCommit")).substring(0, 12) : String.valueOf(meta.get("gitCommit")));
        chip(sb, "cores", String.valueOf(meta.get("cores")));
        chip(sb, "Java", String.valueOf(meta.get("java")));
        chip(sb, "legs", String.valueOf(meta.get("legs")));
        if (meta.get("denseModel") != null) {
            chip(sb, "dense", String.valueOf(meta.get("denseModel")));
        }
        if (meta.get("rerankerModel") != null) {
            chip(sb, "reranker", String.valueOf(meta.get("rerankerModel")));
        }
        chip(sb, "depth", String.valueOf(meta.get("depth")));
        chip(sb, "warm-up", meta.get("warmupQueries") + " queries");
        sb.append("</div>\n");
        for (Object w : (List<?>) meta.get("warnings")) {
            sb.append("<p class=\"note\">&#9888; ").append(esc(String.valueOf(w))).append("</p>\n");
        }

        List<String> columns = new ArrayList<>(List.of("all"));
        slices.forEach(c -> columns.add(c[1]));
        for (String metric : List.of(mrr, ndcg)) {
            List<Svg.Row> rows = new ArrayList<>();
            for (int i = 0; i < results.size(); i++) {
                TechniqueResult r = results.get(i);
                double[] v = new double[columns.size()];
                v[0] = r.run().overall().mean(metric);
                for (int c = 0; c < slices.size(); c++) {
                    Summary s = r.run().bySlice(slices.get(c)[0]).get(slices.get(c)[1]);
                    v[c + 1] = s == null ? Double.NaN : s.mean(metric);
                }
                rows.add(new Svg.Row(r.name(), colors.get(i), isPeer(r), v));
            }
            sb.append("<h2>").append(esc(metric)).append(" by technique and slice</h2>\n<div class=\"card\">");
            sb.append(Svg.barTable(metric + " (higher is better; best of each column in bold)", columns, rows));
            sb.append("</div>\n");
        }

        List<Svg.Point> points = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            TechniqueResult r = results.get(i);
            points.add(new Svg.Point(r.name(), colors.get(i), isPeer(r), r.latencyMillis(50),
                    r.run().overall().mean(ndcg)));
        }
        sb.append("<h2>Latency vs quality</h2>\n<div class=\"card\">");
        sb.append(Svg.scatter(ndcg + " against median query latency (up and left is better)",
                "p50 latency per query, query encoding included (log scale)", ndcg, points));
        sb.append("<p class=\"note\">Circles: neural-text techniques; diamonds: peers.</p></div>\n");

        List<Svg.Stack> stacks = new ArrayList<>();
        for (TechniqueResult r : results) {
            Summary o = r.run().overall();
            double high = o.mean("highly_relevant@" + rk);
            double rel = o.mean("relevant@" + rk) - high;
            double unjudged = o.mean("unjudged@" + rk);
            double irrelevant = o.mean("noise@" + rk) - unjudged;
            stacks.add(new Svg.Stack(r.name(), isPeer(r), new double[] {high, rel, irrelevant, unjudged}));
        }
        sb.append("<h2>What the top ").append(rk).append(" hold</h2>\n<div class=\"card\">");
        sb.append(Svg.stacked("Share of the top " + rk + " results, averaged over queries",
                List.of("highly relevant (2)", "relevant (1)", "judged not relevant", "unjudged"),
                List.of("#047857", "#6ee7b7", "#9ca3af", "#fdba74"), stacks));
        sb.append("<p class=\"note\">Unjudged results are counted as noise in the metrics but shown apart: many "
                + "unjudged results mean the judgments, not necessarily the ranking, are thin.</p></div>\n");

        // full table
        sb.append("<h2>All metrics</h2>\n<div class=\"card\"><table class=\"wide\"><thead><tr><th>technique</th>");
        List<String> names = report.suite().names();
        for (String n : names) {
            sb.append("<th>").append(esc(n)).append("</th>");
        }
        sb.append("</tr></thead><tbody>\n");
        double[] best = new double[names.size()];
        java.util.Arrays.fill(best, Double.NEGATIVE_INFINITY);
        for (TechniqueResult r : results) {
            for (int i = 0; i < names.size(); i++) {
                double v = r.run().overall().mean(names.get(i));
                best[i] = Math.max(best[i], names.get(i).startsWith("noise") || names.get(i).startsWith("unjudged")
                        ? -v : v);
            }
        }
        for (TechniqueResult r : results) {
            sb.append("<tr").append(isPeer(r) ? " class=\"peer\"" : "").append("><td>").append(esc(r.name()))
                    .append("</td>");
            for (int i = 0; i < names.size(); i++) {
                double v = r.run().overall().mean(names.get(i));
                boolean lowerBetter = names.get(i).startsWith("noise") || names.get(i).startsWith("unjudged");
                boolean isBest = (lowerBetter ? -v : v) == best[i];
                sb.append("<td style=\"background:").append(heat(v, lowerBetter)).append("\">")
                        .append(isBest ? "<b>" + f3(v) + "</b>" : f3(v)).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</tbody></table><p class=\"note\">").append(esc(descriptions(results))).append("</p></div>\n");

        sb.append("<h2>Latency</h2>\n<div class=\"card\"><table><thead><tr><th>technique</th><th>p50 ms</th>")
                .append("<th>p95 ms</th><th>p99 ms</th><th>mean ms</th><th>query encoding p50 ms</th>")
                .append("<th>query encoding p95 ms</th><th>query encoding p99 ms</th><th>mean returned</th>")
                .append("</tr></thead><tbody>\n");
        for (TechniqueResult r : results) {
            sb.append("<tr").append(isPeer(r) ? " class=\"peer\"" : "").append("><td>").append(esc(r.name()))
                    .append("</td><td>").append(ms(r.latencyMillis(50))).append("</td><td>")
                    .append(ms(r.latencyMillis(95))).append("</td><td>").append(ms(r.latencyMillis(99)))
                    .append("</td><td>").append(ms(r.meanLatencyMillis())).append("</td><td>")
                    .append(r.encodes() ? ms(r.encodingMillis(50)) : "-").append("</td><td>")
                    .append(r.encodes() ? ms(r.encodingMillis(95)) : "-").append("</td><td>")
                    .append(r.encodes() ? ms(r.encodingMillis(99)) : "-").append("</td><td>")
                    .append(f2(r.run().meanReturned())).append("</td></tr>\n");
        }
        sb.append("</tbody></table><p class=\"note\">Per query, measured after ").append(meta.get("warmupQueries"))
                .append(" warm-up queries, one query at a time; totals include query encoding. A peer RRF's latency is "
                        + "the sum of its two peers'.</p></div>\n");

        if (results.stream().anyMatch(r -> r.adaptive() != null)) {
            sb.append("<h2>Adaptive extension</h2>\n<div class=\"card\"><table><thead><tr><th>technique</th>")
                    .append("<th>mean returned</th><th>extended queries</th><th>mean tail</th>")
                    .append("<th>precision ranks 1..k</th><th>tail precision</th>")
                    .append("<th>fixed-cut precision, same ranks</th></tr></thead><tbody>\n");
            for (TechniqueResult r : results) {
                AdaptiveStats a = r.adaptive();
                if (a != null) {
                    sb.append("<tr><td>").append(esc(r.name())).append("</td><td>").append(f2(a.meanReturned()))
                            .append("</td><td>").append(a.extendedQueries()).append(" / ").append(a.queries())
                            .append("</td><td>").append(f2(a.meanTail())).append("</td><td>")
                            .append(f3(a.headPrecision())).append("</td><td>").append(f3(a.tailPrecision()))
                            .append("</td><td>").append(f3(a.fixedCutTailPrecision())).append("</td></tr>\n");
                }
            }
            sb.append("</tbody></table><p class=\"note\">Tail precision: share of the results past rank k, on the "
                    + "queries that were extended, graded 1 or more. Fixed-cut precision: the same technique without "
                    + "extension at ranks k+1..k+t on every query (t = mean tail). Extension earns its results when "
                    + "the first is clearly above the second.</p></div>\n");
        }

        if (!report.headToHead().isEmpty()) {
            sb.append("<h2>Head-to-head on ").append(esc(ndcg)).append(" (against ")
                    .append(esc(String.valueOf(meta.get("baseline")))).append(" unless named)</h2>\n")
                    .append("<div class=\"card\"><table>")
                    .append("<thead><tr><th>technique</th><th>against</th><th>mean</th><th>theirs</th><th>delta</th>")
                    .append("<th>95% CI (bootstrap)</th><th>wins</th><th>losses</th><th>draws</th>")
                    .append("<th>p (paired randomisation)</th></tr></thead><tbody>\n");
            for (HeadToHead.Result h : report.headToHead()) {
                boolean sig = h.significant(0.05);
                sb.append("<tr><td>").append(esc(h.a())).append("</td><td>").append(esc(h.b())).append("</td><td>")
                        .append(f3(h.meanA())).append("</td><td>")
                        .append(f3(h.meanB())).append("</td><td class=\"")
                        .append(!sig ? "insig" : h.meanDelta() > 0 ? "better" : "worse").append("\">")
                        .append(String.format(Locale.ROOT, "%+.3f", h.meanDelta())).append("</td><td>")
                        .append(String.format(Locale.ROOT, "[%+.3f, %+.3f]", h.ciLow(), h.ciHigh()))
                        .append("</td><td>").append(h.wins()).append("</td><td>").append(h.losses())
                        .append("</td><td>").append(h.draws()).append("</td><td>")
                        .append(h.pValue() < 0.0001 ? "&lt; 0.0001" : String.format(Locale.ROOT, "%.4f", h.pValue()))
                        .append("</td></tr>\n");
            }
            sb.append("</tbody></table></div>\n");
        }

        sb.append("<h2>Indexing</h2>\n<div class=\"card\"><table><thead><tr><th>system</th><th>documents</th>")
                .append("<th>seconds</th><th>documents/s</th><th>note</th></tr></thead><tbody>\n");
        for (EvalReport.Indexing ix : report.indexing()) {
            sb.append("<tr><td>").append(esc(ix.name())).append("</td><td>").append(ix.documents()).append("</td><td>")
                    .append(f2(ix.seconds())).append("</td><td>").append(f2(ix.documentsPerSecond()))
                    .append("</td><td style=\"text-align:left\">").append(esc(ix.note())).append("</td></tr>\n");
        }
        sb.append("</tbody></table></div>\n</main></body></html>\n");
        return sb.toString();
    }

    private static String descriptions(List<TechniqueResult> results) {
        List<String> parts = new ArrayList<>();
        for (TechniqueResult r : results) {
            parts.add(r.name() + ": " + r.description());
        }
        return String.join("; ", parts) + ".";
    }

    static List<String> colors(List<TechniqueResult> results) {
        List<String> out = new ArrayList<>();
        int nt = 0;
        int peers = 0;
        for (TechniqueResult r : results) {
            out.add(isPeer(r) ? Svg.color(peers++, true) : Svg.color(nt++, false));
        }
        return out;
    }

    private static boolean isPeer(TechniqueResult r) {
        return r.kind().equals(TechniqueResult.PEER);
    }

    private static void chip(StringBuilder sb, String key, String value) {
        sb.append("<span class=\"chip\"><b>").append(esc(key)).append("</b> ").append(esc(value)).append("</span>");
    }

    /** A pale green (good) to white background for a value in [0, 1]. */
    private static String heat(double v, boolean lowerBetter) {
        if (!Double.isFinite(v)) {
            return "white";
        }
        double g = Math.max(0, Math.min(1, lowerBetter ? 1 - v : v));
        int r = (int) Math.round(255 - g * (255 - 187));
        int gg = (int) Math.round(255 - g * (255 - 247));
        int b = (int) Math.round(255 - g * (255 - 208));
        return String.format(Locale.ROOT, "rgb(%d,%d,%d)", r, gg, b);
    }
}
