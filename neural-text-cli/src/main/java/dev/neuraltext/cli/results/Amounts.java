package dev.neuraltext.cli.results;

import dev.neuraltext.ingest.SkipReason;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How the tool writes amounts for people, the same in {@code index}'s summary and the MCP server's status: a size in
 * bytes ({@code 412.0 KiB}), counts by name, most first ({@code java 12, markdown 3}), and skipped files by the label
 * of their reason. Stateless.
 */
public final class Amounts {

    private Amounts() {
    }

    /** {@code 512 B}, {@code 3.2 KiB} or {@code 41.7 MiB}. */
    public static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }

    /** {@code name count} pairs, the largest count first, comma-separated. */
    public static String counts(Map<String, Integer> counts) {
        return counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue())
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    /** Skipped files counted by the label of their reason ({@code hidden}, {@code over size limit}), in order. */
    public static Map<String, Integer> byLabel(Map<SkipReason, Integer> skipped) {
        return skipped.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().label(), Map.Entry::getValue,
                Integer::sum, LinkedHashMap::new));
    }
}
