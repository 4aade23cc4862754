package dev.neuraltext.cli;

import dev.neuraltext.cli.limits.HeapNeed;
import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.NeuralTextException;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.ingest.ChunkSink;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.IncrementalIndexer;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.retrieve.DenseText;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.qdrant.QdrantCaseStore;
import dev.neuraltext.qdrant.QdrantIndexRun;
import dev.neuraltext.retrieve.DenseBackfill;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.CorruptIndexException;
import dev.neuraltext.store.DenseCoverage;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexLockedException;
import dev.neuraltext.store.IndexMismatchException;
import dev.neuraltext.store.IndexNotFoundException;
import dev.neuraltext.store.IndexWriteLock;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.Map;

/** Opening, updating and saving the on-disk index the CLI commands share. */
final class IndexSession implements AutoCloseable {

    /** The index folder inside an indexed folder, by default. */
    static final String DEFAULT_INDEX_DIR = ".neural-text";
    /** The per-file manifest: an attachment of the store's generation, committed and checksummed with it. */
    static final String MANIFEST_FILE = "files.tsv";
    /** The points of an {@link #index} run where {@link #pause} is called. */
    enum Step {
        /** The run holds the index's write lock and has not read the index yet. */
        LOCKED,
        /** The run has saved its BM25 leg (searchable now) and is about to embed the dense vectors. */
        BEFORE_EMBEDDING
    }

    /**
     * Called at each {@link Step} of an {@link #index} run on the running thread: nothing in the product. A seam for
     * the tests of this package (they hold a run at a step, in the same JVM, to make two writers meet or to search a
     * half-built index); package-private, so no other code can set it.
     */
    static volatile java.util.function.Consumer<Step> pause = step -> { };

    final Path indexDir;
    final CaseStore store;
    /** The session's search: {@link RepositoryRanking#wholeRepository()} unless {@link #rankWith} changed it. */
    HybridCaseRetriever retriever;
    final Embedder embedder;
    /** "host:port/collection" when the store is Qdrant, else null. */
    final String qdrantLabel;

    private IndexSession(Path indexDir, CaseStore store, Embedder embedder) {
        this(indexDir, store, embedder, null);
    }

    private IndexSession(Path indexDir, CaseStore store, Embedder embedder, String qdrantLabel) {
        this.qdrantLabel = qdrantLabel;
        this.indexDir = indexDir;
        this.store = store;
        this.embedder = embedder;
        this.retriever = retriever(RepositoryRanking.wholeRepository());
    }

    /** Searches from now on with {@code ranking} ({@code search --no-ranking}: {@link RepositoryRanking#off()}). */
    void rankWith(RepositoryRanking ranking) {
        this.retriever = retriever(ranking);
    }

