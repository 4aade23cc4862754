package dev.neuraltext.qdrant;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Fusion;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.RrfFusion;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexedCase;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;

/**
 * A {@link CaseStore} backed by a Qdrant collection, for corpora that outgrow one heap, indexes shared by several
 * services, or replicas for availability. {@link dev.neuraltext.retrieve.HybridCaseRetriever} works over it unchanged:
 * same request, same response, fused scores on the same scale as the embedded store.
 *
 * <h2>Collection</h2>
 * {@link Builder#build()} connects, checks the server version (1.16 or later: older servers silently ignore the RRF
 * {@code k}) and makes sure the collection exists with the layout below, creating it (and its payload indexes) when
 * missing. An existing collection is verified: a missing or differently sized dense vector, a
 * missing sparse vector or a {@code bm25} vector without {@code Modifier.Idf} is reported in one
 * {@link NonRetriableNeuralTextException} listing every difference; the collection is dropped and re-created only with
 * {@link Builder#recreateIncompatibleCollection(boolean)}. Layout:
 * <ul>
 *   <li>named dense vector {@code dense} (cosine, {@link Builder#denseDimension(int)}; absent when 0), sparse vectors
 *       {@code sparse} (SPLADE-style) and {@code bm25} (with {@code Modifier.Idf}; see {@link Bm25Mode}: by default
 *       BM25F weights computed in Java that reproduce the embedded store's BM25 scores, given the corpus's per-field
 *       average lengths, {@link Builder#bm25FieldAverageLengths(Map)});</li>
 *   <li>point id: the name-based UUID ({@link UUID#nameUUIDFromBytes}, version 3) of the chunk id's UTF-8 bytes, so
 *       re-indexing replaces points instead of duplicating them and a failed batch can simply be sent again;</li>
 *   <li>payload: metadata keys at the top level (list metadata as Qdrant lists, canonical integers as integer payload,
 *       as {@link dev.neuraltext.filter.Payload} prescribes), plus the reserved keys {@code _chunk_id}, {@code _text} and
 *       {@code _fields}; keyword payload indexes on {@link #DEFAULT_INDEXED_FIELDS} plus
 *       {@link Builder#payloadIndexes(String...)}. A value {@code "-0"} is stored as the integer 0 and reads back as
 *       {@code "0"}; metadata keys containing a dot are stored as given but Qdrant filters read a dot as a path
 *       separator, so avoid dots in keys you filter on.</li>
 * </ul>
 *
 * <h2>Search</h2>
 * With {@link FusionMethod.Rrf} and equal weights on the legs that run (the default), a search is ONE {@code query}
 * call (plus the read of the collection's info sent alongside it, see <em>Completion marker</em>): one prefetch per
 * leg ({@code dense}, {@code sparse}, {@code bm25}), each with the translated filter and limit
 * {@link HybridQuery#legLimit()}, fused by Qdrant's RRF with {@code k = rrfK + 1} (Qdrant counts ranks from 0 and
 * defaults to k = 2), which reproduces the embedded store's sums exactly; the fused
 * score is then divided by {@link RrfFusion#maxScore} so that it lands on the scale of {@link FusionMethod} (Qdrant
 * sums in 32-bit floats: relative error about 1e-7). Per-leg ranks and scores are absent from the hits unless
 * {@link HybridQuery#explain()} is set: then the legs also run as separate queries in the same {@code query_batch}
 * call (without payload; ranks are matched by point id) and the fused score is recomputed from the ranks in double
 * precision, exactly the embedded store's value.
 *
 * <p>Qdrant has no equivalent of {@link FusionMethod.Weighted}, and its weighted RRF ({@code 1 / (rank / w + k - 1)},
 * server 1.17 or later) is a different curve from ours ({@code w / (k + rank)}). So for {@code Weighted} and for RRF
 * with unequal weights the store runs the legs in one {@code query_batch} call (without payload), fuses them in Java
 * with {@link Fusion#of(FusionMethod)} (exactly the embedded store's fusion, per-leg details always filled) and fetches
 * the payload of the fused top hits, plus any tied with the last of them, with one {@code get} call, so that ties are
 * broken by chunk id as in the embedded store. {@link Builder#serverSideWeightedRrf(boolean)} sends the
 * weights to Qdrant instead (one call, scores normalised by Qdrant's own maximum, ranking close to but not identical
 * with the embedded store's).
 *
 * <p>Hits are ordered as in the embedded store: fused score descending, best leg rank ascending (known only in
 * explain mode and client-side fusion), chunk id ascending. Qdrant orders exact ties arbitrarily before its own
 * {@code limit} cut, so without explain a tie straddling the limit may keep a different member than the embedded
 * store would.
 *
 * <h2>Known differences from the embedded store</h2>
 * Filters: see {@code QdrantFilterConverter} ({@code MatchText} never matches integer payload; {@code MatchExcept}
 * with mixed integer and string values on mixed lists). Dense search uses Qdrant's HNSW index, approximate once a
 * segment is large enough to be indexed (about 10,000 points by default), exact below. Client-side BM25 equals the
 * embedded BM25F score only when the configured field average lengths equal the corpus's.
 *
 * <h2>Connection and failures</h2>
 * Either {@link Builder#host(String, int)} (plus TLS, API key), in which case the store owns the gRPC client and
 * {@link #close()} shuts it down, or {@link Builder#client(QdrantClient)}, in which case the caller owns the client and
 * must close it after the store. Every call has the {@link Builder#timeout(Duration)} deadline. Failures become
 * {@link dev.neuraltext.RetriableNeuralTextException} for UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED and
 * ABORTED, {@link NonRetriableNeuralTextException} otherwise, each naming the operation and the collection, with the
 * gRPC exception as cause. Writes and the collection setup repeat a call that failed retriably, with bounded
 * exponential backoff ({@link Builder#retries(int, Duration, Duration)}); searches and counts are not repeated. Upserts
 * are sent in batches of {@link Builder#upsertBatchSize(int)} with {@code wait=true}; a failure names the batch, the
 * number of attempts and the last status, and repeating the whole upsert is safe (same point ids, no duplicates).
 *
 * <h2>Completion marker</h2>
 * The collection metadata {@code neural_text_state} says whether every write finished. A collection the store creates
 * starts {@code complete}; a write run sets it to {@code writing} before its first request and back to
 * {@code complete} only after its last one succeeded. A run is an {@link #beginIndexRun() index run} or, outside one,
 * each {@link #upsert}, {@link #delete} and {@link #deleteWhere} call (two more calls each: use a run around an index
 * of many calls). So a run that fails half way, or a process killed in one, leaves the collection marked
 * {@code writing}, and every search (from any process) then fails with a
 * {@link dev.neuraltext.RetriableNeuralTextException} saying so instead of answering from part of an index; a collection without the marker (from another tool or an
 * older version) is refused until an index run completes on it. Each search reads the collection's info alongside its
 * query (one more call, no added wait) and also refuses a collection whose vectors were re-created with another size
 * or distance, naming both. A search that overlaps a write may see part of it, as with any store that is written
 * while it serves.
 *
 * <p>Thread-safe: concurrent searches and writes may share one instance (the gRPC client is thread-safe); one writer
 * at a time.
 */
