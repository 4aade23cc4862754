package dev.neuraltext.mcp;

import dev.neuraltext.cli.results.Amounts;
import dev.neuraltext.fusion.Leg;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The {@code status} tool's answer: text for a model, and the same as structured content. Stateless. */
final class StatusAnswer {

    private StatusAnswer() {
    }

    static String text(LiveIndex.Status s) {
        StringBuilder t = new StringBuilder();
        t.append("Index of ").append(s.root()).append(" in ").append(s.indexDir())
                .append(s.writer() ? "" : " (another process writes it; this server follows)").append('\n');
        t.append(switch (s.phase()) {
            case INDEXING -> "State: building (BM25): " + s.filesDone() + " of " + s.filesToIndex() + " files so far";
            case EMBEDDING -> "State: BM25 complete; embedding dense vectors in the background";
            case READY -> "State: ready";
        }).append(s.updating() && s.phase() != LiveIndex.Phase.INDEXING ? "; updating changed files: " + s.filesDone()
                + " of " + s.filesToIndex() + " so far" : "").append('\n');
        if (!s.damage().isEmpty()) {
            t.append("Damage: the saved index was damaged (").append(s.damage()).append("): ")
                    .append(s.phase() == LiveIndex.Phase.INDEXING
                            ? "rebuilding it from the files; searches answer from the part indexed so far"
                            : "rebuilt from the files").append('\n');
        }
        int skipped = s.skipped().values().stream().mapToInt(Integer::intValue).sum();
        t.append("Files: ").append(s.files()).append(skipped == 0 ? "" : "; skipped " + skipped + " ("
                + Amounts.counts(s.skipped()) + ")").append('\n');
        t.append("Chunks: ").append(s.chunks()).append(s.chunksByKind().isEmpty() ? "" : " ("
                + Amounts.counts(s.chunksByKind()) + ")").append('\n');
        t.append("Legs: ").append(s.legs().isEmpty() ? "none yet" : s.legs().stream().sorted().map(Leg::label)
                .collect(Collectors.joining(", "))).append('\n');
        t.append("Dense vectors: ").append(s.coverage().describe())
                .append(s.denseModel().isEmpty() ? "" : ", model " + s.denseModel())
                .append(s.denseNote().isEmpty() ? "" : "; " + s.denseNote()).append('\n');
        t.append("Last updated: ").append(s.lastUpdated() == null ? "not yet" : s.lastUpdated().toString());
        if (s.lastSaved() != null) {
            t.append("; saved ").append(s.lastSaved());
        }
        if (!s.saveProblem().isEmpty()) {
            t.append("\nSaving: ").append(s.saveProblem());
        }
        return t.toString();
    }

    static Map<String, Object> structured(LiveIndex.Status s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("root", s.root().toString());
        m.put("index", s.indexDir().toString());
        m.put("writer", s.writer());
        m.put("phase", s.phase().name().toLowerCase(Locale.ROOT));
        m.put("updating", s.updating());
        m.put("filesDone", s.filesDone());
        m.put("filesToIndex", s.filesToIndex());
        m.put("files", s.files());
        m.put("skipped", s.skipped());
        m.put("chunks", s.chunks());
        m.put("chunksByKind", s.chunksByKind());
        List<String> legs = s.legs().stream().sorted().map(Leg::label).toList();
        m.put("legs", legs);
        m.put("denseCoverage", Map.of("chunks", s.coverage().chunks(), "withDense", s.coverage().withDense()));
        m.put("denseModel", s.denseModel());
        m.put("denseLoaded", s.denseLoaded());
        m.put("lastUpdated", time(s.lastUpdated()));
        m.put("lastSaved", time(s.lastSaved()));
        m.put("saveProblem", s.saveProblem().isEmpty() ? null : s.saveProblem());
        m.put("damage", s.damage().isEmpty() ? null : s.damage());
        Runtime rt = Runtime.getRuntime();
        m.put("heapUsedBytes", rt.totalMemory() - rt.freeMemory());
        m.put("heapMaxBytes", rt.maxMemory());
        return m;
    }

    private static String time(Instant i) {
        return i == null ? null : i.toString();
    }
}