    private HybridCaseRetriever retriever(RepositoryRanking ranking) {
        HybridCaseRetriever.Builder b = HybridCaseRetriever.builder(store).ranking(ranking);
        if (embedder != null) {
            b.embedder(embedder);
        }
        return b.build();
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            DenseModel.close(embedder);
        }
    }

    /** Where a Qdrant collection lives: {@code --qdrant host[:port]} and {@code --collection}. */
    record QdrantTarget(String host, int port, String collection) {
        static QdrantTarget parse(String spec, String collection) {
            if (spec == null) {
                return null;
            }
            String host = spec.strip();
            int port = 6334;
            int colon = host.lastIndexOf(':');
            if (colon >= 0) {
                try {
                    port = Integer.parseInt(host.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new CliException(CliException.USAGE, "--qdrant expects host:port, got '" + spec + "'");
                }
                host = host.substring(0, colon);
            }
            if (host.isEmpty() || port < 1 || port > 65535) {
                throw new CliException(CliException.USAGE, "--qdrant expects host:port, got '" + spec + "'");
            }
            if (collection == null || collection.isBlank()) {
                throw new CliException(CliException.USAGE, "--collection must not be blank");
            }
            return new QdrantTarget(host, port, collection.strip());
        }

        CaseStore connect(Embedder embedder) {
            try {
                return QdrantCaseStore.builder().host(host, port).collection(collection)
                        .denseDimension(embedder == null ? 0 : embedder.dimension()).build();
            } catch (NeuralTextException | IllegalStateException e) {
                throw new CliException(CliException.INDEX, "cannot use the Qdrant collection '" + collection + "' at "
                        + host + ":" + port + ": " + e.getMessage()
                        + (embedder != null ? " (a collection indexed with --no-dense needs --no-dense here too)" : ""));
            }
        }

        String label() {
            return host + ":" + port + "/" + collection;
        }
    }

    /**
     * Options of the {@code index} and {@code demo} commands: {@code dense} loads the model for this run (without it,
     * an index keeps the dense vectors it has, and changed files lack them until a run with the model);
     * {@code dropDense} rebuilds the index without its dense leg.
     */
    record IndexOptions(List<String> includes, List<String> excludes, boolean withTests, boolean dense,
            long maxFileBytes, String model, boolean dropDense) {
        IndexOptions(List<String> includes, List<String> excludes, boolean withTests, boolean dense,
                long maxFileBytes, String model) {
            this(includes, excludes, withTests, dense, maxFileBytes, model, false);
        }
    }

    /**
     * The outcome of {@link #index}: {@code keywordsReadyNanos} is the time from the start of the run until the BM25
     * leg was saved and searchable ({@code nanos} for a Qdrant store, which embeds as it goes); {@code backfilled}
     * counts the chunks this run embedded after that; {@code coverage} is null for a Qdrant store.
     */
    record Indexed(IndexSession session, IndexUpdate update, boolean rebuilt, String rebuildReason, long nanos,
            long keywordsReadyNanos, int backfilled, DenseCoverage coverage) {
    }

    /** Builds or updates the index of {@code folder} in {@code indexDir}; prints progress on {@code err}. */
    static Indexed index(Path folder, Path indexDir, IndexOptions options, PrintStream err, boolean terminal) {
        return index(folder, indexDir, options, null, err, terminal);
    }

    /** As above; with a Qdrant target the chunks go to its collection and only the file manifest is kept locally. */
    static Indexed index(Path folder, Path indexDir, IndexOptions options, QdrantTarget qdrant, PrintStream err,
            boolean terminal) {
        if (!Files.exists(folder)) {
            throw new CliException(CliException.USAGE, "folder not found: " + folder);
        }
        if (!Files.isDirectory(folder)) {
            throw new CliException(CliException.USAGE, "not a folder: " + folder);
        }
        if (options.dense()) {
            DenseModel.requireInstalled(options.model()); // before any work, not after the keyword pass
        }
        long start = System.nanoTime();
        DirectoryIngestor ingestor;
        try {
            ingestor = DirectoryIngestor.builder(folder).include(globs(options.includes()))
                    .exclude(globs(options.excludes()))
                    .withTests(options.withTests()).maxFileBytes(options.maxFileBytes()).build();
        } catch (IllegalArgumentException e) {
            throw new CliException(CliException.USAGE, e.getMessage());
        }
        // one writer per index folder, held from reading the index to saving it; taken first, so that an unwritable
        // or busy index folder fails before the indexing pass, not after it
        try (IndexWriteLock lock = lock(indexDir)) {
            pause.accept(Step.LOCKED);
            // the model loads on its own thread while the BM25 pass runs: keyword search does not wait for it
            CompletableFuture<Embedder> model = options.dense() ? loadInBackground(err, options.model())
                    : CompletableFuture.completedFuture(null);
            try {
                return qdrant != null ? indexIntoQdrant(ingestor, indexDir, qdrant, await(model), err, terminal, start)
                        : indexLocally(ingestor, lock, model, options.dropDense(), err, terminal, start);
            } catch (RuntimeException e) {
                model.thenAccept(DenseModel::close); // on success the returned session owns the model
                throw e;
            }
        }
    }

    /** Each option value is a list of globs, split on the commas outside braces ({@code *.{java,md},docs/**}). */
    private static List<String> globs(List<String> optionValues) {
        return optionValues.stream().flatMap(v -> DirectoryIngestor.splitGlobList(v).stream()).toList();
    }

    private static IndexWriteLock lock(Path indexDir) {
        try {
            return IndexWriteLock.acquire(indexDir);
        } catch (IndexLockedException e) {
            throw new CliException(CliException.FAILURE, e.getMessage());
        } catch (UncheckedIOException e) {
            throw new CliException(CliException.USAGE, "cannot write the index folder " + indexDir + " ("
                    + IoMessages.reason(e.getCause()) + "): pass --index with a folder you can write to");
        }
    }

    /** {@link DenseModel#loadOrNull} on a daemon thread of its own; what it throws is rethrown by {@link #await}. */
    private static CompletableFuture<Embedder> loadInBackground(PrintStream err, String preset) {
        return CompletableFuture.supplyAsync(() -> DenseModel.loadOrNull(err, preset), task -> {
            Thread t = new Thread(task, "neural-text-model-load");
            t.setDaemon(true);
            t.start();
        });
    }

    /** The loaded model (null: BM25 only), rethrowing what its loading threw. */
    private static Embedder await(CompletableFuture<Embedder> model) {
        try {
            return model.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error x) {
                throw x;
            }
            throw e;
        }
    }

    private static Indexed indexLocally(DirectoryIngestor ingestor, IndexWriteLock lock,
            CompletableFuture<Embedder> model, boolean dropDense, PrintStream err, boolean terminal, long start) {
        Path indexDir = lock.directory();
        InMemoryCaseStore.Builder config = InMemoryCaseStore.builder();

        InMemoryCaseStore store = null;
        IndexManifest manifest = null;
        String rebuildReason = null;
        IndexFingerprint asSaved = null;
        boolean migrating = false;
        if (InMemoryCaseStore.exists(indexDir)) {
            try {
                // the index keeps the legs it has: a run without the model loads (and saves) its dense vectors as is
                asSaved = config.fingerprintAsSaved(indexDir);
                // an existing index is checked against the model, so this waits for it to load
                Embedder embedder = await(model);
                String otherModel = embedder == null ? null : otherDenseModel(asSaved, embedder);
                if (dropDense && !asSaved.denseModel().isEmpty()) {
                    rebuildReason = "--drop-dense drops its dense leg ('" + asSaved.denseModel() + "')";
                } else if (otherModel != null) {
                    rebuildReason = "it was built with other settings: " + otherModel;
                } else {
                    store = config.load(indexDir, asSaved);
                    manifest = store.loadedAttachment(MANIFEST_FILE)
                            .map(b -> IndexManifest.fromBytes(b, indexDir + " " + MANIFEST_FILE)).orElse(null);
                    if (manifest == null) {
                        // an index saved before the manifest moved into the generation: adopt the loose file once,
                        // guarded by the chunk-count check below, rather than re-embedding everything
                        manifest = IndexManifest.load(indexDir.resolve(MANIFEST_FILE)).orElse(null);
                        migrating = manifest != null;
                    }
                    if (manifest == null) {
                        rebuildReason = "the file manifest is missing";
                    } else if (manifest.chunkCount() != store.count(PayloadFilter.all())) {
                        rebuildReason = "the file manifest does not match the index (" + manifest.chunkCount()
                                + " vs " + store.count(PayloadFilter.all()) + " chunks)";
                    }
                }
            } catch (IndexMismatchException e) {
                rebuildReason = "it was built with other settings: " + String.join("; ", e.differences());
            } catch (CorruptIndexException e) {
                rebuildReason = "it is unreadable: " + e.getMessage();
            } catch (NeuralTextException e) {
                rebuildReason = e.getMessage();
            }
            if (rebuildReason != null) {
                err.println("note: rebuilding the index in " + indexDir + " because " + rebuildReason);
                store = null;
                manifest = null;
                asSaved = null;
            }
        }
        boolean rebuilt = store == null;
        if (store == null) {
            store = config.build();
            manifest = IndexManifest.empty("");
        }
        // Keywords first: the chunks go in without dense vectors and the index is saved, so that BM25 answers within
        // seconds (a `search` in another process reads that generation); then the vectors are embedded in
        // checkpointed batches, and a killed run loses at most one checkpoint: the next one resumes from there.
        HybridCaseRetriever keywordsFirst = HybridCaseRetriever.builder(store).build();
        IndexProgress progress = new IndexProgress(err, terminal);
        IndexUpdate update;
        try {
            update = IncrementalIndexer.builder(ingestor).batchSize(64).progress(progress::report)
                    .afterScan(scan -> HeapNeed.require(scan, Runtime.getRuntime().maxMemory(),
                            !(model.isDone() && model.getNow(null) == null))).build()
                    .update(manifest, ChunkSink.of(keywordsFirst::index, keywordsFirst::delete));
        } finally {
            progress.done();
        }
        IndexSession session = new IndexSession(indexDir, store, await(model));
        Embedder embedder = session.embedder;
        byte[] manifestBytes = update.manifest().toBytes();
        // saved with the model's id even before a vector exists: a search then loads the model and says how much of
        // the index it covers, and a run with another model is told the index was meant for this one
        IndexFingerprint saveAs = savedFingerprint(session.retriever.fingerprint(), asSaved, store);
        if (rebuilt || update.changed() || migrating) {
            store.save(lock, saveAs, Map.of(MANIFEST_FILE, manifestBytes));
            deleteLegacyManifest(indexDir, err);
        }
        long keywordsReady = System.nanoTime() - start;
        int backfilled = 0;
        if (embedder != null && store.denseCoverage().lacking() > 0) {
            InMemoryCaseStore built = store;
            err.printf(Locale.ROOT, "keyword search is ready (%.1f s): `neural-text search` works now, the dense leg"
                    + " joins as it is embedded%n", keywordsReady / 1e9);
            pause.accept(Step.BEFORE_EMBEDDING);
            backfilled = backfill(built, embedder, session.retriever.denseText(),
                    () -> built.save(lock, saveAs, Map.of(MANIFEST_FILE, manifestBytes)),
                    err);
        }
        return new Indexed(session, update, rebuilt && rebuildReason != null, rebuildReason,
                System.nanoTime() - start, keywordsReady, backfilled, store.denseCoverage());
    }

    /** Why {@code embedder} cannot add to the dense vectors of an index saved as {@code asSaved}, or null. */
    static String otherDenseModel(IndexFingerprint asSaved, Embedder embedder) {
        String indexed = DenseText.defaults().indexedModelId(embedder.modelId());
        if (asSaved.denseModel().isEmpty() || (asSaved.denseModel().equals(indexed)
                && asSaved.denseDimension() == embedder.dimension())) {
            return null;
        }
        return "dense model '" + asSaved.denseModel() + "' (" + asSaved.denseDimension() + " dimensions), this run has '"
                + indexed + "' (" + embedder.dimension() + ")";
    }

    /**
     * What to save an index with: the retriever's fingerprint, plus the dense model the index was saved with when this
     * run has no model but the store still holds dense vectors.
     */
    static IndexFingerprint savedFingerprint(IndexFingerprint retriever, IndexFingerprint asSaved, CaseStore store) {
        if (retriever.denseModel().isEmpty() && asSaved != null && !asSaved.denseModel().isEmpty()
                && store.denseDimension().isPresent()) {
            return retriever.withDense(asSaved.denseModel(), asSaved.denseDimension());
        }
        return retriever;
    }

    /**
     * Embeds the chunks lacking dense vectors (this run's new chunks, and those runs without the model or a killed run
     * left), saving every {@value DenseBackfill#DEFAULT_CHECKPOINT_EVERY} chunks; progress on {@code err}.
     */
    static int backfill(InMemoryCaseStore store, Embedder embedder, DenseText denseText, Runnable checkpoint,
            PrintStream err) {
        DenseCoverage before = store.denseCoverage();
        err.println("embedding dense vectors for " + before.lacking() + " chunks (" + before.describe()
                + " have them), saved every " + DenseBackfill.DEFAULT_CHECKPOINT_EVERY + " chunks");
        long[] lastPrint = {System.nanoTime()};
        DenseBackfill.Result r = DenseBackfill.builder(store, embedder).denseText(denseText)
                .checkpoint(DenseBackfill.DEFAULT_CHECKPOINT_EVERY, checkpoint)
                .progress(c -> {
                    long now = System.nanoTime();
                    if (now - lastPrint[0] >= 2_000_000_000L) {
                        err.println("embedding: dense vectors for " + c.describe());
                        lastPrint[0] = now;
                    }
                }).build().run();
        return r.embedded();
    }

    /** Before the manifest became part of the store's generation it was a loose file beside it; now it is stale. */
    private static void deleteLegacyManifest(Path indexDir, PrintStream err) {
        try {
            Files.deleteIfExists(indexDir.resolve(MANIFEST_FILE));
        } catch (IOException e) {
            err.println("note: could not delete the old " + indexDir.resolve(MANIFEST_FILE) + " (" + IoMessages.reason(e)
                    + "); it is no longer used");
        }
    }

    private static Indexed indexIntoQdrant(DirectoryIngestor ingestor, Path indexDir, QdrantTarget qdrant,
            Embedder embedder, PrintStream err, boolean terminal, long start) {
        CaseStore store = qdrant.connect(embedder);
        try {
            return indexIntoQdrant(ingestor, indexDir, qdrant, store, embedder, err, terminal, start);
        } catch (RuntimeException e) {
            store.close(); // the gRPC channel; the caller closes the model
            throw e;
        }
    }

    private static Indexed indexIntoQdrant(DirectoryIngestor ingestor, Path indexDir, QdrantTarget qdrant,
            CaseStore store, Embedder embedder, PrintStream err, boolean terminal, long start) {
        // one index run: searches refuse the collection until every write of this update succeeded, and a collection
        // written before the completion marker existed gets it here, even when no file changed
        try (QdrantIndexRun run = store instanceof QdrantCaseStore q ? q.beginIndexRun() : null) {
            Indexed indexed = indexIntoQdrantRun(ingestor, indexDir, qdrant, store, embedder, err, terminal, start);
            if (run != null) {
                run.complete();
            }
            return indexed;
        }
    }

    private static Indexed indexIntoQdrantRun(DirectoryIngestor ingestor, Path indexDir, QdrantTarget qdrant,
            CaseStore store, Embedder embedder, PrintStream err, boolean terminal, long start) {
        IndexSession session = new IndexSession(indexDir, store, embedder, qdrant.label());
        Path manifestFile = indexDir.resolve("files-qdrant-" + qdrant.collection().replaceAll("[^A-Za-z0-9_.-]", "_")
                + (embedder == null ? "" : "-dense") + ".tsv");
        IndexManifest manifest = IndexManifest.load(manifestFile).orElse(null);
        long count = store.count(PayloadFilter.all());
        String rebuildReason = null;
        if (manifest == null && count > 0) {
            rebuildReason = "no local file manifest describes its " + count + " chunks";
        } else if (manifest != null && manifest.chunkCount() != count) {
            rebuildReason = "the local file manifest does not match it (" + manifest.chunkCount() + " vs " + count
                    + " chunks)";
        }
        if (rebuildReason != null) {
            err.println("note: rebuilding the collection '" + qdrant.collection() + "' because " + rebuildReason);
            session.retriever.deleteWhere(PayloadFilter.all());
            manifest = null;
        }
        IndexProgress progress = new IndexProgress(err, terminal);
        IndexUpdate update;
        try {
            update = IncrementalIndexer.builder(ingestor).batchSize(64).progress(progress::report).build()
                    .update(manifest == null ? IndexManifest.empty("") : manifest,
                            ChunkSink.of(session.retriever::index, session.retriever::delete));
        } finally {
            progress.done();
        }
        update.manifest().save(manifestFile);
        long nanos = System.nanoTime() - start;
        return new Indexed(session, update, rebuildReason != null, rebuildReason, nanos, nanos, 0, null);
    }

    /** Opens a Qdrant collection for searching; the dense leg runs when the model loads and {@code wantDense}. */
    static IndexSession openQdrant(QdrantTarget qdrant, boolean wantDense, String model, PrintStream err) {
        Embedder embedder = wantDense ? DenseModel.loadOrNull(err, model) : null;
        try {
            return new IndexSession(Path.of("."), qdrant.connect(embedder), embedder, qdrant.label());
        } catch (RuntimeException e) {
            DenseModel.close(embedder);
            throw e;
        }
    }

    /**
     * Opens the index in {@code indexDir} for searching. Loads the dense model when the index has dense vectors and
     * {@code wantDense}: the preset the index was built with, which {@code model} (null: any) must name; when it cannot
     * be loaded, searches with BM25 alone (said on {@code err}).
     */
    static IndexSession open(Path indexDir, boolean wantDense, String model, PrintStream err) {
        if (!Files.isDirectory(indexDir) || !InMemoryCaseStore.exists(indexDir)) {
            throw new CliException(CliException.INDEX, "no index in " + indexDir
                    + ": build one with `neural-text index <folder>` (or pass --index <dir>)");
        }
        IndexFingerprint onDisk;
        try {
            onDisk = InMemoryCaseStore.readFingerprint(indexDir);
        } catch (NeuralTextException e) {
            throw new CliException(CliException.INDEX, "the index in " + indexDir + " is unreadable ("
                    + e.getMessage() + "): rebuild it with `neural-text index <folder>`");
        }
        Embedder embedder = null;
        if (wantDense && !onDisk.denseModel().isEmpty()) {
            String built = DenseModel.presetOf(onDisk.denseModel()).orElse(null);
            if (model != null && !model.equals(built)) {
                throw new CliException(CliException.INDEX, "the index in " + indexDir + " was built with the model '"
                        + onDisk.denseModel() + "', not --model " + model + ": search without --model, or re-run "
                        + "`neural-text index <folder> --model " + model + "` to rebuild it");
            }
            embedder = DenseModel.loadOrNull(err, built == null ? model : built);
            if (embedder != null && otherDenseModel(onDisk, embedder) != null) {
                String have = embedder.modelId() + "' (" + embedder.dimension() + ")";
                DenseModel.close(embedder);
                throw new CliException(CliException.INDEX, "the index in " + indexDir + " was built with the model '"
                        + onDisk.denseModel() + "' (" + onDisk.denseDimension() + "), this build has '" + have
                        + ": re-run `neural-text index <folder>` to rebuild it, or search with --no-dense");
            }
        }
        InMemoryCaseStore.Builder config = InMemoryCaseStore.builder();
        try {
            // the dense part of the fingerprint is the index's own: without the model we still search its BM25 leg
            return new IndexSession(indexDir, config.load(indexDir, config.fingerprintAsSaved(indexDir)), embedder);
        } catch (IndexMismatchException e) {
            DenseModel.close(embedder);
            throw new CliException(CliException.INDEX, "the index in " + indexDir + " was built with other settings ("
                    + String.join("; ", e.differences()) + "): rebuild it with `neural-text index <folder>`");
        } catch (IndexNotFoundException | CorruptIndexException e) {
            DenseModel.close(embedder);
            throw new CliException(CliException.INDEX, "the index in " + indexDir + " is unreadable ("
                    + e.getMessage() + "): rebuild it with `neural-text index <folder>`");
        }
    }
}
