package dev.neuraltext.cli.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.eval.HeadToHead;
import dev.neuraltext.eval.Summary;
import dev.neuraltext.internal.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes an {@link EvalReport} as Markdown, JSON (schema {@value #SCHEMA}) and HTML with inline SVG charts. The JSON
 * shape is stable: {@code schema}, {@code run} (metadata), {@code metrics} (names), {@code indexing[]},
 * {@code techniques[]} (each with {@code name}, {@code kind}, {@code description}, {@code queries}, {@code overall},
 * {@code slices.<key>.<value>.{queries, metrics}}, {@code latencyMs}, {@code queryEncodingMs}, {@code meanReturned},
 * {@code adaptive}) and {@code headToHead[]}. Values that do not exist are {@code null}. Its Markdown helpers
 * ({@link #row}, {@link #separator}, {@link #f3}, {@link #writeText}) are public for the harness's users (the
 * never-shipped neural-text-lab module). Stateless.
 */
public final class ReportWriter {

    static final String SCHEMA = "neural-text-eval/1";

    private ReportWriter() {
    }

    /** Writes {@code report.md}, {@code report.json} and {@code report.html} into {@code dir}. */
    static List<Path> writeAll(EvalReport report, Path dir) {
        try {
            Files.createDirectories(dir);
            List<Path> written = new ArrayList<>();
            written.add(write(dir.resolve("report.md"), markdown(report)));
            written.add(write(dir.resolve("report.json"), json(report)));
            written.add(write(dir.resolve("report.html"), HtmlReport.html(report)));
            return written;
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot write the report into " + dir, e);
        }
    }

    /** Writes {@code content} to {@code file} (temp file, then atomic rename) and returns the file. */
    public static Path writeText(Path file, String content) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return write(file, content);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot write " + file, e);
        }
    }

    private static Path write(Path file, String content) throws IOException {
        AtomicFiles.writeString(file, content);
        return file;
    }

    // ------------------------------------------------------------------ JSON

    static String json(EvalReport report) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", SCHEMA);
        root.put("run", report.meta());
        root.put("metrics", report.suite().names());
        List<Object> indexing = new ArrayList<>();
        for (EvalReport.Indexing ix : report.indexing()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", ix.name());
            m.put("documents", ix.documents());
            m.put("seconds", round(ix.seconds(), 3));
            m.put("documentsPerSecond", round(ix.documentsPerSecond(), 1));
            m.put("note", ix.note());
            indexing.add(m);
        }
        root.put("indexing", indexing);
        List<Object> techniques = new ArrayList<>();
        for (TechniqueResult r : report.results()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", r.name());
            t.put("kind", r.kind());
            t.put("description", r.description());
            Summary overall = r.run().overall();
            t.put("queries", overall.queries());
            t.put("overall", metrics(overall));
            Map<String, Object> slices = new LinkedHashMap<>();
            for (String key : report.settings().sliceBy()) {
                Map<String, Object> values = new LinkedHashMap<>();
                r.run().bySlice(key).forEach((value, s) -> {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("queries", s.queries());
                    v.put("metrics", metrics(s));
                    values.put(value, v);
                });
                slices.put(key, values);
            }
            t.put("slices", slices);
            t.put("latencyMs", latency(r.latencyMillis(50), r.latencyMillis(95), r.latencyMillis(99),
                    r.meanLatencyMillis()));
            t.put("queryEncodingMs", r.encodes()
                    ? latency(r.encodingMillis(50), r.encodingMillis(95), r.encodingMillis(99), Double.NaN) : null);
            t.put("meanReturned", round(r.run().meanReturned(), 3));
            AdaptiveStats a = r.adaptive();
            if (a == null) {
                t.put("adaptive", null);
            } else {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("meanReturned", round(a.meanReturned(), 3));
                m.put("extendedQueries", a.extendedQueries());
                m.put("tailResults", a.tailResults());
                m.put("meanTail", round(a.meanTail(), 3));
                m.put("tailPrecision", round(a.tailPrecision(), 4));
                m.put("fixedCutTailPrecision", round(a.fixedCutTailPrecision(), 4));
                m.put("headPrecision", round(a.headPrecision(), 4));
                t.put("adaptive", m);
            }
            techniques.add(t);
        }
        root.put("techniques", techniques);
        root.put("tokens", TokenTable.json(ChunkTokens.rows(report)));
        List<Object> h2h = new ArrayList<>();
        for (HeadToHead.Result h : report.headToHead()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("a", h.a());
            m.put("b", h.b());
            m.put("metric", h.metric());
            m.put("queries", h.queries());
            m.put("wins", h.wins());
            m.put("losses", h.losses());
            m.put("draws", h.draws());
            m.put("meanA", round(h.meanA(), 4));
            m.put("meanB", round(h.meanB(), 4));
            m.put("meanDelta", round(h.meanDelta(), 4));
            m.put("ciLow", round(h.ciLow(), 4));
            m.put("ciHigh", round(h.ciHigh(), 4));
            m.put("pValue", round(h.pValue(), 5));
            m.put("exact", h.exact());
            h2h.add(m);
        }
        root.put("headToHead", h2h);
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the report", e);
        }
    }

    private static Map<String, Object> metrics(Summary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        s.means().forEach((k, v) -> m.put(k, round(v, 4)));
        return m;
    }

    private static Map<String, Object> latency(double p50, double p95, double p99, double mean) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("p50", round(p50, 3));
        m.put("p95", round(p95, 3));
        m.put("p99", round(p99, 3));
        if (!Double.isNaN(mean)) {
            m.put("mean", round(mean, 3));
        }
        return m;
    }

    static Double round(double v, int places) {
        if (!Double.isFinite(v)) {
            return null;
        }
        double f = Math.pow(10, places);
        return Math.round(v * f) / f;
    }

    // ------------------------------------------------------------------ Markdown

    /** Slice columns: every (key, value) pair, in key order then value order; queries lacking the key left out. */
    static List<String[]> sliceColumns(EvalReport report) {
        List<String[]> cols = new ArrayList<>();
        if (report.results().isEmpty()) {
            return cols;
        }
        TechniqueResult first = report.results().get(0);
        for (String key : report.settings().sliceBy()) {
            for (String value : first.run().bySlice(key).keySet()) {
                if (!value.equals(dev.neuraltext.eval.EvalRun.NO_VALUE)) { // e.g. nl queries have no shape
                    cols.add(new String[] {key, value});
                }
            }
        }
        return cols;
    }

    static String markdown(EvalReport report) {
        StringBuilder sb = new StringBuilder();
        Map<String, Object> meta = report.meta();
        String mrr = report.suite().mrr();
        String ndcg = report.suite().ndcg();
        int rk = report.suite().rubricK();
        sb.append("# neural-text eval: ").append(meta.get("dataset")).append("\n\n");
        sb.append(String.format(Locale.ROOT, "%s documents, %s queries (%s excluded without judgments), %s judgments. "
                + "Commit `%s`, %s cores, Java %s, %s. Latency after %s warm-up queries; techniques retrieve %s "
                + "(adaptive: limit %s).%n%n", meta.get("documents"), meta.get("queries"), meta.get("excludedQueries"),
                meta.get("judgments"), shortCommit(meta.get("gitCommit")), meta.get("cores"), meta.get("java"),
                meta.get("date"), meta.get("warmupQueries"), meta.get("depth"), meta.get("k")));
        List<String[]> slices = sliceColumns(report);

        sb.append("## ").append(mrr).append(" overall and by slice, with the other metrics overall\n\n");
        List<String> head = new ArrayList<>(List.of("technique", mrr));
        slices.forEach(c -> head.add(c[1]));
        head.addAll(List.of(ndcg, "S@1", "S@5", "S@10", "R@100", "rel@" + rk, "high@" + rk, "noise@" + rk,
                "unjudged@" + rk, "p50 ms", "p95 ms", "p99 ms", "query enc p50 ms"));
        row(sb, head);
        separator(sb, head.size());
        for (TechniqueResult r : report.results()) {
            Summary o = r.run().overall();
            List<String> cells = new ArrayList<>();
            cells.add(r.kind().equals(TechniqueResult.PEER) ? "_" + r.name() + "_" : "**" + r.name() + "**");
            cells.add(f3(o.mean(mrr)));
            for (String[] c : slices) {
                Summary s = r.run().bySlice(c[0]).get(c[1]);
                cells.add(s == null ? "" : f3(s.mean(mrr)));
            }
            cells.add(f3(o.mean(ndcg)));
            cells.add(f3(metricOrNaN(o, "success@1")));
            cells.add(f3(metricOrNaN(o, "success@5")));
            cells.add(f3(metricOrNaN(o, "success@10")));
            cells.add(f3(metricOrNaN(o, "recall@100")));
            cells.add(f3(o.mean("relevant@" + rk)));
            cells.add(f3(o.mean("highly_relevant@" + rk)));
            cells.add(f3(o.mean("noise@" + rk)));
            cells.add(f3(o.mean("unjudged@" + rk)));
            cells.add(ms(r.latencyMillis(50)));
            cells.add(ms(r.latencyMillis(95)));
            cells.add(ms(r.latencyMillis(99)));
            cells.add(r.encodes() ? ms(r.encodingMillis(50)) : "-");
            row(sb, cells);
        }
        sb.append("\nSlice columns: ");
        List<String> names = new ArrayList<>();
        slices.forEach(c -> names.add(c[0] + "=" + c[1]));
        sb.append(String.join(", ", names)).append(". Peers in _italics_.\n\n");

        if (!slices.isEmpty()) {
            sb.append("## ").append(ndcg).append(" by slice\n\n");
            List<String> h = new ArrayList<>(List.of("technique", "all"));
            slices.forEach(c -> h.add(c[1]));
            row(sb, h);
            separator(sb, h.size());
            for (TechniqueResult r : report.results()) {
                List<String> cells = new ArrayList<>(List.of(r.name(), f3(r.run().overall().mean(ndcg))));
                for (String[] c : slices) {
                    Summary s = r.run().bySlice(c[0]).get(c[1]);
                    cells.add(s == null ? "" : f3(s.mean(ndcg)));
                }
                row(sb, cells);
            }
            sb.append('\n');
        }

        boolean anyAdaptive = report.results().stream().anyMatch(r -> r.adaptive() != null);
        if (anyAdaptive) {
            sb.append("## Adaptive extension (limit ").append(meta.get("k")).append(")\n\n");
            List<String> h = List.of("technique", "mean returned", "extended queries", "mean tail",
                    "precision ranks 1..k", "tail precision", "fixed-cut precision, same ranks");
            row(sb, h);
            separator(sb, h.size());
            for (TechniqueResult r : report.results()) {
                AdaptiveStats a = r.adaptive();
                if (a != null) {
                    row(sb, List.of(r.name(), f2(a.meanReturned()), a.extendedQueries() + " / " + a.queries(),
                            f2(a.meanTail()), f3(a.headPrecision()), f3(a.tailPrecision()),
                            f3(a.fixedCutTailPrecision())));
                }
            }
            sb.append("\nTail precision: share of the results past rank k (on the queries that were extended) graded "
                    + ">= 1. Fixed-cut precision: the same technique without extension, ranks k+1..k+t on every "
                    + "query, t = mean tail length.\n\n");
        }

        if (!report.headToHead().isEmpty()) {
            sb.append("## Head-to-head on ").append(ndcg).append(" (against ").append(meta.get("baseline"))
                    .append(" unless named)\n\n");
            List<String> h = List.of("technique", "against", "mean", "theirs", "delta", "95% CI", "wins", "losses",
                    "draws", "p (paired randomisation)");
            row(sb, h);
            separator(sb, h.size());
            for (HeadToHead.Result r : report.headToHead()) {
                row(sb, List.of(r.a(), r.b(), f3(r.meanA()), f3(r.meanB()),
                        String.format(Locale.ROOT, "%+.3f", r.meanDelta()),
                        String.format(Locale.ROOT, "[%+.3f, %+.3f]", r.ciLow(), r.ciHigh()),
                        String.valueOf(r.wins()), String.valueOf(r.losses()), String.valueOf(r.draws()),
                        r.pValue() < 0.0001 ? "< 0.0001" : String.format(Locale.ROOT, "%.4f", r.pValue())));
            }
            sb.append('\n');
        }

        List<TokenTable.Row> tokens = ChunkTokens.rows(report);
        if (!tokens.isEmpty()) {
            sb.append("## Tokens to the first relevant document\n\nThe tokens (characters / 4) read in the top ")
                    .append(meta.get("k")).append(" documents, in rank order, up to and including the first judged "
                    + "relevant; chunks: each document whole; packed: packed into 2,000 tokens as the MCP server "
                    + "answers.\n\n");
            Map<String, Double> ndcgs = new LinkedHashMap<>();
            report.results().forEach(r -> ndcgs.put(r.name(), r.run().overall().mean(ndcg)));
            TokenTable.overall(sb, tokens, ndcgs);
            sb.append("\nBy ").append(report.settings().sliceBy().isEmpty() ? "query" : report.settings().sliceBy()
                    .get(0)).append(" (median tokens / share within 2,000):\n\n");
            TokenTable.byGroup(sb, tokens, "slice", TokenTable.Row::category);
            sb.append('\n');
        }

        sb.append("## Indexing\n\n");
        List<String> h = List.of("system", "documents", "seconds", "documents/s", "note");
        row(sb, h);
        separator(sb, h.size());
        for (EvalReport.Indexing ix : report.indexing()) {
            row(sb, List.of(ix.name(), String.valueOf(ix.documents()), f2(ix.seconds()), f2(ix.documentsPerSecond()),
                    ix.note()));
        }
        sb.append('\n');
        return sb.toString();
    }

    private static double metricOrNaN(Summary s, String name) {
        Double v = s.means().get(name);
        return v == null ? Double.NaN : v;
    }

    private static String shortCommit(Object commit) {
        String c = String.valueOf(commit);
        return c.length() >= 12 && c.matches("[0-9a-f]+") ? c.substring(0, 12) : c;
    }

    /** Appends a Markdown table row ({@code |} in a cell escaped). */
    public static void row(StringBuilder sb, List<String> cells) {
        sb.append("| ");
        sb.append(String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()));
        sb.append(" |\n");
    }

    /** Appends the separator row of an {@code n}-column table: the first column left-aligned, the others right. */
    public static void separator(StringBuilder sb, int n) {
        sb.append("|---");
        for (int i = 1; i < n; i++) {
            sb.append("|---:");
        }
        sb.append("|\n");
    }

    /** {@code v} with three decimals, or {@code -} when it is not finite. */
    public static String f3(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "-";
    }

    static String f2(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f", v) : "-";
    }

    static String ms(double v) {
        return v >= 10 ? String.format(Locale.ROOT, "%.0f", v)
                : v >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
