package dev.neuraltext.qdrant;

import dev.neuraltext.fusion.FusedResult;
import dev.neuraltext.fusion.Fusion;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.PointId;
import io.qdrant.client.grpc.Points.GetPoints;
import io.qdrant.client.grpc.Points.PrefetchQuery;
import io.qdrant.client.grpc.Points.Query;
import io.qdrant.client.grpc.Points.QueryBatchPoints;
import io.qdrant.client.grpc.Points.QueryPoints;
import io.qdrant.client.grpc.Points.RetrievedPoint;
import io.qdrant.client.grpc.Points.ScoredPoint;
import io.qdrant.client.grpc.Points.WithPayloadSelector;
import io.qdrant.client.grpc.Points;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * The search of {@link QdrantCaseStore}: server-side RRF in one {@code query} call where Qdrant's arithmetic equals
 * ours, the legs in one {@code query_batch} call fused in Java otherwise (see the store's class documentation). Each
 * search reads the collection's info alongside and answers only when the collection is laid out for this store and
 * whole ({@link QdrantCompletion}); it is not repeated on failure, so it fails at once with a clear error instead.
 * Thread-safe.
 */
final class QdrantSearch {

    /** Hits need the chunk, not the BM25 fields (a second copy of the text). */
    private static final WithPayloadSelector HIT_PAYLOAD = WithPayloadSelector.newBuilder()
            .setExclude(Points.PayloadExcludeSelector.newBuilder().addFields(PayloadCodec.FIELDS)).build();
    private static final WithPayloadSelector NO_PAYLOAD = WithPayloadSelector.newBuilder().setEnable(false).build();

    /** The embedded store's order: fused score descending, best leg rank ascending, chunk id ascending. */
    private static final Comparator<SearchHit> HIT_ORDER = Comparator.comparingDouble(SearchHit::fusedScore).reversed()
            .thenComparingInt((SearchHit h) -> bestRank(h.legs()))
            .thenComparing(SearchHit::id);

    private final QdrantTarget target;
    private final QdrantVectors vectors;
    private final boolean serverSideWeightedRrf;

    QdrantSearch(QdrantTarget target, QdrantVectors vectors, boolean serverSideWeightedRrf) {
        this.target = target;
        this.vectors = vectors;
        this.serverSideWeightedRrf = serverSideWeightedRrf;
    }

    List<SearchHit> search(HybridQuery query) {
        Objects.requireNonNull(query, "query");
        Set<Leg> legs = query.legs();
        if (legs.isEmpty()) {
            return List.of();
        }
        Filter filter = query.filter().matchesAll() ? null : QdrantFilterConverter.toFilter(query.filter());
        Map<Leg, QdrantVectors.LegInput> inputs = vectors.query(query);
        FusionMethod fusion = query.fusion();
        boolean uniform = fusion instanceof FusionMethod.Rrf && uniformPositiveWeights(fusion, legs);
        boolean serverSide = fusion instanceof FusionMethod.Rrf && (uniform || serverSideWeightedRrf);
        if (serverSide && inputs.isEmpty()) {
            return List.of(); // every leg had an empty query vector: nothing can match, nothing is asked
        }
        // The collection's state is read alongside the search (no added latency) and decides whether its hits count.
        Future<CollectionInfo> state = target.client().getCollectionInfoAsync(target.collection(), target.timeout());
        List<SearchHit> hits;
        try {
            hits = serverSide ? serverFused(query, (FusionMethod.Rrf) fusion, uniform, inputs, filter)
                    : clientFused(query, inputs, filter);
        } catch (RuntimeException e) {
            state.cancel(true);
            throw e;
        }
        CollectionInfo info = target.await(state, "get collection info (whether it is whole, read with each search)");
        QdrantCompletion.requireSearchable(info, target.collection(), vectors.denseDimension());
        return hits;
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
            Map<Leg, QdrantVectors.LegInput> inputs, Filter filter) {
        Points.Rrf.Builder rrfMessage = Points.Rrf.newBuilder().setK(QdrantRrf.serverK(rrf.k()));
        QueryPoints.Builder fused = QueryPoints.newBuilder()
                .setCollectionName(target.collection())
                .setLimit(query.limit())
                .setWithPayload(HIT_PAYLOAD);
        for (Map.Entry<Leg, QdrantVectors.LegInput> e : inputs.entrySet()) {
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
            max += QdrantRrf.contribution(rrf.k(), uniform ? 1 : rrf.weight(leg), 1);
        }
        List<ScoredPoint> points;
        Map<String, Map<Leg, LegScore>> legScores = Map.of();
        if (query.explain()) {
            List<QueryPoints> batch = new ArrayList<>();
            batch.add(fused.build());
            List<Leg> order = new ArrayList<>(inputs.keySet());
            for (Leg leg : order) {
                // no payload: ranks are matched to the fused hits by point id
                batch.add(legQuery(inputs.get(leg), filter, query.legLimit()));
            }
            List<Points.BatchResult> results = queryBatch(batch);
            points = results.get(0).getResultList();
            legScores = byId(legResults(order, results, 1));
        } else {
            points = target.await(target.client().queryAsync(fused.build(), target.timeout()), "query");
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
                    terms[n++] = QdrantRrf.contribution(rrf.k(), uniform ? 1 : rrf.weight(s.leg()), s.rank());
                }
                Arrays.sort(terms); // ascending, as the embedded fusion sums, so equal multisets tie
                raw = 0;
                for (double t : terms) {
                    raw += t;
                }
            }
            hits.add(hit(d, QdrantRrf.normalise(raw, max), legs));
        }
        hits.sort(HIT_ORDER);
        return hits;
    }

    private List<SearchHit> clientFused(HybridQuery query, Map<Leg, QdrantVectors.LegInput> inputs, Filter filter) {
        List<Leg> order = new ArrayList<>(inputs.keySet());
        Map<Leg, List<LegResult>> legResults = new EnumMap<>(Leg.class);
        for (Leg leg : query.legs()) {
            legResults.put(leg, List.of()); // legs with an empty query vector ran and found nothing
        }
        if (!order.isEmpty()) {
            List<QueryPoints> batch = new ArrayList<>();
            for (Leg leg : order) {
                // no payload: legs are fused by point id, chunk ids are fetched for the top hits only
                batch.add(legQuery(inputs.get(leg), filter, query.legLimit()));
            }
            legResults.putAll(legResults(order, queryBatch(batch), 0));
        }
        int candidates = 0;
        for (List<LegResult> list : legResults.values()) {
            candidates += list.size();
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
        GetPoints.Builder get = GetPoints.newBuilder().setCollectionName(target.collection())
                .setWithPayload(HIT_PAYLOAD);
        for (FusedResult r : fused) {
            get.addIds(PointId.newBuilder().setUuid(r.id()));
        }
        List<RetrievedPoint> retrieved = target.await(target.client().retrieveAsync(get.build(), target.timeout()),
                "get (payload of fused hits)");
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

    /** The ranked list of each leg in {@code order}, read from {@code results} starting at {@code offset}. */
    private static Map<Leg, List<LegResult>> legResults(List<Leg> order, List<Points.BatchResult> results,
            int offset) {
        Map<Leg, List<LegResult>> out = new EnumMap<>(Leg.class);
        for (int i = 0; i < order.size(); i++) {
            List<LegResult> list = new ArrayList<>();
            for (ScoredPoint p : results.get(i + offset).getResultList()) {
                list.add(new LegResult(p.getId().getUuid(), p.getScore()));
            }
            out.put(order.get(i), list);
        }
        return out;
    }

    private QueryPoints legQuery(QdrantVectors.LegInput input, Filter filter, int limit) {
        QueryPoints.Builder q = QueryPoints.newBuilder()
                .setCollectionName(target.collection())
                .setQuery(Query.newBuilder().setNearest(input.input()))
                .setUsing(input.using())
                .setLimit(limit)
                .setWithPayload(NO_PAYLOAD);
        if (filter != null) {
            q.setFilter(filter);
        }
        return q.build();
    }

    private List<Points.BatchResult> queryBatch(List<QueryPoints> queries) {
        QueryBatchPoints request = QueryBatchPoints.newBuilder()
                .setCollectionName(target.collection())
                .addAllQueryPoints(queries)
                .build();
        return target.await(target.points().queryBatch(request), "query_batch").getResultList();
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

    private static int bestRank(Map<Leg, LegScore> legs) {
        int best = Integer.MAX_VALUE;
        for (LegScore s : legs.values()) {
            best = Math.min(best, s.rank());
        }
        return best;
    }
}
