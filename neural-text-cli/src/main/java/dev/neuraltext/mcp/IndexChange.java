package dev.neuraltext.mcp;

import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one update of the {@link LiveIndex} changed: the files added, modified and deleted (relative paths, sorted) and
 * the update itself. Immutable.
 */
record IndexChange(IndexUpdate update, List<String> added, List<String> modified, List<String> deleted) {

    IndexChange {
        Objects.requireNonNull(update, "update");
        added = List.copyOf(added);
        modified = List.copyOf(modified);
        deleted = List.copyOf(deleted);
    }

    static IndexChange between(IndexManifest before, IndexUpdate update) {
        Map<String, IndexManifest.FileEntry> old = before.files();
        Map<String, IndexManifest.FileEntry> now = update.manifest().files();
        List<String> added = now.keySet().stream().filter(p -> !old.containsKey(p)).sorted().toList();
        List<String> modified = now.entrySet().stream().filter(e -> old.containsKey(e.getKey())
                && !old.get(e.getKey()).equals(e.getValue())).map(Map.Entry::getKey).sorted().toList();
        List<String> deleted = old.keySet().stream().filter(p -> !now.containsKey(p)).sorted().toList();
        return new IndexChange(update, added, modified, deleted);
    }
}
