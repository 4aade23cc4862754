package dev.neuraltext.cli.eval;

import dev.neuraltext.eval.TokensToFirstRelevant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * The token figures of a report ({@link AnswerTokens}): per system and way of reading, over the queries pooled, the
 * median tokens to the first relevant span and the share of queries reached within each of
 * {@link TokensToFirstRelevant#BUDGETS}, with the share never reached; written as Markdown tables and as JSON values.
 * Stateless.
 */
final class TokenTable {

    /** One query's counts for one system: by way of reading, null when never reached. */
    record Row(String system, String category, String language, Map<String, Integer> tokens) {
    }

    private TokenTable() {
    }

    /** The (system, way of reading) pairs the rows hold, in the order met. */
    static List<String[]> columns(List<Row> rows) {
        Map<String, String[]> seen = new LinkedHashMap<>();
        for (Row r : rows) {
            for (String form : r.tokens().keySet()) {
                seen.putIfAbsent(r.system() + "\u0000" + form, new String[] {r.system(), form});
            }
        }
        return new ArrayList<>(seen.values());
    }

    /** The counts of {@code system} read as {@code form} over the rows {@code which} keeps. */
    static List<OptionalInt> counts(List<Row> rows, String system, String form, Predicate<Row> which) {
        List<Integer> c = new ArrayList<>();
        for (Row r : rows) {
            if (r.system().equals(system) && r.tokens().containsKey(form) && which.test(r)) {
                c.add(r.tokens().get(form));
            }
        }
        return AnswerTokens.optional(c);
    }

    /** The headline table: one line per system and way of reading. */
    static void overall(StringBuilder md, List<Row> rows, Map<String, Double> ndcgBySystem) {
        md.append("| system | answer read as | queries | median tokens | within 500 | within 1,000 | within 2,000 | "
                + "never reached | NDCG@10 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String[] col : columns(rows)) {
            List<OptionalInt> c = counts(rows, col[0], col[1], r -> true);
            StringBuilder line = new StringBuilder("| " + col[0] + " | " + col[1] + " | " + c.size() + " | "
                    + median(c));
            for (int b : TokensToFirstRelevant.BUDGETS) {
                line.append(" | ").append(f3(TokensToFirstRelevant.recallWithin(c, b)));
            }
            long never = c.stream().filter(OptionalInt::isEmpty).count();
            Double ndcg = ndcgBySystem.get(col[0]);
            line.append(" | ").append(f3(c.isEmpty() ? Double.NaN : (double) never / c.size())).append(" | ")
                    .append(ndcg == null ? "" : f3(ndcg)).append(" |\n");
            md.append(line);
        }
    }

    /** One line per group ({@code key} of a row), each cell {@code median / within 2,000} for a column. */
    static void byGroup(StringBuilder md, List<Row> rows, String title, java.util.function.Function<Row, String> key) {
        List<String[]> cols = columns(rows);
        md.append("| ").append(title);
        for (String[] col : cols) {
            md.append(" | ").append(col[0]).append(", ").append(col[1]);
        }
        md.append(" |\n|---|");
        md.append("---:|".repeat(cols.size())).append('\n');
        List<String> groups = rows.stream().map(key).distinct().toList();
        for (String g : groups) {
            md.append("| ").append(g);
            for (String[] col : cols) {
                List<OptionalInt> c = counts(rows, col[0], col[1], r -> key.apply(r).equals(g));
                md.append(" | ").append(c.isEmpty() ? "" : median(c) + " / "
                        + f3(TokensToFirstRelevant.recallWithin(c, 2_000)));
            }
            md.append(" |\n");
        }
    }

    /** The figures as JSON values: system → way of reading → median, within each budget, never reached. */
    static Map<String, Object> json(List<Row> rows) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String[] col : columns(rows)) {
            List<OptionalInt> c = counts(rows, col[0], col[1], r -> true);
            Map<String, Object> m = new LinkedHashMap<>();
            OptionalInt med = TokensToFirstRelevant.median(c);
            m.put("queries", c.size());
            m.put("medianTokens", med.isPresent() ? med.getAsInt() : null);
            for (int b : TokensToFirstRelevant.BUDGETS) {
                m.put("within" + b, TokensToFirstRelevant.recallWithin(c, b));
            }
            m.put("neverReached", c.stream().filter(OptionalInt::isEmpty).count());
            @SuppressWarnings("unchecked")
            Map<String, Object> bySystem = (Map<String, Object>) out.computeIfAbsent(col[0],
                    k -> new LinkedHashMap<String, Object>());
            bySystem.put(col[1], m);
        }
        return out;
    }

    /** The median, or {@code not reached} when more than half of the queries never reach a target. */
    static String median(List<OptionalInt> c) {
        OptionalInt m = TokensToFirstRelevant.median(c);
        return m.isPresent() ? String.format(Locale.ROOT, "%,d", m.getAsInt()) : c.isEmpty() ? "" : "not reached";
    }

    private static String f3(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
