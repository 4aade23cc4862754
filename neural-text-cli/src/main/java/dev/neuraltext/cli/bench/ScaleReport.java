package dev.neuraltext.cli.bench;

import dev.neuraltext.internal.AtomicFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The figures of one {@link ScaleBenchmark} run and their reports: the latency and index tables on the console and
 * every figure as JSON. Not thread-safe.
 */
final class ScaleReport {

    private final int docs;
    private final PrintStream out;
    private final List<Figure> figures = new ArrayList<>();

    ScaleReport(int docs, PrintStream out) {
        this.docs = docs;
        this.out = out;
    }

    /** One figure of the report. */
    record Figure(int docs, String engine, String leg, String metric, double value) {
    }

    /** The build, size, save and load figures of one engine's index of {@code n} chunks, and a line saying them. */
    void buildFigures(String engine, String leg, int n, double build, long heap, long loadedHeap, long disk,
            double save, double load) {
        figure(engine, leg, "build_s", build);
        figure(engine, leg, "build_docs_per_s", n / build);
        figure(engine, leg, "heap_bytes_per_chunk", (double) heap / n);
        figure(engine, leg, "heap_bytes_per_chunk_loaded", (double) loadedHeap / n);
        figure(engine, leg, "disk_bytes_per_chunk", (double) disk / n);
        figure(engine, leg, "save_s", save);
        figure(engine, leg, "load_s", load);
        out.printf(Locale.ROOT, "  %s %s: built in %.1f s, %.0f B/chunk heap (%.0f loaded), %.0f B/chunk on disk%n",
                engine, leg, build, (double) heap / n, (double) loadedHeap / n, (double) disk / n);
    }

    /** The latency table of {@code runners} (p50, p95, p99, the ratio to the reference, dense recall). */
    void latencies(List<ScaleBenchmark.Runner> runners) {
        out.printf(Locale.ROOT, "%n%-20s %-8s %9s %9s %9s %12s %10s%n", "engine", "leg", "p50 ms", "p95 ms", "p99 ms",
                "p50 ratio", "recall@10");
        for (ScaleBenchmark.Runner r : runners) {
            Double recall = optional(r.engine(), r.leg(), "recall_at_10");
            out.printf(Locale.ROOT, "%-20s %-8s %9.3f %9.3f %9.3f %11.2fx %10s%n", r.engine(), r.leg(),
                    value(r.engine(), r.leg(), "p50_ms"), value(r.engine(), r.leg(), "p95_ms"),
                    value(r.engine(), r.leg(), "p99_ms"),
                    value(r.engine(), r.leg(), "p50_ratio_to_" + r.reference()),
                    recall == null ? "" : String.format(Locale.ROOT, "%.3f", recall));
        }
        out.printf(Locale.ROOT, "(ratio: p50 over the p50 of %s for bm25, %s for dense, %s for hybrid)%n",
                ScaleBenchmark.LUCENE_BM25, ScaleBenchmark.LUCENE_SCAN, ScaleBenchmark.LUCENE_HYBRID);
    }

    /** The index table: build time and throughput, heap, disk, save and load per engine and leg. */
    void indexes() {
        int n = docs;
        out.printf(Locale.ROOT, "%n%-20s %-10s %9s %10s %11s %11s %11s %8s %8s%n", "engine", "index", "build s",
                "docs/s", "heap B/ch", "loaded B/ch", "disk B/ch", "save s", "load s");
        for (Figure f : figures) {
            if (!f.metric().equals("build_s")) {
                continue;
            }
            String e = f.engine();
            String l = f.leg();
            out.printf(Locale.ROOT, "%-20s %-10s %9.2f %10.0f %11.0f %11.0f %11.0f %8.2f %8.2f%n", e, l, f.value(),
                    value(e, l, "build_docs_per_s"), value(e, l, "heap_bytes_per_chunk"),
                    value(e, l, "heap_bytes_per_chunk_loaded"), value(e, l, "disk_bytes_per_chunk"),
                    value(e, l, "save_s"), value(e, l, "load_s"));
        }
        out.printf(Locale.ROOT, "(%,d chunks; heap is retained heap after a full GC; Lucene's indexes are memory-mapped,"
                + " so their heap excludes the mapped files)%n", n);
    }

    void figure(String engine, String leg, String metric, double value) {
        figures.add(new Figure(docs, engine, leg, metric, value));
    }

    double value(String engine, String leg, String metric) {
        Double v = optional(engine, leg, metric);
        if (v == null) {
            throw new IllegalStateException("no figure " + metric + " for " + engine + " " + leg);
        }
        return v;
    }

    Double optional(String engine, String leg, String metric) {
        for (Figure f : figures) {
            if (f.engine().equals(engine) && f.leg().equals(leg) && f.metric().equals(metric)) {
                return f.value();
            }
        }
        return null;
    }

    /** Every figure as a JSON array of records {@code {docs, engine, leg, metric, value}}. */
    void writeJson(Path file) throws IOException {
        StringBuilder json = new StringBuilder("[\n");
        for (int i = 0; i < figures.size(); i++) {
            Figure f = figures.get(i);
            json.append(String.format(Locale.ROOT, "  {\"docs\": %d, \"engine\": \"%s\", \"leg\": \"%s\","
                    + " \"metric\": \"%s\", \"value\": %s}", f.docs(), f.engine(), f.leg(), f.metric(),
                    Double.isFinite(f.value()) ? Double.toString(f.value()) : "null"));
            json.append(i + 1 < figures.size() ? ",\n" : "\n");
        }
        json.append("]\n");
        AtomicFiles.writeString(file, json.toString());
    }
}
