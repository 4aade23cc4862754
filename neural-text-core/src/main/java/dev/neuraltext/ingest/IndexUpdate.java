package dev.neuraltext.ingest;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The outcome of one {@link IncrementalIndexer#update}: what changed and the manifest describing the index now.
 *
 * @param manifest              the new manifest, to save once the store is saved
 * @param scan                  the scan it was based on (files, skipped entries with reasons)
 * @param filesAdded            files new since the previous manifest
 * @param filesModified         files whose content (or the chunking configuration) changed
 * @param filesDeleted          files gone (or now excluded) since the previous manifest
 * @param filesUnchanged        files left untouched
 * @param chunksUpserted        chunks sent to the sink for indexing
 * @param chunksDeleted         chunk ids sent to the sink for deletion
 * @param upsertedBySymbolType  chunks indexed in this run per symbol type
 * @param elapsed               wall time of the update
 * @param upsertedIds           ids of the chunks indexed in this run, in order
 * @param deletedIds            ids deleted in this run, sorted
 */
public record IndexUpdate(
        IndexManifest manifest,
        ScanResult scan,
        int filesAdded,
        int filesModified,
        int filesDeleted,
        int filesUnchanged,
        int chunksUpserted,
        int chunksDeleted,
        Map<String, Integer> upsertedBySymbolType,
        Duration elapsed,
        List<String> upsertedIds,
        List<String> deletedIds) {

    public IndexUpdate {
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(scan, "scan");
        Objects.requireNonNull(elapsed, "elapsed");
        upsertedBySymbolType = Collections.unmodifiableMap(new TreeMap<>(upsertedBySymbolType));
        upsertedIds = List.copyOf(upsertedIds);
        deletedIds = List.copyOf(deletedIds);
    }

    /** Whether anything in the index changed. */
    public boolean changed() {
        return chunksUpserted > 0 || chunksDeleted > 0 || filesAdded + filesModified + filesDeleted > 0;
    }

    /**
     * Progress of an update, reported after each batch.
     *
     * @param filesDone    files chunked so far (of those to re-index)
     * @param filesToIndex files to re-index in this update (added plus modified)
     * @param chunksDone   chunks indexed so far
     */
    public record Progress(int filesDone, int filesToIndex, int chunksDone) {
    }
}
