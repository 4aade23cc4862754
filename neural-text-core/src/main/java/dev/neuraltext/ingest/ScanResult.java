package dev.neuraltext.ingest;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link DirectoryIngestor#scan()} found: the files to index (sorted by path) and what it skipped.
 *
 * @param files   files to index
 * @param skipped files and directories skipped, with the reason
 */
public record ScanResult(List<SourceFile> files, List<SkippedFile> skipped) {
    public ScanResult {
        files = List.copyOf(files);
        skipped = List.copyOf(skipped);
    }

    /** Number of files per language, sorted by language. */
    public Map<String, Integer> filesByLanguage() {
        Map<String, Integer> out = new TreeMap<>();
        for (SourceFile f : files) {
            out.merge(f.language(), 1, Integer::sum);
        }
        return Collections.unmodifiableMap(out);
    }

    /** Number of skipped entries per reason, in the reasons' declaration order. */
    public Map<SkipReason, Integer> skippedByReason() {
        Map<SkipReason, Integer> out = new EnumMap<>(SkipReason.class);
        for (SkippedFile s : skipped) {
            out.merge(s.reason(), 1, Integer::sum);
        }
        return Collections.unmodifiableMap(out);
    }
}
