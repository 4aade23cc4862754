package dev.neuraltext.mcp;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.cli.limits.HeapNeed;
import dev.neuraltext.cli.results.Amounts;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.ingest.ChunkSink;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.IncrementalIndexer;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.retrieve.DenseBackfill;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.DenseCoverage;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexLockedException;
import dev.neuraltext.store.IndexWriteLock;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The index behind {@code neural-text mcp}: a folder's index that answers while it is being built and stays up to date.
 *
 * <ul>
 *   <li><b>Start.</b> The saved index is opened as it is (with the legs it has). If there is none, the first build
 *       starts at once on the worker thread: BM25 first (seconds), searchable while it runs, then the dense model is
 *       loaded and the chunks lacking dense vectors are embedded in the background ({@link DenseBackfill}), saved
 *       every {@value DenseBackfill#DEFAULT_CHECKPOINT_EVERY} chunks.</li>
 *   <li><b>Freshness.</b> {@link #refreshIfStale()} runs before each search: at most once per {@code debounce}, it
 *       compares a {@link TreeStamp} of sizes and modification times and, when it moved, re-indexes the changed files
 *       (BM25 at once; their dense vectors follow in the background). Nothing polls: an idle server does no work.</li>
 *   <li><b>Several instances.</b> One writer per index folder ({@link IndexWriteLock}). An instance that cannot take
 *       the lock still searches: it keeps its own copy up to date in memory (BM25 only, never saved, no embedding),
 *       reloads the saved index when the writer saves, and becomes the writer when the lock frees up.</li>
 * </ul>
 *
 * <p>Thread-safe: searches run concurrently with one update at a time; the worker thread is the only background
 * thread, and it exits when its work is done.
 */
final class LiveIndex implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LiveIndex.class);

    /**
     * The per-file manifest, an attachment of the store's generation (the CLI's name: {@code index} and {@code mcp}
     * share indexes).
     */
    static final String MANIFEST_FILE = "files.tsv";

    /** The phases of the index, for {@code status} and the search notes. */
    enum Phase {
        /** The first BM25 pass over the folder is running; searches see the part already indexed. */
        INDEXING,
        /** BM25 is complete; chunks lacking dense vectors are being embedded. */
        EMBEDDING,
        /** Up to date as of the last check. */
        READY
    }

    /**
     * One consistent state: the store, its manifest and the retrievers over it: {@code search} with the ranking stage,
     * {@code unranked} the same without it, {@code lexical} for indexing.
     */
    private record View(InMemoryCaseStore store, IndexManifest manifest, HybridCaseRetriever search,
            HybridCaseRetriever unranked, HybridCaseRetriever lexical) {
    }

    /** A point-in-time description of the index, for {@code status}. */
    record Status(Path root, Path indexDir, boolean writer, Phase phase, boolean updating, int filesDone,
            int filesToIndex, int files,
            long chunks, java.util.Map<String, Integer> chunksByKind, Set<dev.neuraltext.fusion.Leg> legs,
            DenseCoverage coverage, String denseModel, boolean denseLoaded, String denseNote, Instant lastUpdated,
            Instant lastSaved, String saveProblem, java.util.Map<String, Integer> skipped, String damage) {
    }

    private final Path root;
    private final Path indexDir;
    private final DirectoryIngestor ingestor;
    private final Supplier<Embedder> modelLoader;
    private final Consumer<String> log;
    private final long debounceNanos;
    private final InMemoryCaseStore.Builder config = InMemoryCaseStore.builder();
    private final ReentrantLock updateLock = new ReentrantLock();
    private final SaveRetry saves;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "neural-text-live-index");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean backfillQueued = new AtomicBoolean();
    private final AtomicBoolean saveQueued = new AtomicBoolean();
    private final Set<String> paths = new ConcurrentSkipListSet<>();

    private volatile View view;
    private volatile IndexWriteLock lock;
    private volatile IndexFingerprint asSaved;
    private volatile Embedder embedder;
    private volatile String denseNote = "";
    private volatile Phase phase = Phase.READY;
    private volatile int filesDone;
    private volatile int filesToIndex;
    private volatile Instant lastUpdated;
    private volatile java.util.Map<String, Integer> skipped = java.util.Map.of();
    private volatile long treeStamp;
    private volatile long savedStamp;
    private volatile long lastCheck = Long.MIN_VALUE / 2;
    private volatile boolean closed;
    /** An incremental update (or the first build) is running; {@link #filesDone} of {@link #filesToIndex} so far. */
    private volatile boolean updating;
    /** Whether the note that the index folder cannot be written was given. */
    private volatile boolean unwritableSaid;
    /** The damage met in the saved index at the last open ({@link SavedIndex}), or empty. */
    private volatile String damage = "";

    /**
     * @param modelLoader loads the dense model on the worker thread (null result: BM25 only, with a note); null for
     *                    {@code --no-dense}
     * @param log         receives progress and notes (sent to the client as log notifications)
     */
    LiveIndex(Path root, Path indexDir, DirectoryIngestor ingestor, Supplier<Embedder> modelLoader,
            Consumer<String> log, Duration debounce) {
        this.root = Objects.requireNonNull(root, "root");
        this.indexDir = Objects.requireNonNull(indexDir, "indexDir");
        this.ingestor = Objects.requireNonNull(ingestor, "ingestor");
        this.modelLoader = modelLoader;
        this.log = Objects.requireNonNull(log, "log");
        this.debounceNanos = debounce.toNanos();
        this.saves = new SaveRetry(indexDir, log, this::scheduleSave, SaveRetry.FIRST_DELAY);
        denseNote = modelLoader == null ? "the dense model is off for this server (--no-dense)"
                : "the dense model is still loading: keywords only for now";
    }

    /** Opens the saved index (or an empty one), then starts the first update and the dense work on the worker. */
    void start() {
        tryToBecomeWriter();
        if (lock == null) {
            log.accept("another process is updating the index in " + indexDir + ": this server searches it, keeps its"
                    + " own copy up to date in memory and follows the other's saves");
        }
        long opening = System.nanoTime();
        view = openSaved();
        if (!view.manifest().files().isEmpty()) {
            log.accept(String.format(java.util.Locale.ROOT, "opened the saved index in %s: %d files, %d chunks, "
                    + "dense vectors for %s (%.1f s)", indexDir, view.manifest().files().size(),
                    view.manifest().chunkCount(), view.store().denseCoverage().describe(),
                    (System.nanoTime() - opening) / 1e9));
        }
        long stamp = remembered(TreeStamp.scan(root, indexDir));
        // the worker's first update covers the tree as it is now: searches meanwhile need no check of their own
        treeStamp = stamp;
        lastCheck = System.nanoTime();
        boolean fresh = view.manifest().files().isEmpty();
        phase = fresh ? Phase.INDEXING : Phase.READY;
        worker.execute(() -> {
            try {
                update(null, stamp, fresh);
                loadModel();
                scheduleBackfill();
            } catch (RuntimeException | OutOfMemoryError e) {
                log.accept("indexing " + root + " failed: " + (e instanceof OutOfMemoryError ? HeapNeed.outOfMemory()
                        : e.getMessage()));
                LOG.warn("indexing {} failed", root, e);
            } finally {
                if (phase == Phase.INDEXING) {
                    phase = Phase.READY;
                }
            }
        });
    }

    private void tryToBecomeWriter() {
        try {
            lock = IndexWriteLock.acquire(indexDir);
        } catch (IndexLockedException e) {
            lock = null;
        } catch (UncheckedIOException e) {
            lock = null;
            if (unwritableSaid) {
                return; // said once; each staleness check tries again quietly
            }
            unwritableSaid = true;
            log.accept("cannot write the index in " + indexDir + " (" + e.getMessage() + "): searching in memory only, "
                    + "rebuilt at every start; to keep it, start the server with --index DIR naming a writable folder "
                    + "elsewhere");
        }
    }

    private View openSaved() {
        SavedIndex.Opened opened = SavedIndex.open(config, indexDir, MANIFEST_FILE, log);
        if (InMemoryCaseStore.exists(indexDir)) {
            savedStamp = TreeStamp.ofIndexFolder(indexDir, IndexWriteLock.FILE_NAME);
        }
        asSaved = opened.store() != null ? opened.asSaved() : asSaved;
        damage = opened.damage();
        InMemoryCaseStore store = opened.store() != null ? opened.store() : config.build();
        IndexManifest manifest = opened.store() != null ? opened.manifest() : IndexManifest.empty("");
        paths.clear();
        paths.addAll(manifest.files().keySet());
        return viewOf(store, manifest);
    }

    private View viewOf(InMemoryCaseStore store, IndexManifest manifest) {
        return new View(store, manifest, searching(store, RepositoryRanking.wholeRepository()),
                searching(store, RepositoryRanking.off()), HybridCaseRetriever.builder(store).build());
    }

    /** A retriever over {@code store} with the dense model when there is one, ranking with {@code ranking}. */
    private HybridCaseRetriever searching(InMemoryCaseStore store, RepositoryRanking ranking) {
        HybridCaseRetriever.Builder b = HybridCaseRetriever.builder(store).ranking(ranking);
        Embedder e = embedder;
        if (e != null) {
            b.embedder(e);
        }
        return b.build();
    }

    // ------------------------------------------------------------------ search

    /** Searches the current state (after {@link #refreshIfStale()}, which the caller runs first). */
    SearchResponse search(SearchRequest request) {
        return search(request, true);
    }

    /** As {@link #search(SearchRequest)}; {@code ranked} false: the fused order as is (no ranking stage). */
    SearchResponse search(SearchRequest request, boolean ranked) {
        View v = view;
        return (ranked ? v.search() : v.unranked()).search(request);
    }

    /** The indexed file paths (relative, forward slashes), for path filters; grows during the first build. */
    Set<String> paths() {
        return paths;
    }

    /** A related-code finder over the current state (a snapshot of its chunks). */
    dev.neuraltext.retrieve.RelatedCode related() {
        return dev.neuraltext.retrieve.RelatedCode.over(view.store());
    }

    /** The stored chunk with this id. */
    Optional<ChunkInput> chunk(String id) {
        return view.store().chunk(id);
    }

    /**
     * The debounced staleness check: when the tree (or, for a reader, the saved index) changed since the last look,
     * re-indexes the changed files. It does not check when it checked within the debounce interval, and returns at
     * once when an update is running; the answer says which ({@link Freshness}), so that a search never passes off
     * an old tree's results as current. A save or a dense checkpoint holding the index is waited for (at most
     * {@value #CHECK_WAIT_MILLIS} ms), not taken for an update.
     *
     * @return what the results about to be computed reflect
     */
    Freshness refreshIfStale() {
        long now = System.nanoTime();
        if (closed) {
            return freshness(Optional.empty(), false);
        }
        if (updating) {
            return freshness(Optional.empty(), false);
        }
        if (now - lastCheck < debounceNanos) {
            return freshness(Optional.empty(), false);
        }
        try {
            long deadline = now + CHECK_WAIT_MILLIS * 1_000_000L;
            while (!updateLock.tryLock(20, TimeUnit.MILLISECONDS)) {
                if (updating || System.nanoTime() > deadline) {
                    return freshness(Optional.empty(), false); // an update runs: its results show as they come
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return freshness(Optional.empty(), false);
        }
        try {
            long checkStart = System.nanoTime();
            if (lastCheck >= now) { // another search checked the tree after this one came: its update is as fresh
                return freshness(Optional.empty(), true);
            }
            lastCheck = checkStart;
            if (lock == null) {
                followTheWriter();
            }
            TreeStamp.Scan scan = TreeStamp.scan(root, indexDir);
            if (scan.stamp() == treeStamp) {
                treeStamp = remembered(scan);
                return freshness(Optional.empty(), true);
            }
            return freshness(Optional.of(update(null, remembered(scan), false)), true);
        } finally {
            updateLock.unlock();
        }
    }

    /** How long a search waits for a save to release the index before it answers without checking. */
    static final long CHECK_WAIT_MILLIS = 10_000;

    /** The stamp to compare the next scan with: one that cannot match when this scan was racy. */
    private static long remembered(TreeStamp.Scan scan) {
        return scan.racy() ? ~scan.stamp() : scan.stamp();
    }

    private Freshness freshness(Optional<IndexChange> change, boolean checkedNow) {
        int changed = change.map(c -> c.added().size() + c.modified().size() + c.deleted().size()).orElse(0);
        boolean running = updating;
        return new Freshness(changed, checkedNow, running, running ? filesDone : 0, running ? filesToIndex : 0,
                Math.max(0, (System.nanoTime() - lastCheck) / 1_000_000L), debounceNanos / 1_000_000L);
    }

    /** {@code reindex}: an incremental update now, whatever the debounce says. */
    IndexChange reindex(Consumer<IndexUpdate.Progress> progress) {
        updateLock.lock();
        try {
            lastCheck = System.nanoTime();
            if (lock == null) {
                followTheWriter();
            }
            return update(progress, remembered(TreeStamp.scan(root, indexDir)), false);
        } finally {
            updateLock.unlock();
        }
    }

    /** A reader: take the lock if the writer has gone; otherwise reload the saved index when the writer saved. */
    private void followTheWriter() {
        tryToBecomeWriter();
        if (lock != null) {
            log.accept("this server now updates the index in " + indexDir);
            save(view);
            scheduleBackfill();
            return;
        }
        if (!InMemoryCaseStore.exists(indexDir)) {
            return;
        }
        long saved = TreeStamp.ofIndexFolder(indexDir, IndexWriteLock.FILE_NAME);
        if (saved != savedStamp) {
            View old = view;
            view = openSaved();
            treeStamp = 0; // re-apply this tree's changes on top of what the writer saved
            old.store().close();
        }
    }

    private IndexChange update(Consumer<IndexUpdate.Progress> progress, long stamp, boolean first) {
        updateLock.lock();
        updating = true;
        filesDone = 0;
        filesToIndex = 0;
        try {
            View v = view;
            long start = System.nanoTime();
            long[] lastLog = {start};
            boolean[] announced = {first};
            IndexUpdate u = IncrementalIndexer.builder(ingestor).batchSize(64)
                    .afterScan(scan -> HeapNeed.require(scan, Runtime.getRuntime().maxMemory(), modelLoader != null))
                    .progress(p -> {
                filesDone = p.filesDone();
                filesToIndex = p.filesToIndex();
                if (!announced[0] && p.filesToIndex() > 0) {
                    announced[0] = true;
                    log.accept("re-indexing " + p.filesToIndex() + " changed files");
                }
                if (progress != null) {
                    progress.accept(p);
                }
                long now = System.nanoTime();
                if (first && now - lastLog[0] > 2_000_000_000L) {
                    lastLog[0] = now;
                    log.accept("indexing " + root + " (BM25): " + p.filesDone() + " of " + p.filesToIndex()
                            + " files, " + p.chunksDone() + " chunks");
                }
            }).build().update(v.manifest(), ChunkSink.of(chunks -> {
                v.lexical().index(chunks);
                for (ChunkInput c : chunks) {
                    String path = c.metadata().get(ChunkMetadata.PATH);
                    if (path != null) {
                        paths.add(path);
                    }
                }
            }, (Collection<String> ids) -> v.lexical().delete(ids)));
            view = new View(v.store(), u.manifest(), v.search(), v.unranked(), v.lexical());
            paths.retainAll(u.manifest().files().keySet());
            treeStamp = stamp;
            lastUpdated = Instant.now();
            skipped = Amounts.byLabel(u.scan().skippedByReason());
            if (first) {
                save(view);
            } else if (u.changed()) {
                scheduleSave(); // off the request thread: a search waits for the re-indexing only
            }
            if (!first && u.changed()) {
                log.accept(String.format(java.util.Locale.ROOT, "re-indexed %d added, %d modified, %d deleted files "
                        + "(%.1f s)", u.filesAdded(), u.filesModified(), u.filesDeleted(),
                        (System.nanoTime() - start) / 1e9));
            }
            if (first) {
                log.accept(String.format(java.util.Locale.ROOT, "BM25 index of %s ready: %d files, %d chunks in %.1f s",
                        root, u.manifest().files().size(), u.manifest().chunkCount(), (System.nanoTime() - start) / 1e9));
                phase = Phase.READY;
            }
            if (u.changed()) {
                scheduleBackfill();
            }
            return IndexChange.between(v.manifest(), u);
        } finally {
            updating = false;
            updateLock.unlock();
        }
    }

    private void scheduleSave() {
        if (lock == null || closed || !saveQueued.compareAndSet(false, true)) {
            return;
        }
        worker.execute(() -> {
            saveQueued.set(false);
            updateLock.lock();
            try {
                save(view);
            } finally {
                updateLock.unlock();
            }
        });
    }

    /** Saves store and manifest (in one generation) when this instance is the writer; a failure is retried. */
    private void save(View v) {
        IndexWriteLock l = lock;
        if (l != null) {
            saves.run(() -> v.store().save(l, fingerprint(v.store()), java.util.Map.of(MANIFEST_FILE,
                    v.manifest().toBytes())));
        }
    }

    private IndexFingerprint fingerprint(InMemoryCaseStore store) {
        IndexFingerprint f = config.fingerprint();
        if (store.denseDimension().isEmpty()) {
            return f;
        }
        Embedder e = embedder;
        if (e != null) {
            return f.withDense(e);
        }
        IndexFingerprint saved = asSaved;
        return f.withDense(saved.denseModel(), saved.denseDimension());
    }

    // ------------------------------------------------------------------ dense

    private void loadModel() {
        if (modelLoader == null || embedder != null) {
            return;
        }
        Embedder e = modelLoader.get();
        if (e == null) {
            denseNote = "the dense model could not be loaded: BM25 only";
            return;
        }
        IndexFingerprint saved = asSaved;
        if (saved != null && !saved.denseModel().isEmpty() && (!saved.denseModel().equals(e.modelId())
                || saved.denseDimension() != e.dimension())) {
            denseNote = "the index was built with the dense model '" + saved.denseModel() + "', this server has '"
                    + e.modelId() + "': BM25 only (run `neural-text index --drop-dense` to rebuild it)";
            log.accept(denseNote);
            close(e);
            return;
        }
        embedder = e;
        updateLock.lock();
        try {
            View v = view;
            view = viewOf(v.store(), v.manifest());
        } finally {
            updateLock.unlock();
        }
    }

    private void scheduleBackfill() {
        if (modelLoader == null || lock == null || closed || !backfillQueued.compareAndSet(false, true)) {
            return;
        }
        worker.execute(() -> {
            backfillQueued.set(false);
            try {
                loadModel();
                backfill();
            } catch (RuntimeException e) {
                log.accept("embedding dense vectors failed: " + e.getMessage() + " (BM25 keeps working)");
            } finally {
                if (phase == Phase.EMBEDDING) {
                    phase = Phase.READY;
                }
            }
        });
    }

    private void backfill() {
        Embedder e = embedder;
        View current = view;
        InMemoryCaseStore store = current.store();
        if (e == null || lock == null || store.denseCoverage().lacking() == 0) {
            return;
        }
        phase = Phase.EMBEDDING;
        log.accept("embedding dense vectors for " + store.denseCoverage().lacking() + " chunks in the background");
        long[] lastLog = {System.nanoTime()};
        DenseBackfill.Result r = DenseBackfill.builder(store, e).denseText(current.search().denseText())
                .stopWhen(() -> closed).checkpoint(DenseBackfill.DEFAULT_CHECKPOINT_EVERY,
                () -> {
                    updateLock.lock();
                    try {
                        if (view.store() == store) {
                            save(view);
                        }
                    } finally {
                        updateLock.unlock();
                    }
                }).progress(c -> {
                    long now = System.nanoTime();
                    if (now - lastLog[0] > 2_000_000_000L) {
                        lastLog[0] = now;
                        log.accept("embedding: dense vectors for " + c.describe());
                    }
                }).build().run();
        if (!r.interrupted()) {
            log.accept("dense vectors for " + r.coverage().describe());
        }
    }

    // ------------------------------------------------------------------ status

    /** What the index holds and what it is doing. */
    Status status() {
        View v = view;
        Embedder e = embedder;
        IndexFingerprint saved = asSaved;
        String model = e != null ? e.modelId() : saved != null ? saved.denseModel() : "";
        return new Status(root, indexDir, lock != null, phase, updating, filesDone, filesToIndex,
                v.manifest().files().size(),
                v.store().count(PayloadFilter.all()), v.manifest().chunksBySymbolType(), v.store().legsWithData(),
                v.store().denseCoverage(), model, e != null, e != null ? "" : denseNote, lastUpdated, saves.lastSaved(),
                saves.problem().orElse(""), skipped, damage);
    }

    /** The file manifest of the current state. */
    IndexManifest manifest() {
        return view.manifest();
    }

    /** Checksums of what the index holds now ({@link IndexDigest}); taken between updates. */
    IndexDigest digest() {
        updateLock.lock();
        try {
            View v = view;
            return IndexDigest.of(v.store(), v.manifest());
        } finally {
            updateLock.unlock();
        }
    }

    /** Whether the dense model is loaded for query encoding. */
    boolean denseLoaded() {
        return embedder != null;
    }

    /** Whether this instance writes the index (holds its lock). */
    boolean writer() {
        return lock != null;
    }

    /** The indexed root. */
    Path root() {
        return root;
    }

    /**
     * Stops the worker (an embedding run stops after its batch and saves; a first BM25 build gets 30 s to finish and
     * save, then is interrupted), then releases the store, the model and the lock.
     */
    @Override
    public void close() {
        closed = true;
        saves.close();
        worker.shutdown(); // no interrupt: it would break a save's file writes
        try {
            if (!worker.awaitTermination(30, TimeUnit.SECONDS)) {
                log.accept("the background indexer did not finish within 30 s: stopping it");
                worker.shutdownNow();
                worker.awaitTermination(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            View v = view;
            if (v != null) {
                v.store().close();
            }
        } finally {
            close(embedder);
            IndexWriteLock l = lock;
            if (l != null) {
                l.close();
            }
        }
    }

    private static void close(Embedder e) {
        if (e instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception ex) {
                // releasing native memory at exit: nothing to do with a failure
            }
        }
    }
}
