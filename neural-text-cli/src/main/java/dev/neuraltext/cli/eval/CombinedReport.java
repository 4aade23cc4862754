package dev.neuraltext.cli.eval;

import dev.neuraltext.eval.Summary;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The table of an evaluation over several datasets: one row per technique or peer (in the order they first ran), one
 * column block per dataset (MRR@k over all queries, then per slice, then the p50 latency in ms). A technique that did
 * not run on a dataset has empty cells there. Stateless.
 */
final class CombinedReport {

    private CombinedReport() {
    }

    static String markdown(List<EvalReport> reports) {
        StringBuilder sb = new StringBuilder();
        String mrr = reports.get(0).suite().mrr();
        sb.append("# neural-text eval: ").append(reports.size()).append(" datasets\n\n");
        Set<String> names = new LinkedHashSet<>();
        reports.forEach(r -> r.results().forEach(t -> names.add(t.name())));
        List<String> head = new ArrayList<>(List.of("technique"));
        List<List<String[]>> slices = new ArrayList<>();
        for (EvalReport r : reports) {
            List<String[]> cols = ReportWriter.sliceColumns(r);
            slices.add(cols);
            String ds = String.valueOf(r.meta().get("dataset"));
            head.add(ds + " " + mrr);
            cols.forEach(c -> head.add(ds + " " + c[1]));
            head.add(ds + " p50 ms");
        }
        ReportWriter.row(sb, head);
        ReportWriter.separator(sb, head.size());
        for (String name : names) {
            List<String> cells = new ArrayList<>(List.of(name));
            for (int i = 0; i < reports.size(); i++) {
                TechniqueResult t = find(reports.get(i), name);
                if (t == null) {
                    for (int c = 0; c < slices.get(i).size() + 2; c++) {
                        cells.add("");
                    }
                    continue;
                }
                cells.add(ReportWriter.f3(t.run().overall().mean(mrr)));
                for (String[] c : slices.get(i)) {
                    Summary s = t.run().bySlice(c[0]).get(c[1]);
                    cells.add(s == null ? "" : ReportWriter.f3(s.mean(mrr)));
                }
                cells.add(ReportWriter.ms(t.latencyMillis(50)));
            }
            ReportWriter.row(sb, cells);
        }
        sb.append('\n');
        List<TokenTable.Row> tokens = new ArrayList<>();
        reports.forEach(r -> tokens.addAll(ChunkTokens.rows(r)));
        if (!tokens.isEmpty()) {
            sb.append("## Tokens to the first relevant document, per dataset (median tokens / share within 2,000)\n\n");
            TokenTable.byGroup(sb, tokens, "dataset", TokenTable.Row::language);
            sb.append('\n');
        }
        return sb.toString();
    }

    private static TechniqueResult find(EvalReport report, String name) {
        for (TechniqueResult t : report.results()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
