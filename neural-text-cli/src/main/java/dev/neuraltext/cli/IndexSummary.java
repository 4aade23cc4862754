package dev.neuraltext.cli;

import dev.neuraltext.cli.IndexSession.Indexed;
import dev.neuraltext.cli.results.Amounts;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.ingest.SkipReason;
import dev.neuraltext.store.DenseCoverage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/** The summary {@code index} and {@code demo} print after an index run ({@link IndexSession.Indexed}). */
final class IndexSummary {

    private IndexSummary() {
    }

    /** Prints what an index run did. */
    static void print(PrintStream out, Path folder, Indexed r) {
        IndexUpdate u = r.update();
        IndexManifest m = u.manifest();
        double secs = r.nanos() / 1e9;
        out.printf(Locale.ROOT, "Indexed %s into %s%n", folder, r.session().qdrantLabel != null
                ? "Qdrant " + r.session().qdrantLabel + " (file manifest in " + r.session().indexDir + ")"
                : r.session().indexDir);
        out.printf(Locale.ROOT, "  files:   %d (%s); %d added, %d modified, %d deleted, %d unchanged%n",
                m.files().size(), Amounts.counts(m.filesByLanguage()), u.filesAdded(), u.filesModified(),
                u.filesDeleted(), u.filesUnchanged());
        out.printf(Locale.ROOT, "  chunks:  %d (%s); %d indexed now, %d deleted%n", m.chunkCount(),
                Amounts.counts(m.chunksBySymbolType()), u.chunksUpserted(), u.chunksDeleted());
        Map<String, Integer> skipped = Amounts.byLabel(u.scan().skippedByReason());
        int skippedTotal = skipped.values().stream().mapToInt(Integer::intValue).sum();
        out.printf(Locale.ROOT, "  skipped: %d%s%n", skippedTotal, skippedTotal == 0 ? ""
                : " (" + Amounts.counts(skipped) + ")");
        long escaping = u.scan().skippedByReason().getOrDefault(SkipReason.OUTSIDE_ROOT, 0);
        if (escaping > 0) {
            u.scan().skipped().stream().filter(s -> s.reason() == SkipReason.OUTSIDE_ROOT).limit(5).forEach(s ->
                    out.printf(Locale.ROOT, "           refused %s -> %s%n", s.path(), s.detail()));
        }
        out.printf(Locale.ROOT, "  dense:   %s%n", denseLine(r));
        out.printf(Locale.ROOT, "  time:    %.1f s, %.0f chunks/s, %.0f files/s (chunks and files indexed now)%n",
                secs, u.chunksUpserted() / Math.max(secs, 1e-9), (u.filesAdded() + u.filesModified())
                        / Math.max(secs, 1e-9));
        if (r.backfilled() > 0) {
            out.printf(Locale.ROOT, "           keyword search was ready after %.1f s; the rest embedded the dense leg%n",
                    r.keywordsReadyNanos() / 1e9);
        }
        if (r.session().qdrantLabel == null) {
            out.printf(Locale.ROOT, "  on disk: %s%n", Amounts.bytes(sizeOf(r.session().indexDir)));
        }
    }

    private static String denseLine(Indexed r) {
        Embedder e = r.session().embedder;
        DenseCoverage c = r.coverage();
        if (e != null) {
            return e.modelId() + " (" + e.dimension() + " dimensions)" + (c == null ? "" : ", " + c.describe())
                    + (r.backfilled() > 0 ? "; " + r.backfilled() + " embedded by this run" : "");
        }
        if (c != null && c.withDense() > 0) {
            return "model not loaded for this run; the index keeps its dense vectors for " + c.describe()
                    + (c.lacking() > 0 ? ": the next run with the model embeds the other " + c.lacking() : "");
        }
        return "off (BM25 only)";
    }

    static long sizeOf(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            return 0;
        }
    }

}
