package dev.neuraltext.ingest;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.internal.ControlChars;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings an index up to date with a folder: scans it with a {@link DirectoryIngestor}, compares each file's content
 * hash with the previous {@link IndexManifest}, re-chunks and re-indexes only added and modified files, deletes the
 * chunks of deleted files and the chunks a modified file no longer has, and leaves the rest untouched. A change of
 * the chunking configuration re-chunks every file.
 *
 * <p>Typical use, with the manifest committed in the store's own generation so that the two never disagree, and the
 * folder's write lock held from load to save so that no other writer interleaves:
 * <pre>{@code
 * try (IndexWriteLock lock = IndexWriteLock.acquire(dir)) {
 *     InMemoryCaseStore store = InMemoryCaseStore.load(dir, expected);
 *     IndexManifest previous = store.loadedAttachment("files.tsv").map(b -> IndexManifest.fromBytes(b, "files.tsv"))
 *             .orElse(IndexManifest.empty(""));
 *     IndexUpdate update = IncrementalIndexer.builder(ingestor).build()
 *             .update(previous, ChunkSink.of(retriever::index, retriever::delete));
 *     store.save(lock, retriever.fingerprint(), Map.of("files.tsv", update.manifest().toBytes()));
 * }
 * }</pre>
 *
 * <p>Defaults: batches of 64 chunks, no progress listener. Immutable; one update at a time per index.
 */
public final class IncrementalIndexer {
    private static final Logger LOG = LoggerFactory.getLogger(IncrementalIndexer.class);


    private final DirectoryIngestor ingestor;
    private final int batchSize;
    private final Consumer<IndexUpdate.Progress> progress;
    private final Consumer<ScanResult> afterScan;

    private IncrementalIndexer(Builder b) {
        this.ingestor = b.ingestor;
        this.batchSize = b.batchSize;
        this.progress = b.progress;
        this.afterScan = b.afterScan;
    }

    /** A builder over {@code ingestor}. */
    public static Builder builder(DirectoryIngestor ingestor) {
        return new Builder(ingestor);
    }

