package dev.neuraltext.qdrant;

import com.google.protobuf.Message;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;
import io.qdrant.client.grpc.Collections;
import io.qdrant.client.grpc.Collections.CollectionConfig;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.CollectionParams;
import io.qdrant.client.grpc.Collections.PayloadSchemaInfo;
import io.qdrant.client.grpc.Collections.PayloadSchemaType;
import io.qdrant.client.grpc.CollectionsGrpc;
import io.qdrant.client.grpc.JsonWithInt.Value;
import io.qdrant.client.grpc.Points;
import io.qdrant.client.grpc.Points.PointStruct;
import io.qdrant.client.grpc.Points.QueryPoints;
import io.qdrant.client.grpc.Points.ScoredPoint;
import io.qdrant.client.grpc.PointsGrpc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process stand-in for a Qdrant server, implementing the client's own generated service bases. It records every
 * request (and the size of every response) and answers realistically for one collection: create/exists/get/delete of
 * the collection, payload indexes, upsert, delete by id, count (of all points), get, and query / query_batch with
 * nearest (dense cosine, sparse dot product with the IDF modifier) and Qdrant's RRF formula over prefetches. Filters
 * are evaluated with {@link QdrantSemantics}; server-side inference ({@code Document}) returns no hits. Collection
 * metadata is kept and merged as Qdrant 1.16 does; calls on a missing collection answer NOT_FOUND. Failures can be
 * injected per method, or by the number of a call among all calls ({@link #faults}: a status for some calls, a call
 * applied but answered with an error, a restart that keeps or loses the state).
 */
final class FakeQdrant implements AutoCloseable {

    /** One recorded call. */
    record Call(String method, Message request, int requestBytes, int responseBytes) {
    }

    private static final AtomicInteger NAMES = new AtomicInteger();

    final List<Call> calls = new CopyOnWriteArrayList<>();
    final Map<String, Status> failures = new java.util.concurrent.ConcurrentHashMap<>();
    /** method -> (1-based call number that fails, status). */
    final Map<String, Map.Entry<Integer, Status>> failOnCall = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> callCounts = new java.util.concurrent.ConcurrentHashMap<>();
    final ConcurrentLinkedDeque<Long> delaysMs = new ConcurrentLinkedDeque<>();
    volatile Collections.CreateCollection created;
    /** When set, collection_exists answers false once (another client creates the collection meanwhile). */
    volatile boolean existsLiesOnce;
    final Map<String, PayloadSchemaInfo> payloadSchema = new LinkedHashMap<>();
    /** The collection metadata (merged by update, as Qdrant does). */
    final Map<String, Value> metadata = new LinkedHashMap<>();
    /** Faults by the 1-based number of a call among all calls. */
    final FaultPlan faults = new FaultPlan();
    private final AtomicInteger allCalls = new AtomicInteger();
    final Map<String, PointStruct> points = new LinkedHashMap<>();

    private final AtomicInteger writes = new AtomicInteger();
    private final Server server;
    private final ManagedChannel channel;

    FakeQdrant() throws IOException {
        this(false);
    }

    /** With {@code loopback}, a Netty server on a free 127.0.0.1 port (see {@link #port()}) instead of in-process. */
    FakeQdrant(boolean loopback) throws IOException {
        String name = "fake-qdrant-" + NAMES.incrementAndGet();
        if (loopback) {
            server = io.grpc.Grpc.newServerBuilderForPort(0, io.grpc.InsecureServerCredentials.create())
                    .addService(new PointsService()).addService(new CollectionsService())
                    .addService(new HealthService()).build().start();
            channel = null;
        } else {
            server = InProcessServerBuilder.forName(name)
                    .addService(new PointsService()).addService(new CollectionsService())
                    .addService(new HealthService()).build().start();
            channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        }
    }

    /** The loopback port. */
    int port() {
        return server.getPort();
    }

    /** A client over the in-process channel; the caller owns it. */
    QdrantClient client() {
        return new QdrantClient(QdrantGrpcClient.newBuilder(channel, false, false).build());
    }

    /** The channel (for ownership tests). */
    ManagedChannel channel() {
        return channel;
    }

    /** Makes the next calls of {@code method} fail with {@code status} (until cleared). */
    void fail(String method, Status status) {
        failures.put(method, status);
    }

    List<Call> calls(String method) {
        List<Call> out = new ArrayList<>();
        for (Call c : calls) {
            if (c.method().equals(method)) {
                out.add(c);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    <T extends Message> List<T> requests(String method) {
        List<T> out = new ArrayList<>();
        for (Call c : calls(method)) {
            out.add((T) c.request());
        }
        return out;
    }

    /** Pretends an existing collection with this creation request (e.g. an incompatible one) and its metadata. */
    synchronized void preexisting(Collections.CreateCollection collection) {
        created = collection;
        metadata.clear();
        metadata.putAll(collection.getMetadataMap());
    }

    /** The completion marker's value, or null. */
    synchronized String marker() {
        Value v = metadata.get(QdrantCompletion.KEY);
        return v == null ? null : v.getStringValue();
    }

    /** The number of calls answered (or refused) so far. */
    int callCount() {
        return allCalls.get();
    }

    /** What a delete does, and a restart without persistence: the collection and everything in it are gone. */
    private synchronized void dropCollection() {
        writes.incrementAndGet();
        created = null;
        points.clear();
        payloadSchema.clear();
        metadata.clear();
    }

    private void requireCollection(String name) {
        if (created == null) {
            throw Status.NOT_FOUND.withDescription("Collection `" + name + "` doesn't exist!").asRuntimeException();
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.shutdownNow();
        }
        server.shutdownNow();
    }

    private <T extends Message> void answer(String method, Message request, StreamObserver<T> observer,
            java.util.function.Supplier<T> response) {
        Long delay = delaysMs.poll();
        if (delay != null) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        FaultPlan.Fault planned = faults.at(allCalls.incrementAndGet());
        if (planned != null && planned.loseState()) {
            dropCollection();
        }
        Status failure = failures.get(method);
        int n = callCounts.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
        Map.Entry<Integer, Status> nth = failOnCall.get(method);
        if (failure == null && nth != null && nth.getKey() == n) {
            failure = nth.getValue();
        }
        boolean applyFirst = false;
        if (failure == null && planned != null && planned.status() != null) {
            failure = planned.status();
            applyFirst = planned.applied();
        }
        if (failure != null && !applyFirst) {
            calls.add(new Call(method, request, request.getSerializedSize(), 0));
            observer.onError(failure.asRuntimeException());
            return;
        }
        T r;
        try {
            synchronized (this) {
                r = response.get();
            }
        } catch (io.grpc.StatusRuntimeException e) {
            calls.add(new Call(method, request, request.getSerializedSize(), 0));
            observer.onError(e);
            return;
        }
        if (failure != null) { // applied, but the answer is lost (a deadline, a dropped connection)
            calls.add(new Call(method, request, request.getSerializedSize(), 0));
            observer.onError(failure.asRuntimeException());
            return;
        }
        calls.add(new Call(method, request, request.getSerializedSize(), r.getSerializedSize()));
        observer.onNext(r);
        observer.onCompleted();
    }

    private static Points.PointsOperationResponse ok() {
        return Points.PointsOperationResponse.newBuilder().setResult(Points.UpdateResult.newBuilder()
                .setOperationId(1).setStatus(Points.UpdateStatus.Completed)).setTime(0.001).build();
    }

    private boolean exists() {
        if (existsLiesOnce) {
            existsLiesOnce = false;
            return false;
        }
        return created != null;
    }

    /** The version the health check reports. */
    volatile String version = "1.17.1";

    private final class HealthService extends io.qdrant.client.grpc.QdrantGrpc.QdrantImplBase {
        @Override
        public void healthCheck(io.qdrant.client.grpc.QdrantOuterClass.HealthCheckRequest request,
                StreamObserver<io.qdrant.client.grpc.QdrantOuterClass.HealthCheckReply> observer) {
            answer("healthCheck", request, observer, () -> io.qdrant.client.grpc.QdrantOuterClass.HealthCheckReply
                    .newBuilder().setTitle("qdrant - vector search engine").setVersion(version).build());
        }
    }

    private final class CollectionsService extends CollectionsGrpc.CollectionsImplBase {
        @Override
        public void collectionExists(Collections.CollectionExistsRequest request,
                StreamObserver<Collections.CollectionExistsResponse> observer) {
            answer("collectionExists", request, observer, () -> Collections.CollectionExistsResponse.newBuilder()
                    .setResult(Collections.CollectionExists.newBuilder().setExists(exists())).build());
        }

        @Override
        public void create(Collections.CreateCollection request,
                StreamObserver<Collections.CollectionOperationResponse> observer) {
            answer("create", request, observer, () -> {
                if (created != null) {
                    throw Status.ALREADY_EXISTS.withDescription("Collection exists").asRuntimeException();
                }
                created = request;
                metadata.clear();
                metadata.putAll(request.getMetadataMap());
                return Collections.CollectionOperationResponse.newBuilder().setResult(true).build();
            });
        }

        @Override
        public void update(Collections.UpdateCollection request,
                StreamObserver<Collections.CollectionOperationResponse> observer) {
            answer("updateCollection", request, observer, () -> {
                requireCollection(request.getCollectionName());
                metadata.putAll(request.getMetadataMap());
                return Collections.CollectionOperationResponse.newBuilder().setResult(true).build();
            });
        }

        @Override
        public void delete(Collections.DeleteCollection request,
                StreamObserver<Collections.CollectionOperationResponse> observer) {
            answer("deleteCollection", request, observer, () -> {
                dropCollection();
                return Collections.CollectionOperationResponse.newBuilder().setResult(true).build();
            });
        }

        @Override
        public void get(Collections.GetCollectionInfoRequest request,
                StreamObserver<Collections.GetCollectionInfoResponse> observer) {
            answer("getCollection", request, observer, () -> {
                requireCollection(request.getCollectionName());
                return Collections.GetCollectionInfoResponse.newBuilder()
                        .setResult(CollectionInfo.newBuilder()
                                .setStatus(Collections.CollectionStatus.Green)
                                .setPointsCount(points.size())
                                .putAllPayloadSchema(payloadSchema)
                                .setConfig(CollectionConfig.newBuilder().setParams(CollectionParams.newBuilder()
                                        .setShardNumber(created.getShardNumber())
                                        .setVectorsConfig(created.getVectorsConfig())
                                        .setSparseVectorsConfig(created.getSparseVectorsConfig()))
                                        .putAllMetadata(metadata)))
                        .build();
            });
        }
    }

    private final class PointsService extends PointsGrpc.PointsImplBase {
        @Override
        public void createFieldIndex(Points.CreateFieldIndexCollection request,
                StreamObserver<Points.PointsOperationResponse> observer) {
            answer("createFieldIndex", request, observer, () -> {
                requireCollection(request.getCollectionName());
                payloadSchema.put(request.getFieldName(),
                        PayloadSchemaInfo.newBuilder().setDataType(PayloadSchemaType.Keyword).build());
                return ok();
            });
        }

        @Override
        public void upsert(Points.UpsertPoints request, StreamObserver<Points.PointsOperationResponse> observer) {
            answer("upsert", request, observer, () -> {
                requireCollection(request.getCollectionName());
                writes.incrementAndGet();
                for (PointStruct p : request.getPointsList()) {
                    points.put(p.getId().getUuid(), p);
                }
                return ok();
            });
        }

        @Override
        public void delete(Points.DeletePoints request, StreamObserver<Points.PointsOperationResponse> observer) {
            answer("delete", request, observer, () -> {
                requireCollection(request.getCollectionName());
                writes.incrementAndGet();
                if (request.getPoints().hasPoints()) {
                    for (var id : request.getPoints().getPoints().getIdsList()) {
                        points.remove(id.getUuid());
                    }
                } else {
                    points.values().removeIf(p -> QdrantSemantics.test(request.getPoints().getFilter(),
                            p.getPayloadMap()));
                }
                return ok();
            });
        }

        @Override
        public void count(Points.CountPoints request, StreamObserver<Points.CountResponse> observer) {
            answer("count", request, observer, () -> {
                requireCollection(request.getCollectionName());
                return Points.CountResponse.newBuilder()
                        .setResult(Points.CountResult.newBuilder().setCount(points.values().stream()
                                .filter(p -> QdrantSemantics.test(request.getFilter(), p.getPayloadMap())).count()))
                        .build();
            });
        }

        @Override
        public void get(Points.GetPoints request, StreamObserver<Points.GetResponse> observer) {
            answer("get", request, observer, () -> {
                requireCollection(request.getCollectionName());
                Points.GetResponse.Builder r = Points.GetResponse.newBuilder();
                for (var id : request.getIdsList()) {
                    PointStruct p = points.get(id.getUuid());
                    if (p != null) {
                        r.addResult(Points.RetrievedPoint.newBuilder().setId(p.getId())
                                .putAllPayload(payload(p, request.getWithPayload())));
                    }
                }
                return r.build();
            });
        }

        @Override
        public void query(QueryPoints request, StreamObserver<Points.QueryResponse> observer) {
            answer("query", request, observer, () -> {
                requireCollection(request.getCollectionName());
                return Points.QueryResponse.newBuilder().addAllResult(run(request)).build();
            });
        }

        @Override
        public void queryBatch(Points.QueryBatchPoints request, StreamObserver<Points.QueryBatchResponse> observer) {
            answer("queryBatch", request, observer, () -> {
                requireCollection(request.getCollectionName());
                Points.QueryBatchResponse.Builder r = Points.QueryBatchResponse.newBuilder();
                for (QueryPoints q : request.getQueryPointsList()) {
                    r.addResult(Points.BatchResult.newBuilder().addAllResult(run(q)));
                }
                return r.build();
            });
        }
    }

    // ---------------------------------------------------------------- a tiny query engine

    private List<ScoredPoint> run(QueryPoints q) {
        List<ScoredPoint> scored;
        if (q.getPrefetchCount() > 0) {
            List<List<ScoredPoint>> legs = new ArrayList<>();
            for (Points.PrefetchQuery p : q.getPrefetchList()) {
                legs.add(nearest(p.getQuery().getNearest(), p.getUsing(), p.getFilter(), (int) p.getLimit()));
            }
            scored = rrf(legs, q.getQuery().getRrf());
        } else {
            scored = nearest(q.getQuery().getNearest(), q.getUsing(), q.getFilter(), Integer.MAX_VALUE);
        }
        List<ScoredPoint> out = new ArrayList<>();
        for (ScoredPoint s : scored.subList(0, (int) Math.min(scored.size(), q.getLimit()))) {
            out.add(s.toBuilder().putAllPayload(payload(points.get(s.getId().getUuid()), q.getWithPayload())).build());
        }
        return out;
    }

    private List<ScoredPoint> nearest(Points.VectorInput input, String using, io.qdrant.client.grpc.Common.Filter filter,
            int limit) {
        List<ScoredPoint> out = new ArrayList<>();
        Points.SparseVector sparseQuery = input.hasSparse() ? idf(input.getSparse(), using) : null;
        if (sparseQuery != null) {
            // inverted-index evaluation: only points sharing an index are candidates, as in Qdrant
            Map<String, Double> acc = new HashMap<>();
            Map<Integer, List<Map.Entry<String, Float>>> postings = postings(using);
            for (int i = 0; i < sparseQuery.getIndicesCount(); i++) {
                float q = sparseQuery.getValues(i);
                for (Map.Entry<String, Float> e : postings.getOrDefault(sparseQuery.getIndices(i), List.of())) {
                    acc.merge(e.getKey(), (double) q * e.getValue(), Double::sum);
                }
            }
            acc.forEach((id, score) -> {
                PointStruct p = points.get(id);
                if (QdrantSemantics.test(filter, p.getPayloadMap())) {
                    out.add(ScoredPoint.newBuilder().setId(p.getId()).setScore(score.floatValue()).build());
                }
            });
            out.sort(Comparator.comparingDouble(ScoredPoint::getScore).reversed()
                    .thenComparing(sp -> sp.getId().getUuid()));
            return out.subList(0, Math.min(out.size(), limit));
        }
        for (PointStruct p : points.values()) {
            Points.Vector v = p.getVectors().getVectors().getVectorsMap().get(using);
            if (v == null || !QdrantSemantics.test(filter, p.getPayloadMap())) {
                continue;
            }
            Double score = null;
            if (input.hasDense() && v.hasDense()) {
                score = cosine(input.getDense().getDataList(), v.getDense().getDataList());
            }
            if (score != null) {
                out.add(ScoredPoint.newBuilder().setId(p.getId()).setScore(score.floatValue()).build());
            }
        }
        out.sort(Comparator.comparingDouble(ScoredPoint::getScore).reversed()
                .thenComparing(s -> s.getId().getUuid()));
        return out.subList(0, Math.min(out.size(), limit));
    }

    /** Qdrant's RRF: a 0-based position p in a leg of weight w earns 1 / ((p + 1) / w + k - 1); k defaults to 2. */
    private static List<ScoredPoint> rrf(List<List<ScoredPoint>> legs, Points.Rrf rrf) {
        int k = rrf.hasK() ? rrf.getK() : 2;
        Map<String, Float> scores = new LinkedHashMap<>();
        Map<String, ScoredPoint> byId = new HashMap<>();
        for (int l = 0; l < legs.size(); l++) {
            float w = rrf.getWeightsCount() == 0 ? 1f : rrf.getWeights(l);
            List<ScoredPoint> leg = legs.get(l);
            for (int p = 0; p < leg.size(); p++) {
                float s = w <= 0 ? 0f : 1f / ((p + 1) / w + k - 1);
                String id = leg.get(p).getId().getUuid();
                scores.merge(id, s, Float::sum);
                byId.putIfAbsent(id, leg.get(p));
            }
        }
        List<ScoredPoint> out = new ArrayList<>();
        scores.forEach((id, s) -> out.add(byId.get(id).toBuilder().setScore(s).build()));
        out.sort(Comparator.comparingDouble(ScoredPoint::getScore).reversed());
        return out;
    }

    private static Map<String, Value> payload(PointStruct p, Points.WithPayloadSelector selector) {
        if (p == null || selector.hasEnable() && !selector.getEnable()
                || selector.getSelectorOptionsCase() == Points.WithPayloadSelector.SelectorOptionsCase.SELECTOROPTIONS_NOT_SET) {
            return Map.of();
        }
        if (selector.hasExclude()) {
            Map<String, Value> out = new HashMap<>(p.getPayloadMap());
            out.keySet().removeAll(selector.getExclude().getFieldsList());
            return out;
        }
        if (selector.hasInclude()) {
            Map<String, Value> out = new HashMap<>();
            for (String f : selector.getInclude().getFieldsList()) {
                Value v = p.getPayloadMap().get(f);
                if (v != null) {
                    out.put(f, v);
                }
            }
            return out;
        }
        return p.getPayloadMap();
    }

    private static double cosine(List<Float> a, List<Float> b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            dot += a.get(i) * b.get(i);
            na += a.get(i) * a.get(i);
            nb += b.get(i) * b.get(i);
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /**
     * With {@code Modifier.Idf} on the vector, Qdrant multiplies each query value by
     * {@code ln(1 + (N - n + 0.5) / (n + 0.5))}, N the number of points, n those having the index.
     */
    private Points.SparseVector idf(Points.SparseVector query, String using) {
        var params = created == null ? null : created.getSparseVectorsConfig().getMapMap().get(using);
        if (params == null || params.getModifier() != Collections.Modifier.Idf) {
            return query;
        }
        Points.SparseVector.Builder b = Points.SparseVector.newBuilder();
        for (int i = 0; i < query.getIndicesCount(); i++) {
            int index = query.getIndices(i);
            long n = documentFrequencies(using).getOrDefault(index, 0);
            double idf = Math.log(1 + (points.size() - n + 0.5) / (n + 0.5));
            b.addIndices(index).addValues((float) (query.getValues(i) * idf));
        }
        return b.build();
    }

    private Map<String, Map<Integer, Integer>> df = new HashMap<>();
    private int dfVersion = -1;

    private Map<String, Map<Integer, List<Map.Entry<String, Float>>>> postings = new HashMap<>();

    private Map<Integer, List<Map.Entry<String, Float>>> postings(String using) {
        documentFrequencies(using); // resets the caches after writes
        return postings.computeIfAbsent(using, u -> {
            Map<Integer, List<Map.Entry<String, Float>>> m = new HashMap<>();
            points.forEach((id, p) -> {
                Points.Vector v = p.getVectors().getVectors().getVectorsMap().get(u);
                if (v != null && v.hasSparse()) {
                    for (int i = 0; i < v.getSparse().getIndicesCount(); i++) {
                        m.computeIfAbsent(v.getSparse().getIndices(i), k -> new ArrayList<>())
                                .add(Map.entry(id, v.getSparse().getValues(i)));
                    }
                }
            });
            return m;
        });
    }

    private Map<Integer, Integer> documentFrequencies(String using) {
        int version = writes.get();
        if (version != dfVersion) {
            df = new HashMap<>();
            postings = new HashMap<>();
            dfVersion = version;
        }
        return df.computeIfAbsent(using, u -> {
            Map<Integer, Integer> m = new HashMap<>();
            for (PointStruct p : points.values()) {
                Points.Vector v = p.getVectors().getVectors().getVectorsMap().get(u);
                if (v != null) {
                    for (int i : v.getSparse().getIndicesList()) {
                        m.merge(i, 1, Integer::sum);
                    }
                }
            }
            return m;
        });
    }

}