public final class QdrantCaseStore implements CaseStore {

    /** Fields that get a keyword payload index in every collection the store creates. */
    public static final List<String> DEFAULT_INDEXED_FIELDS =
            List.of("domain", ChunkMetadata.TYPE, ChunkMetadata.TAGS, ChunkMetadata.PATH, ChunkMetadata.LANGUAGE,
                    ChunkMetadata.SYMBOL_TYPE);

    /**
     * Per-field average lengths (in {@link dev.neuraltext.text.CodeDomainTokenizer} terms) that client-side BM25 assumes
     * by default: {@code name} 6.4 and {@code body} 48.4 measured on the commons-lang benchmark's chunks,
     * {@code signature} 8.6 and {@code doc} 26.9 on the Java chunker's output for neural-text-core's own sources.
     */
    public static final Map<String, Double> DEFAULT_BM25_FIELD_AVERAGE_LENGTHS =
            Map.of(ChunkMetadata.FIELD_NAME, 6.4, ChunkMetadata.FIELD_SIGNATURE, 8.6, ChunkMetadata.FIELD_DOC, 26.9,
                    ChunkMetadata.FIELD_BODY, 48.4);

    /**
     * The average length of every BM25 field over {@code chunks}, in {@link dev.neuraltext.text.CodeDomainTokenizer}
     * terms, for {@link Builder#bm25FieldAverageLengths(Map)}: what the embedded store computes from its contents.
     */
    public static Map<String, Double> bm25FieldAverageLengths(Collection<ChunkInput> chunks) {
        Objects.requireNonNull(chunks, "chunks");
        dev.neuraltext.text.CodeDomainTokenizer tokenizer = dev.neuraltext.text.CodeDomainTokenizer.standard();
        return ClientBm25Encoder.averageLengths(chunks, tokenizer::tokenize);
    }