    /**
     * Scans the folder and applies the differences to {@code sink}.
     *
     * @param previous the manifest of the index as it is ({@link IndexManifest#empty(String)} for a new index)
     * @param sink     receives upserts (in batches) and then one delete
     * @return what changed and the new manifest; exceptions from the sink propagate (the manifest is then stale:
     *         do not save it)
     */
    public IndexUpdate update(IndexManifest previous, ChunkSink sink) {
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(sink, "sink");
        long start = System.nanoTime();
        String config = ingestor.chunkingConfiguration();
        boolean sameConfig = config.equals(previous.configuration());
        ScanResult scan = ingestor.scan();
        if (afterScan != null) {
            afterScan.accept(scan);
        }

        Map<String, IndexManifest.FileEntry> next = new TreeMap<>();
        List<SourceFile> toIndex = new ArrayList<>();
        int added = 0;
        int modified = 0;
        int unchanged = 0;
        for (SourceFile f : scan.files()) {
            IndexManifest.FileEntry old = previous.files().get(f.path());
            if (old == null) {
                added++;
                toIndex.add(f);
            } else if (!sameConfig || !old.hash().equals(f.contentHash()) || !old.language().equals(f.language())) {
                modified++;
                toIndex.add(f);
            } else {
                unchanged++;
                next.put(f.path(), old);
            }
        }
        Set<String> stale = new TreeSet<>();
        int deletedFiles = 0;
        Set<String> scanned = new HashSet<>();
        scan.files().forEach(f -> scanned.add(f.path()));
        for (Map.Entry<String, IndexManifest.FileEntry> e : previous.files().entrySet()) {
            if (!scanned.contains(e.getKey())) {
                deletedFiles++;
                stale.addAll(e.getValue().chunkIds());
            }
        }

        List<ChunkInput> batch = new ArrayList<>();
        List<String> upsertedIds = new ArrayList<>();
        Map<String, Integer> byType = new LinkedHashMap<>();
        int filesDone = 0;
        int chunksDone = 0;
        List<SkippedFile> vanished = new ArrayList<>();
        for (SourceFile f : toIndex) {
            DirectoryIngestor.FileChunks fc;
            try {
                fc = ingestor.chunk(f);
            } catch (NonRetriableNeuralTextException e) {
                if (!(e.getCause() instanceof IOException io)) {
                    throw e;
                }
                // deleted, truncated away or made unreadable between the scan and this read: the run goes on,
                // the file is treated as gone (its old chunks are deleted) and is counted once as skipped
                LOG.warn("skipped {}: it could not be read after the scan listed it: {}",
                        ControlChars.escapeLine(f.path()), io.toString());
                vanished.add(new SkippedFile(f.path(), SkipReason.UNREADABLE, io.toString()));
                IndexManifest.FileEntry gone = previous.files().get(f.path());
                if (gone != null) {
                    stale.addAll(gone.chunkIds());
                }
                filesDone++;
                continue;
            }
            List<IndexManifest.ChunkRef> refs = new ArrayList<>();
            Set<String> newIds = new HashSet<>();
            for (ChunkInput c : fc.chunks()) {
                String type = c.metadata().getOrDefault(ChunkMetadata.SYMBOL_TYPE, "");
                refs.add(new IndexManifest.ChunkRef(c.id(), type));
                newIds.add(c.id());
                byType.merge(type.isEmpty() ? "other" : type, 1, Integer::sum);
                upsertedIds.add(c.id());
                batch.add(c);
                if (batch.size() >= batchSize) {
                    // inside a file too: a huge file is many batches, and progress moves by chunks between files
                    sink.upsert(List.copyOf(batch));
                    chunksDone += batch.size();
                    batch.clear();
                    report(filesDone, toIndex.size(), chunksDone);
                }
            }
            IndexManifest.FileEntry old = previous.files().get(f.path());
            if (old != null) {
                for (String id : old.chunkIds()) {
                    if (!newIds.contains(id)) {
                        stale.add(id);
                    }
                }
            }
            next.put(f.path(), new IndexManifest.FileEntry(fc.contentHash(), f.language(), refs));
            filesDone++;
        }
        if (!batch.isEmpty()) {
            sink.upsert(List.copyOf(batch));
            chunksDone += batch.size();
            batch.clear();
        }
        // an id may move between files (a renamed file keeps none, but be safe): never delete what was just indexed
        stale.removeAll(new HashSet<>(upsertedIds));
        if (!stale.isEmpty()) {
            sink.delete(List.copyOf(stale));
        }
        report(filesDone, toIndex.size(), chunksDone);
        if (!vanished.isEmpty()) {
            List<SkippedFile> skipped = new ArrayList<>(scan.skipped());
            skipped.addAll(vanished);
            List<SourceFile> read = new ArrayList<>(scan.files());
            read.removeIf(f -> vanished.stream().anyMatch(v -> v.path().equals(f.path())));
            scan = new ScanResult(read, skipped);
        }
        return new IndexUpdate(new IndexManifest(config, next), scan, added, modified, deletedFiles, unchanged,
                upsertedIds.size(), stale.size(), byType, Duration.ofNanos(System.nanoTime() - start), upsertedIds,
                List.copyOf(stale));
    }

    private void report(int filesDone, int total, int chunks) {
        if (progress != null) {
            progress.accept(new IndexUpdate.Progress(filesDone, total, chunks));
        }
    }

    /** Builder of {@link IncrementalIndexer}; not thread-safe. */
    public static final class Builder {
        private final DirectoryIngestor ingestor;
        private int batchSize = 64;
        private Consumer<IndexUpdate.Progress> progress;
        private Consumer<ScanResult> afterScan;

        private Builder(DirectoryIngestor ingestor) {
            this.ingestor = Objects.requireNonNull(ingestor, "ingestor");
        }

        /** Chunks per {@link ChunkSink#upsert} call. Default 64. */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
            }
            this.batchSize = batchSize;
            return this;
        }

        /**
         * Called after each batch of chunks (also between the batches of one large file) and at the end, on the
         * updating thread. Default: none.
         */
        public Builder progress(Consumer<IndexUpdate.Progress> listener) {
            this.progress = listener;
            return this;
        }

        /**
         * Called once the folder is scanned, before any file is read, with every file the index will hold (a check of
         * what the update needs, such as memory); what it throws ends the update before anything changed. Default:
         * none.
         */
        public Builder afterScan(Consumer<ScanResult> check) {
            this.afterScan = check;
            return this;
        }

        public IncrementalIndexer build() {
            return new IncrementalIndexer(this);
        }
    }
}
