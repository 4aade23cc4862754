package dev.neuraltext.qdrant;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.fusion.FusedResult;
import dev.neuraltext.fusion.Fusion;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.fusion.RrfFusion;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.IndexedCase;
import dev.neuraltext.text.CamelCaseExpander;
import io.grpc.Status;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.PointId;
import io.qdrant.client.grpc.JsonWithInt.Value;
import io.qdrant.client.grpc.Points;
import io.qdrant.client.grpc.Points.CountPoints;
import io.qdrant.client.grpc.Points.DeletePoints;
import io.qdrant.client.grpc.Points.Document;
import io.qdrant.client.grpc.Points.FieldType;
import io.qdrant.client.grpc.Points.GetPoints;
import io.qdrant.client.grpc.Points.PointStruct;
import io.qdrant.client.grpc.Points.PointsIdsList;
import io.qdrant.client.grpc.Points.PointsSelector;
import io.qdrant.client.grpc.Points.PrefetchQuery;
import io.qdrant.client.grpc.Points.Query;
import io.qdrant.client.grpc.Points.QueryBatchPoints;
import io.qdrant.client.grpc.Points.QueryPoints;
import io.qdrant.client.grpc.Points.RetrievedPoint;
import io.qdrant.client.grpc.Points.ScoredPoint;
import io.qdrant.client.grpc.Points.UpsertPoints;
import io.qdrant.client.grpc.Points.VectorInput;
import io.qdrant.client.grpc.Points.WithPayloadSelector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

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
 * call: one prefetch per leg ({@code dense}, {@code sparse}, {@code bm25}), each with the translated filter and limit
 * {@link HybridQuery#legLimit()}, fused by Qdrant's RRF with {@code k = }{@link RrfFusion#qdrantK(int) rrfK + 1}
 * (Qdrant counts ranks from 0 and defaults to k = 2), which reproduces the embedded store's sums exactly; the fused
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
 * gRPC exception as cause. Upserts are sent in batches of {@link Builder#upsertBatchSize(int)} with {@code wait=true};
 * a failure names the batch, and repeating the whole upsert is safe.
 *
 * <p>Thread-safe: concurrent searches and writes may share one instance (the gRPC client is thread-safe).
 */
public final class QdrantCaseStore implements CaseStore {

    /** Fields that get a keyword payload index in every collection the store creates. */
    public static final List<String> DEFAULT_INDEXED_FIELDS =
            List.of("domain", "type", "tags", "path", "language", "symbolType");

    /**
     * Per-field average lengths (in {@link dev.neuraltext.text.CodeDomainTokenizer} terms) that client-side BM25 assumes
     * by default: {@code name} 6.4 and {@code body} 48.4 measured on the commons-lang benchmark's chunks,
     * {@code signature} 8.6 and {@code doc} 26.9 on the Java chunker's output for neural-text-core's own sources.
     */
    public static final Map<String, Double> DEFAULT_BM25_FIELD_AVERAGE_LENGTHS =
            Map.of("name", 6.4, "signature", 8.6, "doc", 26.9, "body", 48.4);

    /**
     * The average length of every BM25 field over {@code chunks}, in {@link dev.neuraltext.text.CodeDomainTokenizer}
     * terms, for {@link Builder#bm25FieldAverageLengths(Map)}: what the embedded store computes from its contents.
     */
    public static Map<String, Double> bm25FieldAverageLengths(Collection<ChunkInput> chunks) {
        Objects.requireNonNull(chunks, "chunks");
        dev.neuraltext.text.CodeDomainTokenizer tokenizer = dev.neuraltext.text.CodeDomainTokenizer.standard();
        return ClientBm25Encoder.averageLengths(chunks, tokenizer::tokenize);
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QdrantCaseStore.class);

    /** The server-side BM25 model name. */
    static final String BM25_MODEL = "qdrant/bm25";

    /** Hits need the chunk, not the BM25 fields (a second copy of the text). */
    private static final WithPayloadSelector HIT_PAYLOAD = WithPayloadSelector.newBuilder()
            .setExclude(Points.PayloadExcludeSelector.newBuilder().addFields(PayloadCodec.FIELDS)).build();
    private static final WithPayloadSelector NO_PAYLOAD = WithPayloadSelector.newBuilder().setEnable(false).build();

    private final QdrantClient client;
    private final boolean ownsClient;
    private final String collection;
    private final int denseDimension;
    private final Bm25Mode bm25Mode;
    private final ClientBm25Encoder bm25Encoder;
    private final Map<String, Value> bm25Options;
    private final Duration timeout;
    private final int batchSize;
    private final boolean serverSideWeightedRrf;

    private QdrantCaseStore(Builder b, QdrantClient client, boolean ownsClient) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.collection = b.collection;
        this.denseDimension = b.denseDimension;
        this.bm25Mode = b.bm25Mode;
        this.bm25Encoder = b.bm25Mode == Bm25Mode.CLIENT_SIDE
                ? ClientBm25Encoder.standard(b.bm25Params, b.bm25FieldAverageLengths, b.bm25AverageLength) : null;
        Map<String, Value> options = new LinkedHashMap<>();
        if (b.bm25AverageLengthSet) {
            options.put("avg_len", Value.newBuilder().setDoubleValue(b.bm25AverageLength).build());
        }
        this.bm25Options = Map.copyOf(options);
        this.timeout = b.timeout;
        this.batchSize = b.batchSize;
        this.serverSideWeightedRrf = b.serverSideWeightedRrf;
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

    // ---------------------------------------------------------------- writes

    @Override
    public void upsert(List<IndexedCase> cases) {
        Objects.requireNonNull(cases, "cases");
        List<PointStruct> points = new ArrayList<>(cases.size());
        for (IndexedCase c : cases) {
            Objects.requireNonNull(c, "cases element");
            points.add(point(c)); // validates every case before anything is written
        }
        int batches = (points.size() + batchSize - 1) / batchSize;
        for (int i = 0; i < batches; i++) {
            List<PointStruct> batch = points.subList(i * batchSize, Math.min(points.size(), (i + 1) * batchSize));
            UpsertPoints request = UpsertPoints.newBuilder()
                    .setCollectionName(collection)
                    .setWait(true)
                    .addAllPoints(batch)
                    .build();
            QdrantCalls.await(client.upsertAsync(request, timeout),
                    "upsert (batch " + (i + 1) + " of " + batches + ", " + batch.size() + " points; safe to repeat)",
                    collection);
        }
    }

    PointStruct point(IndexedCase c) {
        String id = c.chunk().id();
        float[] dense = c.dense();
        Map<String, Points.Vector> vectors = new LinkedHashMap<>();
        if (dense != null) {
            if (denseDimension == 0) {
                throw new IllegalArgumentException("chunk '" + id + "' has a dense vector (dimension " + dense.length
                        + ") but the store was built without one (denseDimension 0)");
            }
            if (dense.length != denseDimension) {
                throw new IllegalArgumentException("chunk '" + id + "' has a dense vector of dimension " + dense.length
                        + ", the store expects " + denseDimension);
            }
            Points.DenseVector.Builder dv = Points.DenseVector.newBuilder();
            for (float f : dense) {
                dv.addData(f);
            }
            vectors.put(QdrantSchema.DENSE, Points.Vector.newBuilder().setDense(dv).build());
        }
        SparseVector sparse = c.sparse();
        if (sparse != null && sparse.size() > 0) {
            vectors.put(QdrantSchema.SPARSE, Points.Vector.newBuilder().setSparse(sparse(sparse)).build());
        }
        String text = c.chunk().text();
        if (bm25Mode == Bm25Mode.CLIENT_SIDE) {
            Points.SparseVector bm25 = bm25Encoder.document(c.chunk());
            if (bm25.getIndicesCount() > 0) {
                vectors.put(QdrantSchema.BM25, Points.Vector.newBuilder().setSparse(bm25).build());
            }
        } else if (!text.isBlank()) {
            vectors.put(QdrantSchema.BM25, Points.Vector.newBuilder().setDocument(document(text)).build());
        }
        return PointStruct.newBuilder()
                .setId(PointId.newBuilder().setUuid(pointId(id).toString()))
                .putAllPayload(PayloadCodec.encode(c.chunk()))
                .setVectors(Points.Vectors.newBuilder()
                        .setVectors(Points.NamedVectors.newBuilder().putAllVectors(vectors)))
                .build();
    }

    @Override
    public void delete(Collection<String> ids) {
        Objects.requireNonNull(ids, "ids");
        if (ids.isEmpty()) {
            return;
        }
        PointsIdsList.Builder list = PointsIdsList.newBuilder();
        for (String id : new LinkedHashSet<>(ids)) {
            list.addIds(PointId.newBuilder().setUuid(pointId(id).toString()));
        }
        DeletePoints request = DeletePoints.newBuilder()
                .setCollectionName(collection)
                .setWait(true)
                .setPoints(PointsSelector.newBuilder().setPoints(list))
                .build();
        QdrantCalls.await(client.deleteAsync(request, timeout), "delete by id (" + ids.size() + " ids)", collection);
    }

    @Override
    public void deleteWhere(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        DeletePoints request = DeletePoints.newBuilder()
                .setCollectionName(collection)
                .setWait(true)
                .setPoints(PointsSelector.newBuilder().setFilter(QdrantFilterConverter.toFilter(filter)))
                .build();
        QdrantCalls.await(client.deleteAsync(request, timeout), "delete by filter", collection);
    }

    @Override
    public long count(PayloadFilter filter) {
        Objects.requireNonNull(filter, "filter");
        CountPoints request = CountPoints.newBuilder()
                .setCollectionName(collection)
                .setFilter(QdrantFilterConverter.toFilter(filter))
                .setExact(true)
                .build();
        return QdrantCalls.await(points().count(request), "count", collection).getResult().getCount();
    }

    // ---------------------------------------------------------------- search

    @Override
    public List<SearchHit> search(HybridQuery query) {
        Objects.requireNonNull(query, "query");
        Set<Leg> legs = query.legs();
        if (legs.isEmpty()) {
            return List.of();
        }
        Filter filter = query.filter().matchesAll() ? null : QdrantFilterConverter.toFilter(query.filter());
        Map<Leg, LegInput> inputs = legInputs(query);
        FusionMethod fusion = query.fusion();
        boolean uniform = fusion instanceof FusionMethod.Rrf && uniformPositiveWeights(fusion, legs);
        if (fusion instanceof FusionMethod.Rrf && (uniform || serverSideWeightedRrf)) {
            return serverFused(query, (FusionMethod.Rrf) fusion, uniform, inputs, filter);
        }
        return clientFused(query, inputs, filter);
    }

    /** What a leg sends: the vector name and the query input; absent when the query vector is empty. */
    private record LegInput(String using, VectorInput input) {
    }

    private Map<Leg, LegInput> legInputs(HybridQuery query) {
        Map<Leg, LegInput> inputs = new EnumMap<>(Leg.class);
        for (Leg leg : query.legs()) {
            switch (leg) {
                case DENSE: {
                    float[] dense = query.dense();
                    if (denseDimension == 0) {
                        throw new IllegalArgumentException("dense leg requested but the store was built without a dense"
                                + " vector (denseDimension 0)");
                    }
                    if (dense.length != denseDimension) {
                        throw new IllegalArgumentException("dense query vector has dimension " + dense.length
                                + ", the store expects " + denseDimension);
                    }
                    Points.DenseVector.Builder dv = Points.DenseVector.newBuilder();
                    for (float f : dense) {
                        dv.addData(f);
                    }
                    inputs.put(leg, new LegInput(QdrantSchema.DENSE, VectorInput.newBuilder().setDense(dv).build()));
                    break;
                }
                case SPARSE:
                    if (query.sparse().size() > 0) {
                        inputs.put(leg, new LegInput(QdrantSchema.SPARSE,
                                VectorInput.newBuilder().setSparse(sparse(query.sparse())).build()));
                    }
                    break;
                case BM25:
                    if (bm25Mode == Bm25Mode.CLIENT_SIDE) {
                        Points.SparseVector v = bm25Encoder.query(query.text());
                        if (v.getIndicesCount() > 0) {
                            inputs.put(leg, new LegInput(QdrantSchema.BM25,
                                    VectorInput.newBuilder().setSparse(v).build()));
                        }
                    } else {
                        inputs.put(leg, new LegInput(QdrantSchema.BM25,
                                VectorInput.newBuilder().setDocument(document(query.text())).build()));
                    }
                    break;
                default:
                    throw new IllegalArgumentException("unsupported leg " + leg);
            }
        }
        return inputs;
    }

    private static boolean uniformPositiveWeights(FusionMethod fusion, Set<Leg> legs) {
        Double first = null;
        for (Leg leg : legs) {
            double w = fusion.weight(leg);
            if (first == null) {
                first = w;
            } else if (w != first) {
                return false;
            }
        }
        return first != null && first > 0;
    }

    private List<SearchHit> serverFused(HybridQuery query, FusionMethod.Rrf rrf, boolean uniform,
            Map<Leg, LegInput> inputs, Filter filter) {
        if (inputs.isEmpty()) {
            return List.of(); // every leg had an empty query vector: nothing can match
        }
        Points.Rrf.Builder rrfMessage = Points.Rrf.newBuilder().setK(RrfFusion.qdrantK(rrf.k()));
        QueryPoints.Builder fused = QueryPoints.newBuilder()
                .setCollectionName(collection)
                .setLimit(query.limit())
                .setWithPayload(HIT_PAYLOAD);
        for (Map.Entry<Leg, LegInput> e : inputs.entrySet()) {
            PrefetchQuery.Builder p = PrefetchQuery.newBuilder()
                    .setQuery(Query.newBuilder().setNearest(e.getValue().input()))
                    .setUsing(e.getValue().using())
                    .setLimit(query.legLimit());
            if (filter != null) {
                p.setFilter(filter);
            }
            fused.addPrefetch(p);
            if (!uniform) {
                rrfMessage.addWeights((float) rrf.weight(e.getKey()));
            }
        }
        fused.setQuery(Query.newBuilder().setRrf(rrfMessage));
        // The scale's maximum: a hit ranked first by every leg that ran (including legs skipped for an empty vector).
        double max = 0;
        for (Leg leg : query.legs()) {
            max += qdrantContribution(rrf.k(), uniform ? 1 : rrf.weight(leg), 1);
        }
        List<ScoredPoint> points;
        Map<String, Map<Leg, LegScore>> legScores = Map.of();
        if (query.explain()) {
            List<QueryPoints> batch = new ArrayList<>();
            batch.add(fused.build());
            List<Leg> order = new ArrayList<>(inputs.keySet());
            for (Leg leg : order) {
                // no payload: ranks are matched to the fused hits by point id
                batch.add(legQuery(inputs.get(leg), filter, query.legLimit(), NO_PAYLOAD));
            }
            List<Points.BatchResult> results = queryBatch(batch);
            points = results.get(0).getResultList();
            Map<Leg, List<LegResult>> legResults = new EnumMap<>(Leg.class);
            for (int i = 0; i < order.size(); i++) {
                List<LegResult> list = new ArrayList<>();
                for (ScoredPoint p : results.get(i + 1).getResultList()) {
                    list.add(new LegResult(p.getId().getUuid(), p.getScore()));
                }
                legResults.put(order.get(i), list);
            }
            legScores = byId(legResults);
        } else {
            points = QdrantCalls.await(client.queryAsync(fused.build(), timeout), "query", collection);
        }
        List<SearchHit> hits = new ArrayList<>(points.size());
        for (ScoredPoint p : points) {
            PayloadCodec.Decoded d = PayloadCodec.decode(p.getPayloadMap());
            if (d == null) {
                continue; // a point written by another tool
            }
            Map<Leg, LegScore> legs = legScores.getOrDefault(p.getId().getUuid(), Map.of());
            double raw = p.getScore();
            if (!legs.isEmpty()) {
                // Explain mode knows every rank: recompute Qdrant's sum in double instead of its 32-bit float.
                double[] terms = new double[legs.size()];
                int n = 0;
                for (LegScore s : legs.values()) {
                    terms[n++] = qdrantContribution(rrf.k(), uniform ? 1 : rrf.weight(s.leg()), s.rank());
                }
                java.util.Arrays.sort(terms); // ascending, as the embedded fusion sums, so equal multisets tie
                raw = 0;
                for (double t : terms) {
                    raw += t;
                }
            }
            double score = max == 0 ? 0 : Math.max(0, Math.min(1, raw / max));
            hits.add(hit(d, score, legs));
        }
        hits.sort(HIT_ORDER);
        return hits;
    }

    /**
     * What Qdrant's RRF gives 1-based {@code rank} in a leg of weight {@code w} when sent {@code k + 1}:
     * {@code 1 / (rank / w + k)}, which is {@code 1 / (k + rank)} for unit weights (our RRF's sum up to the weight).
     */
    static double qdrantContribution(int k, double w, int rank) {
        return w <= 0 ? 0 : 1 / (rank / w + k);
    }

    private List<SearchHit> clientFused(HybridQuery query, Map<Leg, LegInput> inputs, Filter filter) {
        List<Leg> order = new ArrayList<>(inputs.keySet());
        Map<Leg, List<LegResult>> legResults = new EnumMap<>(Leg.class);
        for (Leg leg : query.legs()) {
            legResults.put(leg, List.of()); // legs with an empty query vector ran and found nothing
        }
        int candidates = 0;
        if (!order.isEmpty()) {
            List<QueryPoints> batch = new ArrayList<>();
            for (Leg leg : order) {
                // no payload: legs are fused by point id, chunk ids are fetched for the top hits only
                batch.add(legQuery(inputs.get(leg), filter, query.legLimit(), NO_PAYLOAD));
            }
            List<Points.BatchResult> results = queryBatch(batch);
            for (int i = 0; i < order.size(); i++) {
                List<LegResult> list = new ArrayList<>();
                for (ScoredPoint p : results.get(i).getResultList()) {
                    list.add(new LegResult(p.getId().getUuid(), p.getScore()));
                }
                candidates += list.size();
                legResults.put(order.get(i), list);
            }
        }
        if (candidates == 0) {
            return List.of();
        }
        List<FusedResult> fused = Fusion.of(query.fusion()).fuse(legResults, candidates);
        // Keep the top `limit` plus whatever ties with the last of them on (score, best rank): the embedded store breaks
        // those ties by chunk id, which is known only after fetching the payloads.
        int keep = Math.min(query.limit(), fused.size());
        while (keep < fused.size() && fused.get(keep).fusedScore() == fused.get(keep - 1).fusedScore()
                && bestRank(fused.get(keep).legs()) == bestRank(fused.get(keep - 1).legs())) {
            keep++;
        }
        fused = fused.subList(0, keep);
        GetPoints.Builder get = GetPoints.newBuilder().setCollectionName(collection).setWithPayload(HIT_PAYLOAD);
        for (FusedResult r : fused) {
            get.addIds(PointId.newBuilder().setUuid(r.id()));
        }
        List<RetrievedPoint> retrieved = QdrantCalls.await(client.retrieveAsync(get.build(), timeout),
                "get (payload of fused hits)", collection);
        Map<String, PayloadCodec.Decoded> byPointId = new HashMap<>();
        for (RetrievedPoint p : retrieved) {
            PayloadCodec.Decoded d = PayloadCodec.decode(p.getPayloadMap());
            if (d != null) {
                byPointId.put(p.getId().getUuid(), d);
            }
        }
        List<SearchHit> hits = new ArrayList<>(fused.size());
        for (FusedResult r : fused) {
            PayloadCodec.Decoded d = byPointId.get(r.id());
            if (d != null) { // null: deleted between the two calls
                hits.add(hit(d, r.fusedScore(), r.legs()));
            }
        }
        hits.sort(HIT_ORDER);
        return hits.size() > query.limit() ? List.copyOf(hits.subList(0, query.limit())) : hits;
    }

    private QueryPoints legQuery(LegInput input, Filter filter, int limit, WithPayloadSelector payload) {
        QueryPoints.Builder q = QueryPoints.newBuilder()
                .setCollectionName(collection)
                .setQuery(Query.newBuilder().setNearest(input.input()))
                .setUsing(input.using())
                .setLimit(limit)
                .setWithPayload(payload);
        if (filter != null) {
            q.setFilter(filter);
        }
        return q.build();
    }

    private List<Points.BatchResult> queryBatch(List<QueryPoints> queries) {
        QueryBatchPoints request = QueryBatchPoints.newBuilder()
                .setCollectionName(collection)
                .addAllQueryPoints(queries)
                .build();
        return QdrantCalls.await(points().queryBatch(request), "query_batch", collection).getResultList();
    }

    private static Map<String, Map<Leg, LegScore>> byId(Map<Leg, List<LegResult>> legResults) {
        Map<String, Map<Leg, LegScore>> out = new HashMap<>();
        legResults.forEach((leg, results) -> {
            int rank = 0;
            for (LegResult r : results) {
                rank++;
                out.computeIfAbsent(r.id(), k -> new EnumMap<>(Leg.class))
                        .putIfAbsent(leg, new LegScore(leg, rank, r.score()));
            }
        });
        return out;
    }

    private static SearchHit hit(PayloadCodec.Decoded d, double score, Map<Leg, LegScore> legs) {
        return new SearchHit(d.id(), d.text(), d.metadata(), d.listMetadata(), score, score, legs);
    }

    /** The embedded store's order: fused score descending, best leg rank ascending, chunk id ascending. */
    private static final Comparator<SearchHit> HIT_ORDER = Comparator.comparingDouble(SearchHit::fusedScore).reversed()
            .thenComparingInt((SearchHit h) -> bestRank(h.legs()))
            .thenComparing(SearchHit::id);

    private static int bestRank(Map<Leg, LegScore> legs) {
        int best = Integer.MAX_VALUE;
        for (LegScore s : legs.values()) {
            best = Math.min(best, s.rank());
        }
        return best;
    }

    private Document document(String text) {
        return Document.newBuilder()
                .setText(CamelCaseExpander.expand(text))
                .setModel(BM25_MODEL)
                .putAllOptions(bm25Options)
                .build();
    }

    private static Points.SparseVector sparse(SparseVector v) {
        Points.SparseVector.Builder b = Points.SparseVector.newBuilder();
        for (int i = 0; i < v.size(); i++) {
            b.addIndices(v.indexAt(i)).addValues(v.valueAt(i));
        }
        return b.build();
    }

    private io.qdrant.client.grpc.PointsGrpc.PointsFutureStub points() {
        return client.grpcClient().points().withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
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

    // ---------------------------------------------------------------- collection setup

    /**
     * Fails unless the server is recent enough for what this store sends: RRF with {@code k} needs 1.16 (an older
     * server would silently drop the field and fuse with k = 2), server-side weights 1.17, {@code qdrant/bm25} 1.15.3.
     * A version string that does not parse is accepted with a warning.
     */
    private void checkServerVersion(Builder b) {
        String version = QdrantCalls.await(client.healthCheckAsync(timeout), "health_check", collection).getVersion();
        int[] v = parseVersion(version);
        if (v == null) {
            LOG.warn("cannot parse Qdrant server version '{}'; assuming it supports RRF with k", version);
            return;
        }
        int[] needed = b.serverSideWeightedRrf ? new int[] {1, 17, 0} : new int[] {1, 16, 0};
        if (compare(v, needed) < 0) {
            throw new NonRetriableNeuralTextException("Qdrant server " + version + " is too old for collection '"
                    + collection + "': need " + needed[0] + "." + needed[1] + "." + needed[2] + " or later (RRF with an"
                    + " explicit k" + (b.serverSideWeightedRrf ? " and per-prefetch weights" : "") + ")", null);
        }
    }

    static int[] parseVersion(String version) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\.(\\d+))?.*")
                .matcher(version == null ? "" : version.trim());
        if (!m.matches()) {
            return null;
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            m.group(3) == null ? 0 : Integer.parseInt(m.group(3))};
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < 3; i++) {
            if (a[i] != b[i]) {
                return Integer.compare(a[i], b[i]);
            }
        }
        return 0;
    }

    private void ensureCollection(Builder b) {
        if (b.checkServerVersion) {
            checkServerVersion(b);
        }
        boolean exists = QdrantCalls.await(client.collectionExistsAsync(collection, timeout), "collection_exists",
                collection);
        if (!exists) {
            if (!b.createIfMissing) {
                throw new NonRetriableNeuralTextException("Qdrant collection '" + collection
                        + "' does not exist and createIfMissing is false", null);
            }
            if (create(b)) {
                createPayloadIndexes(b.indexedFields, Set.of());
                return;
            }
            // Someone else created it meanwhile: verify it like any existing collection.
        }
        CollectionInfo info = QdrantCalls.await(client.getCollectionInfoAsync(collection, timeout),
                "get collection info", collection);
        List<String> diffs = QdrantSchema.differences(info, denseDimension);
        if (!diffs.isEmpty()) {
            if (!b.recreateIncompatible) {
                throw new NonRetriableNeuralTextException("Qdrant collection '" + collection
                        + "' is incompatible with this store: " + String.join("; ", diffs)
                        + ". Use another collection name, fix it, or set recreateIncompatibleCollection(true) to drop"
                        + " and re-create it (deletes its points)", null);
            }
            LOG.warn("dropping incompatible Qdrant collection '{}' ({}) as recreateIncompatibleCollection is set",
                    collection, String.join("; ", diffs));
            QdrantCalls.await(client.deleteCollectionAsync(collection, timeout), "delete incompatible collection",
                    collection);
            create(b);
            createPayloadIndexes(b.indexedFields, Set.of());
            return;
        }
        createPayloadIndexes(b.indexedFields, info.getPayloadSchemaMap().keySet());
    }

    /** Creates the collection; false when it already existed (created concurrently). */
    private boolean create(Builder b) {
        try {
            QdrantCalls.await(client.createCollectionAsync(QdrantSchema.create(collection, denseDimension, b.shards,
                    b.replicationFactor, b.writeConsistencyFactor), timeout), "create collection", collection);
            return true;
        } catch (NeuralTextException e) {
            // Qdrant answers ALREADY_EXISTS (older servers: INVALID_ARGUMENT "... already exists!")
            Status.Code code = QdrantCalls.code(e);
            if (code == Status.Code.ALREADY_EXISTS || code == Status.Code.INVALID_ARGUMENT
                    && String.valueOf(e.getMessage()).contains("already exists")) {
                return false;
            }
            throw e;
        }
    }

    private void createPayloadIndexes(List<String> fields, Set<String> existing) {
        for (String field : fields) {
            if (existing.contains(field)) {
                continue;
            }
            Points.CreateFieldIndexCollection request = Points.CreateFieldIndexCollection.newBuilder()
                    .setCollectionName(collection)
                    .setWait(true)
                    .setFieldName(field)
                    .setFieldType(FieldType.FieldTypeKeyword)
                    .build();
            QdrantCalls.await(client.createPayloadIndexAsync(request, timeout),
                    "create keyword payload index on '" + field + "'", collection);
        }
    }

    /**
     * Configures a {@link QdrantCaseStore}. Defaults: host {@code localhost}, port 6334 (gRPC), no TLS, no API key,
     * timeout 30 s per call, no dense vector (dimension 0), {@link Bm25Mode#CLIENT_SIDE} with {@link Bm25Params#defaults()}
     * and field average lengths {@link #DEFAULT_BM25_FIELD_AVERAGE_LENGTHS} (others 48.4), 1 shard, replication factor 1, write consistency factor 1, keyword
     * indexes on {@link #DEFAULT_INDEXED_FIELDS}, upsert batches of 64 points, create the collection when missing, never
     * drop an incompatible one, client-side fusion for RRF with unequal weights, check the server version. The
     * collection name is required.
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
                store.ensureCollection(this);
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
            return store;
        }
    }
}