    /** The server-side BM25 model name. */
    static final String BM25_MODEL = "qdrant/bm25";

    private final QdrantClient client;
    private final boolean ownsClient;
    private final String collection;
    private final int denseDimension;
    private final Bm25Mode bm25Mode;
    private final IndexFingerprint fingerprint;
    private final QdrantWriter writer;
    private final QdrantSearch search;

    private QdrantCaseStore(Builder b, QdrantClient client, boolean ownsClient) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.collection = b.collection;
        this.denseDimension = b.denseDimension;
        this.bm25Mode = b.bm25Mode;
        this.fingerprint = IndexFingerprint.lexical("qdrant:" + b.bm25Mode.name().toLowerCase(Locale.ROOT),
                b.bm25Params, Map.of());
        ClientBm25Encoder bm25Encoder = b.bm25Mode == Bm25Mode.CLIENT_SIDE
                ? ClientBm25Encoder.standard(b.bm25Params, b.bm25FieldAverageLengths, b.bm25AverageLength) : null;
        Map<String, Value> options = new LinkedHashMap<>();
        if (b.bm25AverageLengthSet) {
            options.put("avg_len", Value.newBuilder().setDoubleValue(b.bm25AverageLength).build());
        }
        QdrantTarget target = b.target(client);
        QdrantVectors vectors = new QdrantVectors(b.denseDimension, b.bm25Mode, bm25Encoder, options);
        this.writer = new QdrantWriter(target, vectors, b.batchSize);
        this.search = new QdrantSearch(target, vectors, b.serverSideWeightedRrf);
    }

    /** A new builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The collection name. */
    public String collection() {
        return collection;
    }

    /** How the BM25 leg is computed. */
    public Bm25Mode bm25Mode() {
        return bm25Mode;
    }

    /**
     * The underlying client, for what this adapter does not cover (snapshots, aliases, cluster operations). Do not
     * close it when the store owns it.
     */
    public QdrantClient client() {
        return client;
    }

    /** The Qdrant point id of a chunk id: the name-based UUID of its UTF-8 bytes. */
    public static UUID pointId(String chunkId) {
        Checks.notBlank(chunkId, "chunkId");
        return UUID.nameUUIDFromBytes(chunkId.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Opens an index run: marks the collection incomplete now, so that searches refuse it, and complete only when
     * {@link QdrantIndexRun#complete()} is called after every write of the run succeeded. Writes outside a run are
     * each a run of their own; use one around an index of many calls, so that no search answers between two of them.
     *
     * @throws IllegalStateException if a run is already open on this store
     * @throws NeuralTextException   if the marker cannot be written
     */
    public QdrantIndexRun beginIndexRun() {
        return writer.beginRun();
    }

    @Override
    public void upsert(List<IndexedCase> cases) {
        writer.upsert(cases);
    }

    @Override
    public void delete(Collection<String> ids) {
        writer.delete(ids);
    }

    @Override
    public void deleteWhere(PayloadFilter filter) {
        writer.deleteWhere(filter);
    }

    @Override
    public long count(PayloadFilter filter) {
        return writer.count(filter);
    }

    @Override
    public List<SearchHit> search(HybridQuery query) {
        return search.search(query);
    }

    /**
     * The legs the collection is laid out for: BM25 and SPARSE always, DENSE when it has a dense vector. Qdrant cannot
     * tell cheaply whether any point holds a vector, so a leg without data simply returns no hits.
     */
    @Override
    public Set<Leg> legsWithData() {
        return denseDimension > 0 ? Set.of(Leg.BM25, Leg.DENSE, Leg.SPARSE) : Set.of(Leg.BM25, Leg.SPARSE);
    }

    /** The collection's dense dimension; empty when it has no dense vector. */
    @Override
    public OptionalInt denseDimension() {
        return denseDimension > 0 ? OptionalInt.of(denseDimension) : OptionalInt.empty();
    }

    /** The BM25 mode and parameters of this store. */
    @Override
    public IndexFingerprint fingerprint() {
        return fingerprint;
    }

    /** Shuts the gRPC client down when the store created it; a caller-owned client stays open. */
    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "QdrantCaseStore[collection=" + collection + ", denseDimension=" + denseDimension + ", bm25Mode="
                + bm25Mode + "]";
    }

    /** Waits between two attempts of a call; an interrupt ends the retries. */
    @FunctionalInterface
    public interface Sleeper {
        /** Returns after {@code duration}, or throws when interrupted. */
        void sleep(Duration duration) throws InterruptedException;
    }

    /**
     * Configures a {@link QdrantCaseStore}. Defaults: host {@code localhost}, port 6334 (gRPC), no TLS, no API key,
     * timeout 30 s per call, no dense vector (dimension 0), {@link Bm25Mode#CLIENT_SIDE} with {@link Bm25Params#defaults()}
     * and field average lengths {@link #DEFAULT_BM25_FIELD_AVERAGE_LENGTHS} (others 48.4), 1 shard, replication factor 1, write consistency factor 1, keyword
     * indexes on {@link #DEFAULT_INDEXED_FIELDS}, upsert batches of 64 points, create the collection when missing, never
     * drop an incompatible one, client-side fusion for RRF with unequal weights, check the server version, retry
     * writes and setup calls up to 6 times from 200 ms to 10 s apart. The collection name is required.
     * Not thread-safe; {@link #build()} may be called more than once.
     */
    public static final class Builder {
        private String host = "localhost";
        private int port = 6334;
        private boolean useTls;
        private String apiKey;
        private Duration timeout = Duration.ofSeconds(30);
        private QdrantClient client;
        private String collection;
        private int denseDimension;
        private Bm25Mode bm25Mode = Bm25Mode.CLIENT_SIDE;
        private Bm25Params bm25Params = Bm25Params.defaults();
        private double bm25AverageLength = 48.4;
        private boolean bm25AverageLengthSet;
        private Map<String, Double> bm25FieldAverageLengths = DEFAULT_BM25_FIELD_AVERAGE_LENGTHS;
        private int shards = 1;
        private int replicationFactor = 1;
        private int writeConsistencyFactor = 1;
        private final List<String> indexedFields = new ArrayList<>(DEFAULT_INDEXED_FIELDS);
        private int batchSize = 64;
        private boolean createIfMissing = true;
        private boolean recreateIncompatible;
        private boolean serverSideWeightedRrf;
        private boolean checkServerVersion = true;
        private int maxAttempts = 6;
        private Duration initialDelay = Duration.ofMillis(200);
        private Duration maxDelay = Duration.ofSeconds(10);
        private Sleeper sleeper = d -> Thread.sleep(d.toMillis());

        private Builder() {
        }

        /** Host and port of the Qdrant gRPC endpoint (default {@code localhost:6334}); the store owns the client. */
        public Builder host(String host, int port) {
            this.host = Checks.notBlank(host, "host");
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be in [1, 65535], got " + port);
            }
            this.port = port;
            return this;
        }

        /** Whether to connect with TLS (default false). */
        public Builder useTls(boolean useTls) {
            this.useTls = useTls;
            return this;
        }

        /** The API key sent with every call (default none). */
        public Builder apiKey(String apiKey) {
            this.apiKey = Checks.notBlank(apiKey, "apiKey");
            return this;
        }

        /** The deadline of every call (default 30 s). */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * A client the caller owns (instead of {@link #host}): the store never closes it, so close it after the store.
         * Host, TLS and API key settings are then ignored.
         */
        public Builder client(QdrantClient client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /** The collection name (required). */
        public Builder collection(String name) {
            this.collection = Checks.notBlank(name, "collection");
            return this;
        }

        /** The dense vector dimension (the embedder's), or 0 for a collection without a dense vector (default 0). */
        public Builder denseDimension(int dimension) {
            if (dimension < 0) {
                throw new IllegalArgumentException("denseDimension must be >= 0, got " + dimension);
            }
            this.denseDimension = dimension;
            return this;
        }

        /** How the BM25 leg is computed (default {@link Bm25Mode#CLIENT_SIDE}); see {@link Bm25Mode}. */
        public Builder bm25Mode(Bm25Mode mode) {
            this.bm25Mode = Objects.requireNonNull(mode, "bm25Mode");
            return this;
        }

        /** k1 and b of the client-side document weights (default {@link Bm25Params#defaults()}). */
        public Builder bm25Params(Bm25Params params) {
            this.bm25Params = Objects.requireNonNull(params, "bm25Params");
            return this;
        }

        /**
         * The average length, in terms, that BM25's length normalisation assumes. Client-side mode uses it for BM25
         * fields not in {@link #bm25FieldAverageLengths(Map)} (default 48.4, the {@code body} default); server-side mode
         * sends it as the {@code avg_len} option of {@code qdrant/bm25} when set explicitly (Qdrant's own default is
         * 256 words).
         */
        public Builder bm25AverageLength(double averageLength) {
            if (!(averageLength > 0) || Double.isInfinite(averageLength)) {
                throw new IllegalArgumentException("bm25AverageLength must be a positive finite value, got "
                        + averageLength);
            }
            this.bm25AverageLength = averageLength;
            this.bm25AverageLengthSet = true;
            return this;
        }

        /**
         * Client-side mode: the average length, in {@link dev.neuraltext.text.CodeDomainTokenizer} terms, of each BM25
         * field ({@link ChunkInput#bm25Fields()}), which BM25F's per-field length normalisation needs and Qdrant cannot
         * track (default {@link #DEFAULT_BM25_FIELD_AVERAGE_LENGTHS}; fields not listed use
         * {@link #bm25AverageLength(double)}). Compute them for your corpus with
         * {@link QdrantCaseStore#bm25FieldAverageLengths(Collection)}.
         */
        public Builder bm25FieldAverageLengths(Map<String, Double> averageLengths) {
            Objects.requireNonNull(averageLengths, "bm25FieldAverageLengths");
            averageLengths.forEach((f, v) -> {
                Checks.notBlank(f, "bm25 field");
                if (v == null || !(v > 0) || v.isInfinite()) {
                    throw new IllegalArgumentException("bm25 average length of field '" + f
                            + "' must be a positive finite value, got " + v);
                }
            });
            this.bm25FieldAverageLengths = Map.copyOf(averageLengths);
            return this;
        }

        /** Shard number of a created collection (default 1). */
        public Builder shards(int shards) {
            this.shards = Checks.positive(shards, "shards");
            return this;
        }

        /** Replication factor of a created collection (default 1). */
        public Builder replicationFactor(int factor) {
            this.replicationFactor = Checks.positive(factor, "replicationFactor");
            return this;
        }

        /** Write consistency factor of a created collection (default 1; at most the replication factor). */
        public Builder writeConsistencyFactor(int factor) {
            this.writeConsistencyFactor = Checks.positive(factor, "writeConsistencyFactor");
            return this;
        }

        /** Further fields that get a keyword payload index, in addition to {@link #DEFAULT_INDEXED_FIELDS}. */
        public Builder payloadIndexes(String... fields) {
            for (String f : fields) {
                Checks.notBlank(f, "payload index field");
                if (!indexedFields.contains(f)) {
                    indexedFields.add(f);
                }
            }
            return this;
        }

        /**
         * How a write or setup call that fails with UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED or ABORTED is
         * repeated: at most {@code maxAttempts} calls in all, waiting {@code initialDelay} after the first failure and
         * twice as long after each next one, never more than {@code maxDelay} (default 6 attempts, 200 ms, 10 s: about
         * 6 s of waiting in all). {@code maxAttempts} 1 turns retries off. Other statuses are never repeated, nor are
         * searches and counts.
         */
        public Builder retries(int maxAttempts, Duration initialDelay, Duration maxDelay) {
            Checks.positive(maxAttempts, "maxAttempts");
            Objects.requireNonNull(initialDelay, "initialDelay");
            Objects.requireNonNull(maxDelay, "maxDelay");
            if (initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
                throw new IllegalArgumentException("retry delays must satisfy 0 <= initialDelay <= maxDelay, got "
                        + initialDelay + " and " + maxDelay);
            }
            this.maxAttempts = maxAttempts;
            this.initialDelay = initialDelay;
            this.maxDelay = maxDelay;
            return this;
        }

        /** What waits between two attempts of a call (default {@link Thread#sleep}); tests pass a recording one. */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        QdrantTarget target(QdrantClient c) {
            return new QdrantTarget(c, collection, timeout, new QdrantRetry(maxAttempts, initialDelay, maxDelay,
                    sleeper));
        }

        /** Points per upsert request (default 64). */
        public Builder upsertBatchSize(int size) {
            this.batchSize = Checks.positive(size, "upsertBatchSize");
            return this;
        }

        /** Whether {@link #build()} creates a missing collection (default true). */
        public Builder createIfMissing(boolean create) {
            this.createIfMissing = create;
            return this;
        }

        /**
         * Whether {@link #build()} may DROP an existing collection whose layout is incompatible and re-create it
         * empty (default false: it reports the differences instead).
         */
        public Builder recreateIncompatibleCollection(boolean recreate) {
            this.recreateIncompatible = recreate;
            return this;
        }

        /**
         * Whether RRF with unequal leg weights is sent to Qdrant's weighted RRF (server 1.17 or later; one call, a
         * slightly different curve) instead of being fused in Java (default false: exact parity with the embedded
         * store, two calls).
         */
        public Builder serverSideWeightedRrf(boolean serverSide) {
            this.serverSideWeightedRrf = serverSide;
            return this;
        }

        /**
         * Whether {@link #build()} asks the server for its version and rejects one older than 1.16 (1.17 with
         * {@link #serverSideWeightedRrf(boolean)}), which would silently ignore the RRF {@code k} (default true).
         */
        public Builder checkServerVersion(boolean check) {
            this.checkServerVersion = check;
            return this;
        }

        /**
         * Connects, creates or verifies the collection and its payload indexes, and returns the store.
         *
         * @throws IllegalStateException if no collection name was given
         * @throws NeuralTextException   if the server cannot be reached (retriable) or the collection is missing and
         *                               may not be created, or is incompatible (non-retriable)
         */
        public QdrantCaseStore build() {
            if (collection == null) {
                throw new IllegalStateException("collection name is required");
            }
            if (writeConsistencyFactor > replicationFactor) {
                throw new IllegalStateException("writeConsistencyFactor (" + writeConsistencyFactor
                        + ") must not exceed replicationFactor (" + replicationFactor + ")");
            }
            boolean owns = client == null;
            QdrantClient c = client;
            if (owns) {
                QdrantGrpcClient.Builder grpc = QdrantGrpcClient.newBuilder(host, port, useTls, false)
                        .withTimeout(timeout);
                if (apiKey != null) {
                    grpc.withApiKey(apiKey);
                }
                c = new QdrantClient(grpc.build());
            }
            QdrantCaseStore store = new QdrantCaseStore(this, c, owns);
            try {
                new QdrantCollectionSetup(target(c), new QdrantCollectionSetup.Settings(
                        denseDimension, shards, replicationFactor, writeConsistencyFactor, indexedFields,
                        createIfMissing, recreateIncompatible, serverSideWeightedRrf, checkServerVersion))
                        .ensureCollection();
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
            return store;
        }
    }
}
