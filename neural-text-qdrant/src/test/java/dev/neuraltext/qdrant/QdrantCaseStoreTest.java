package dev.neuraltext.qdrant;

import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.RetriableNeuralTextException;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.IndexedCase;
import io.grpc.Status;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.grpc.Collections.CreateCollection;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.Modifier;
import io.qdrant.client.grpc.Collections.SparseVectorConfig;
import io.qdrant.client.grpc.Collections.SparseVectorParams;
import io.qdrant.client.grpc.Collections.VectorParams;
import io.qdrant.client.grpc.Collections.VectorParamsMap;
import io.qdrant.client.grpc.Collections.VectorsConfig;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.PointId;
import io.qdrant.client.grpc.JsonWithInt.ListValue;
import io.qdrant.client.grpc.JsonWithInt.Value;
import io.qdrant.client.grpc.Points.PointStruct;
import io.qdrant.client.grpc.Points.PrefetchQuery;
import io.qdrant.client.grpc.Points.QueryPoints;
import io.qdrant.client.grpc.Points;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Contract tests against an in-process gRPC server implementing Qdrant's own service bases. */
class QdrantCaseStoreTest {

    private static final String COLLECTION = "code";

    private FakeQdrant server;
    private QdrantClient client;
    /** The waits between attempts of repeated calls: recorded, never slept. */
    private final List<Duration> sleeps = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = new FakeQdrant();
        client = server.client();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private QdrantCaseStore.Builder builder() {
        return QdrantCaseStore.builder().client(client).collection(COLLECTION).denseDimension(4)
                .timeout(Duration.ofSeconds(5)).sleeper(sleeps::add);
    }

    // ---------------------------------------------------------------- collection

    @Test
    void createsTheCollectionWithNamedVectorsIdfAndKeywordIndexes() {
        builder().shards(3).replicationFactor(2).writeConsistencyFactor(2).payloadIndexes("module", "type").build();

        CreateCollection expected = CreateCollection.newBuilder()
                .setCollectionName(COLLECTION)
                .setVectorsConfig(VectorsConfig.newBuilder().setParamsMap(VectorParamsMap.newBuilder()
                        .putMap("dense", VectorParams.newBuilder().setSize(4).setDistance(Distance.Cosine).build())))
                .setSparseVectorsConfig(SparseVectorConfig.newBuilder()
                        .putMap("sparse", SparseVectorParams.getDefaultInstance())
                        .putMap("bm25", SparseVectorParams.newBuilder().setModifier(Modifier.Idf).build()))
                .setShardNumber(3)
                .setReplicationFactor(2)
                .setWriteConsistencyFactor(2)
                // the completion marker: an empty collection is complete
                .putMetadata("neural_text_state", Value.newBuilder().setStringValue("complete").build())
                .build();
        assertThat(server.<CreateCollection>requests("create")).containsExactly(expected);
        List<Points.CreateFieldIndexCollection> indexes = server.requests("createFieldIndex");
        assertThat(indexes).extracting(Points.CreateFieldIndexCollection::getFieldName)
                .containsExactly("domain", "type", "tags", "path", "language", "symbolType", "module");
        assertThat(indexes).allSatisfy(i -> {
            assertThat(i.getCollectionName()).isEqualTo(COLLECTION);
            assertThat(i.getFieldType()).isEqualTo(Points.FieldType.FieldTypeKeyword);
            assertThat(i.getWait()).isTrue();
        });
        assertThat(server.calls).extracting(FakeQdrant.Call::method)
                .startsWith("healthCheck", "collectionExists", "create").doesNotContain("deleteCollection");
    }

    @Test
    void withoutDenseDimensionNoDenseVectorIsDeclared() {
        builder().denseDimension(0).build();
        CreateCollection c = server.<CreateCollection>requests("create").get(0);
        assertThat(c.getVectorsConfig().getParamsMap().getMapMap()).isEmpty();
        assertThat(c.getSparseVectorsConfig().getMapMap()).containsOnlyKeys("sparse", "bm25");
    }

    @Test
    void aCompatibleCollectionIsReusedAndOnlyMissingIndexesAreCreated() {
        server.preexisting(QdrantSchema.create(COLLECTION, 4, 1, 1, 1));
        server.payloadSchema.put("domain", io.qdrant.client.grpc.Collections.PayloadSchemaInfo.getDefaultInstance());
        builder().build();
        assertThat(server.calls("create")).isEmpty();
        assertThat(server.<Points.CreateFieldIndexCollection>requests("createFieldIndex"))
                .extracting(Points.CreateFieldIndexCollection::getFieldName)
                .containsExactly("type", "tags", "path", "language", "symbolType");
    }

    @Test
    void anIncompatibleCollectionIsReportedWithEveryDifferenceAndNotDropped() {
        server.preexisting(CreateCollection.newBuilder().setCollectionName(COLLECTION)
                .setVectorsConfig(VectorsConfig.newBuilder().setParamsMap(VectorParamsMap.newBuilder()
                        .putMap("dense", VectorParams.newBuilder().setSize(8).setDistance(Distance.Dot).build())))
                .setSparseVectorsConfig(SparseVectorConfig.newBuilder()
                        .putMap("bm25", SparseVectorParams.getDefaultInstance()))
                .build());
        assertThatThrownBy(() -> builder().build())
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("collection 'code' is incompatible")
                .hasMessageContaining("dimension 8, expected 4")
                .hasMessageContaining("distance Dot, expected Cosine")
                .hasMessageContaining("sparse vector 'sparse' is missing")
                .hasMessageContaining("'bm25' has modifier None, expected Idf")
                .hasMessageContaining("recreateIncompatibleCollection(true)");
        assertThat(server.calls("deleteCollection")).isEmpty();
        assertThat(server.calls("create")).isEmpty();

        builder().recreateIncompatibleCollection(true).build();
        assertThat(server.calls("deleteCollection")).hasSize(1);
        assertThat(server.created).isEqualTo(QdrantSchema.create(COLLECTION, 4, 1, 1, 1));
    }

    @Test
    void aServerTooOldForRrfKIsRejectedBeforeAnythingIsCreated() {
        server.version = "1.15.5";
        assertThatThrownBy(() -> builder().build()).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("Qdrant server 1.15.5 is too old for collection 'code': need 1.16.0");
        server.version = "1.16.2";
        assertThatThrownBy(() -> builder().serverSideWeightedRrf(true).build())
                .hasMessageContaining("need 1.17.0").hasMessageContaining("per-prefetch weights");
        assertThat(server.calls("create")).isEmpty();
        builder().build(); // 1.16.2 is enough for RRF with k
        server.version = "dev-build";
        builder().build(); // unparseable: accepted with a warning
        assertThat(QdrantCollectionSetup.parseVersion("v1.17.1")).containsExactly(1, 17, 1);
        assertThat(QdrantCollectionSetup.parseVersion("1.16")).containsExactly(1, 16, 0);
        assertThat(QdrantCollectionSetup.parseVersion("1.18.0-rc1")).containsExactly(1, 18, 0);
    }

    @Test
    void aMissingCollectionIsAnErrorWhenCreationIsOff() {
        assertThatThrownBy(() -> builder().createIfMissing(false).build())
                .isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("'code' does not exist");
    }

    @Test
    void aCollectionCreatedConcurrentlyIsVerifiedInstead() {
        server.preexisting(QdrantSchema.create(COLLECTION, 4, 1, 1, 1));
        server.existsLiesOnce = true;
        QdrantCaseStore store = builder().build();
        assertThat(store.collection()).isEqualTo(COLLECTION);
        assertThat(server.calls).extracting(FakeQdrant.Call::method)
                .startsWith("healthCheck", "collectionExists", "create", "getCollection", "createFieldIndex");
    }

    // ---------------------------------------------------------------- upsert

    private static IndexedCase doc(String id, String text, float[] dense, SparseVector sparse) {
        ChunkInput chunk = new ChunkInput(id, text,
                Map.of("path", "src/A.java", "startLine", "12", "type", "method", "version", "007"),
                Map.of("tags", List.of("http", "42")), Map.of("name", "parse"));
        return new IndexedCase(chunk, dense, sparse);
    }

    @Test
    void upsertSendsDeterministicIdsTypedPayloadAndAllVectorsInBatches() {
        QdrantCaseStore store = builder().upsertBatchSize(2).build();
        SparseVector splade = new SparseVector(new int[] {3, 17}, new float[] {0.5f, 1.25f});
        List<IndexedCase> cases = List.of(
                doc("a", "parseHttpDate date", new float[] {1, 0, 0, 0}, splade),
                doc("b", "b", new float[] {0, 1, 0, 0}, null),
                doc("c", "c", null, null),
                doc("d", "d", null, null),
                doc("e", "e", null, null));
        store.upsert(cases);

        List<Points.UpsertPoints> batches = server.requests("upsert");
        assertThat(batches).extracting(Points.UpsertPoints::getPointsCount).containsExactly(2, 2, 1);
        assertThat(batches).allSatisfy(b -> {
            assertThat(b.getCollectionName()).isEqualTo(COLLECTION);
            assertThat(b.getWait()).isTrue();
        });
        PointStruct a = batches.get(0).getPoints(0);
        UUID expectedId = UUID.nameUUIDFromBytes("a".getBytes(StandardCharsets.UTF_8));
        assertThat(a.getId()).isEqualTo(PointId.newBuilder().setUuid(expectedId.toString()).build());
        assertThat(QdrantCaseStore.pointId("a")).isEqualTo(expectedId);

        Map<String, Value> payload = a.getPayloadMap();
        assertThat(payload.get("_chunk_id").getStringValue()).isEqualTo("a");
        assertThat(payload.get("_text").getStringValue()).isEqualTo("parseHttpDate date");
        assertThat(payload.get("path")).isEqualTo(Value.newBuilder().setStringValue("src/A.java").build());
        assertThat(payload.get("startLine")).isEqualTo(Value.newBuilder().setIntegerValue(12).build());
        assertThat(payload.get("version")).isEqualTo(Value.newBuilder().setStringValue("007").build());
        assertThat(payload.get("tags")).isEqualTo(Value.newBuilder().setListValue(ListValue.newBuilder()
                .addValues(Value.newBuilder().setStringValue("http"))
                .addValues(Value.newBuilder().setIntegerValue(42))).build());
        assertThat(payload.get("_fields").getStructValue().getFieldsMap().get("name").getStringValue())
                .isEqualTo("parse");

        Map<String, Points.Vector> vectors = a.getVectors().getVectors().getVectorsMap();
        assertThat(vectors).containsOnlyKeys("dense", "sparse", "bm25");
        assertThat(vectors.get("dense").getDense().getDataList()).containsExactly(1f, 0f, 0f, 0f);
        assertThat(vectors.get("sparse").getSparse()).isEqualTo(Points.SparseVector.newBuilder()
                .addIndices(3).addIndices(17).addValues(0.5f).addValues(1.25f).build());
        // client-side BM25: the code-aware terms, hashed, with BM25 document weights
        Points.SparseVector bm25 = vectors.get("bm25").getSparse();
        assertThat(bm25).isEqualTo(ClientBm25Encoder.standard(Bm25Params.defaults(),
                QdrantCaseStore.DEFAULT_BM25_FIELD_AVERAGE_LENGTHS, 256).document(cases.get(0).chunk()));
        // the chunk's BM25 fields are its named fields (here only name = "parse"), as in the embedded store
        assertThat(bm25.getIndicesList()).containsExactly(ClientBm25Encoder.termIndex("parse"));
        // the chunk without vectors still gets its BM25 vector
        assertThat(batches.get(1).getPoints(0).getVectors().getVectors().getVectorsMap()).containsOnlyKeys("bm25");
    }

    @Test
    void serverSideBm25SendsTheExpandedTextAsADocument() {
        QdrantCaseStore store = builder().bm25Mode(Bm25Mode.SERVER_SIDE).build();
        store.upsert(List.of(doc("a", "ChatModel parseHttpDate", null, null)));
        Points.Vector bm25 = server.<Points.UpsertPoints>requests("upsert").get(0).getPoints(0).getVectors()
                .getVectors().getVectorsMap().get("bm25");
        assertThat(bm25.getDocument()).isEqualTo(Points.Document.newBuilder()
                .setText("Chat Model parse Http Date").setModel("qdrant/bm25").build());

        QdrantCaseStore tuned = builder().bm25Mode(Bm25Mode.SERVER_SIDE).bm25AverageLength(80).build();
        tuned.upsert(List.of(doc("a", "ChatModel", null, null)));
        assertThat(server.<Points.UpsertPoints>requests("upsert").get(1).getPoints(0).getVectors().getVectors()
                .getVectorsMap().get("bm25").getDocument().getOptionsMap())
                .containsExactly(Map.entry("avg_len", Value.newBuilder().setDoubleValue(80).build()));
    }

    @Test
    void reUpsertingIsIdempotentAndAFailedBatchCanBeRetriedWithoutDuplicates() {
        // retries off, so that the failed batch reaches the caller, who repeats the whole upsert
        QdrantCaseStore store = builder().upsertBatchSize(2).retries(1, Duration.ZERO, Duration.ZERO).build();
        List<IndexedCase> cases = List.of(doc("a", "x", null, null), doc("b", "y", null, null),
                doc("c", "z", null, null), doc("d", "w", null, null), doc("e", "v", null, null));
        server.failOnCall.put("upsert", Map.entry(2, Status.UNAVAILABLE.withDescription("connection reset")));
        assertThatThrownBy(() -> store.upsert(cases))
                .isInstanceOf(RetriableNeuralTextException.class)
                .hasMessageContaining("upsert (batch 2 of 3, 2 points; safe to repeat)")
                .hasMessageContaining("collection 'code'")
                .hasMessageContaining("UNAVAILABLE (connection reset)");
        assertThat(server.points).hasSize(2);
        server.failOnCall.clear();
        store.upsert(cases);
        store.upsert(cases);
        assertThat(server.points).hasSize(5);
        assertThat(store.count(PayloadFilter.all())).isEqualTo(5);
    }

    @Test
    void invalidCasesAreRejectedBeforeAnythingIsWritten() {
        QdrantCaseStore store = builder().build();
        assertThatThrownBy(() -> store.upsert(List.of(doc("ok", "x", new float[] {1, 0, 0, 0}, null),
                doc("bad", "x", new float[] {1, 0, 0}, null))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk 'bad'").hasMessageContaining("dimension 3").hasMessageContaining("4");
        ChunkInput reserved = ChunkInput.of("r", "x", Map.of("_text", "oops"));
        assertThatThrownBy(() -> store.upsert(List.of(IndexedCase.of(reserved))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'_text'");
        QdrantCaseStore noDense = builder().denseDimension(0).build();
        assertThatThrownBy(() -> noDense.upsert(List.of(doc("d", "x", new float[] {1, 0, 0, 0}, null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("denseDimension 0");
        assertThat(server.calls("upsert")).isEmpty();
    }

    // ---------------------------------------------------------------- delete and count

    @Test
    void deleteAndCountSendTheTranslatedFilter() {
        QdrantCaseStore store = builder().build();
        store.delete(List.of("a", "b", "a"));
        store.delete(List.of());
        store.deleteWhere(matchKeyword("type", "test"));
        long n = store.count(matchKeyword("startLine", "12"));

        List<Points.DeletePoints> deletes = server.requests("delete");
        assertThat(deletes).hasSize(2);
        assertThat(deletes.get(0).getPoints().getPoints().getIdsList()).extracting(PointId::getUuid)
                .containsExactly(QdrantCaseStore.pointId("a").toString(), QdrantCaseStore.pointId("b").toString());
        assertThat(deletes.get(0).getWait()).isTrue();
        assertThat(deletes.get(1).getPoints().getFilter())
                .isEqualTo(QdrantFilterConverter.toFilter(matchKeyword("type", "test")));
        Points.CountPoints count = server.<Points.CountPoints>requests("count").get(0);
        assertThat(count.getExact()).isTrue();
        assertThat(count.getFilter().getMust(0).getField().getMatch().getInteger()).isEqualTo(12);
        assertThat(n).isZero();
    }

    // ---------------------------------------------------------------- search

    private QdrantCaseStore indexedStore(QdrantCaseStore.Builder b) {
        QdrantCaseStore store = b.build();
        // "best" is first in every leg; "dense2" is second in the dense leg only.
        store.upsert(List.of(
                new IndexedCase(ChunkInput.of("best", "retry http request", Map.of("type", "method")),
                        new float[] {1, 0, 0, 0}, new SparseVector(new int[] {1, 2}, new float[] {1, 1})),
                new IndexedCase(ChunkInput.of("dense2", "unrelated words", Map.of("type", "method")),
                        new float[] {0.9f, 0.1f, 0, 0}, null),
                new IndexedCase(ChunkInput.of("far", "other text", Map.of("type", "method")),
                        new float[] {0, 0, 1, 0}, null)));
        server.calls.clear();
        return store;
    }

    /**
     * The methods a search called, in order, without the collection-info read that goes alongside each search (the
     * completion check), which this asserts happened exactly once.
     */
    private List<String> searchCalls() {
        assertThat(server.calls("getCollection")).hasSize(1);
        return server.calls.stream().map(FakeQdrant.Call::method).filter(m -> !m.equals("getCollection")).toList();
    }

    private static HybridQuery query(FusionMethod fusion, boolean explain, PayloadFilter filter) {
        return new HybridQuery("retry http", new float[] {1, 0, 0, 0},
                new SparseVector(new int[] {1, 2}, new float[] {0.5f, 0.5f}),
                EnumSet.allOf(Leg.class), filter, 20, 5, fusion, explain);
    }

    @Test
    void searchIsOneQueryWithThreeFilteredPrefetchesAndRrfWithExplicitK() {
        QdrantCaseStore store = indexedStore(builder());
        PayloadFilter filter = matchKeyword("type", "method");
        List<SearchHit> hits = store.search(query(FusionMethod.rrf(60), false, filter));

        assertThat(searchCalls()).containsExactly("query");
        QueryPoints q = server.<QueryPoints>requests("query").get(0);
        Filter expectedFilter = QdrantFilterConverter.toFilter(filter);
        assertThat(q.getCollectionName()).isEqualTo(COLLECTION);
        assertThat(q.getLimit()).isEqualTo(5);
        assertThat(q.getWithPayload().getExclude().getFieldsList()).containsExactly("_fields");
        assertThat(q.getQuery().getRrf()).isEqualTo(Points.Rrf.newBuilder().setK(61).build());
        assertThat(q.getPrefetchList()).extracting(PrefetchQuery::getUsing).containsExactly("bm25", "dense", "sparse");
        assertThat(q.getPrefetchList()).allSatisfy(p -> {
            assertThat(p.getFilter()).isEqualTo(expectedFilter);
            assertThat(p.getLimit()).isEqualTo(20);
        });
        assertThat(q.getPrefetch(0).getQuery().getNearest().getSparse())
                .isEqualTo(ClientBm25Encoder.standard(Bm25Params.defaults(), Map.of(), 256).query("retry http"));
        assertThat(q.getPrefetch(1).getQuery().getNearest().getDense().getDataList()).containsExactly(1f, 0f, 0f, 0f);
        assertThat(q.getPrefetch(2).getQuery().getNearest().getSparse()).isEqualTo(Points.SparseVector.newBuilder()
                .addIndices(1).addIndices(2).addValues(0.5f).addValues(0.5f).build());

        // "best" is first in all three legs: 1.0 on the documented scale.
        assertThat(hits.get(0).id()).isEqualTo("best");
        assertThat(hits.get(0).fusedScore()).isCloseTo(1.0, within(1e-6));
        assertThat(hits.get(0).score()).isEqualTo(hits.get(0).fusedScore());
        assertThat(hits.get(0).metadata()).containsEntry("type", "method");
        assertThat(hits.get(0).text()).isEqualTo("retry http request");
        assertThat(hits.get(0).legs()).isEmpty();
        // "dense2" is second in the dense leg only: (1/62) / (3/61) = 61/186.
        SearchHit dense2 = hits.stream().filter(h -> h.id().equals("dense2")).findFirst().orElseThrow();
        assertThat(dense2.fusedScore()).isCloseTo(61.0 / 186, within(1e-6));
    }

    @Test
    void explainRunsTheLegsInTheSameBatchCallAndFillsRanks() {
        QdrantCaseStore store = indexedStore(builder());
        List<SearchHit> hits = store.search(query(FusionMethod.rrf(60), true, PayloadFilter.all()));

        assertThat(searchCalls()).containsExactly("queryBatch");
        Points.QueryBatchPoints batch = server.<Points.QueryBatchPoints>requests("queryBatch").get(0);
        assertThat(batch.getQueryPointsCount()).isEqualTo(4);
        assertThat(batch.getQueryPoints(0).getPrefetchCount()).isEqualTo(3);
        assertThat(batch.getQueryPoints(0).getPrefetch(0).hasFilter()).isFalse();
        for (int i = 1; i <= 3; i++) {
            QueryPoints leg = batch.getQueryPoints(i);
            assertThat(leg.getLimit()).isEqualTo(20);
            assertThat(leg.getWithPayload().hasEnable()).isTrue();
            assertThat(leg.getWithPayload().getEnable()).isFalse();
        }
        assertThat(batch.getQueryPointsList().subList(1, 4)).extracting(QueryPoints::getUsing)
                .containsExactly("bm25", "dense", "sparse");
        SearchHit best = hits.get(0);
        assertThat(best.id()).isEqualTo("best");
        assertThat(best.legs()).containsOnlyKeys(Leg.BM25, Leg.DENSE, Leg.SPARSE);
        assertThat(best.legs().get(Leg.DENSE).rank()).isEqualTo(1);
        assertThat(best.legs().get(Leg.DENSE).score()).isCloseTo(1.0, within(1e-6));
        assertThat(best.legs().get(Leg.SPARSE).score()).isCloseTo(1.0, within(1e-6)); // 0.5*1 + 0.5*1
        SearchHit dense2 = hits.stream().filter(h -> h.id().equals("dense2")).findFirst().orElseThrow();
        assertThat(dense2.legs()).containsOnlyKeys(Leg.DENSE);
        assertThat(dense2.legs().get(Leg.DENSE).rank()).isEqualTo(2);
    }

    @Test
    void weightedFusionRunsTheLegsInOneBatchFusesInJavaAndFetchesPayloads() {
        QdrantCaseStore store = indexedStore(builder());
        List<SearchHit> hits = store.search(query(FusionMethod.alpha(0.5), false, PayloadFilter.all()));

        assertThat(searchCalls()).containsExactly("queryBatch", "get");
        assertThat(server.<Points.QueryBatchPoints>requests("queryBatch").get(0).getQueryPointsCount()).isEqualTo(3);
        Points.GetPoints get = server.<Points.GetPoints>requests("get").get(0);
        assertThat(get.getWithPayload().getExclude().getFieldsList()).containsExactly("_fields");
        assertThat(server.<Points.QueryBatchPoints>requests("queryBatch").get(0).getQueryPointsList())
                .allSatisfy(leg -> assertThat(leg.getWithPayload().getEnable()).isFalse());
        assertThat(get.getIdsCount()).isEqualTo(hits.size());
        // first in every leg: every normalised leg score is 1, the weights sum to 1
        assertThat(hits.get(0).id()).isEqualTo("best");
        assertThat(hits.get(0).fusedScore()).isCloseTo(1.0, within(1e-9));
        assertThat(hits.get(0).legs()).containsOnlyKeys(Leg.BM25, Leg.DENSE, Leg.SPARSE);
        assertThat(hits.get(0).text()).isEqualTo("retry http request");
    }

    @Test
    void explainScoresAreExactDoublesOnTheScale() {
        QdrantCaseStore store = indexedStore(builder());
        List<SearchHit> hits = store.search(query(FusionMethod.rrf(60), true, PayloadFilter.all()));
        assertThat(hits.get(0).fusedScore()).isEqualTo(1.0); // exactly: recomputed from the ranks
        SearchHit dense2 = hits.stream().filter(h -> h.id().equals("dense2")).findFirst().orElseThrow();
        assertThat(dense2.fusedScore()).isCloseTo(61.0 / 186, within(1e-12));
    }

    @Test
    void clientSideFusionBreaksTiesByChunkIdLikeTheEmbeddedStore() {
        // two chunk ids whose point ids sort the other way round, so a tie-break by point id would pick the wrong one
        String first = null;
        String second = null;
        for (char c = 'b'; first == null; c++) {
            String x = "a";
            String y = String.valueOf(c);
            if (QdrantCaseStore.pointId(x).toString().compareTo(QdrantCaseStore.pointId(y).toString()) > 0) {
                first = x;
                second = y;
            }
        }
        QdrantCaseStore store = builder().build();
        store.upsert(List.of(
                new IndexedCase(ChunkInput.of(second, "x"), new float[] {1, 0, 0, 0}, null),
                new IndexedCase(ChunkInput.of(first, "x"), null, new SparseVector(new int[] {1}, new float[] {1}))));
        // each is alone (rank 1) in its leg: weighted fusion gives both 0.5, best rank 1, so the chunk id decides
        HybridQuery q = new HybridQuery("x", new float[] {1, 0, 0, 0}, new SparseVector(new int[] {1}, new float[] {1}),
                EnumSet.of(Leg.DENSE, Leg.SPARSE), PayloadFilter.all(), 10, 1,
                FusionMethod.weighted(Map.of(Leg.DENSE, 1.0, Leg.SPARSE, 1.0)), false);
        List<SearchHit> hits = store.search(q);
        assertThat(hits).extracting(SearchHit::id).containsExactly(first);
        assertThat(hits.get(0).fusedScore()).isEqualTo(0.5);
        // both tied candidates were fetched, then cut after the tie-break
        assertThat(server.<Points.GetPoints>requests("get").get(0).getIdsCount()).isEqualTo(2);
    }

    @Test
    void unequalRrfWeightsFuseInJavaByDefaultOrOnTheServerWhenAsked() {
        FusionMethod.Rrf weighted = FusionMethod.rrf(60).withWeights(Map.of(Leg.DENSE, 2.0, Leg.BM25, 1.0,
                Leg.SPARSE, 0.5));
        QdrantCaseStore store = indexedStore(builder());
        List<SearchHit> client = store.search(query(weighted, false, PayloadFilter.all()));
        assertThat(searchCalls()).containsExactly("queryBatch", "get");
        assertThat(client.get(0).fusedScore()).isCloseTo(1.0, within(1e-9));
        // "dense2": second in the dense leg only: (2/62) / (1/61 + 2/61 + 0.5/61) = 122/217
        SearchHit dense2 = client.stream().filter(h -> h.id().equals("dense2")).findFirst().orElseThrow();
        assertThat(dense2.fusedScore()).isCloseTo(2.0 / 62 / (3.5 / 61), within(1e-9));

        server.calls.clear();
        QdrantCaseStore serverSide = builder().serverSideWeightedRrf(true).build();
        server.calls.clear();
        List<SearchHit> hits = serverSide.search(query(weighted, false, PayloadFilter.all()));
        assertThat(searchCalls()).containsExactly("query");
        assertThat(server.<QueryPoints>requests("query").get(0).getQuery().getRrf()).isEqualTo(Points.Rrf.newBuilder()
                .setK(61).addWeights(1f).addWeights(2f).addWeights(0.5f).build());
        assertThat(hits.get(0).id()).isEqualTo("best");
        assertThat(hits.get(0).fusedScore()).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void legsWithEmptyQueryVectorsAreSkippedButStillCountOnTheScale() {
        QdrantCaseStore store = indexedStore(builder());
        HybridQuery q = new HybridQuery("...", new float[] {1, 0, 0, 0}, SparseVector.empty(),
                EnumSet.allOf(Leg.class), PayloadFilter.all(), 20, 5, FusionMethod.rrf(60), false);
        List<SearchHit> hits = store.search(q);
        QueryPoints sent = server.<QueryPoints>requests("query").get(0);
        assertThat(sent.getPrefetchList()).extracting(PrefetchQuery::getUsing).containsExactly("dense");
        // first in the only leg that could match, out of three that ran: 1/3
        assertThat(hits.get(0).fusedScore()).isCloseTo(1.0 / 3, within(1e-6));
        assertThat(store.search(new HybridQuery("x", null, null, Set.of(), PayloadFilter.all(), 5, 5,
                FusionMethod.rrf(60), false))).isEmpty();
    }

    @Test
    void denseQueryOfTheWrongDimensionIsACallerMistake() {
        QdrantCaseStore store = builder().build();
        HybridQuery q = new HybridQuery("x", new float[] {1, 0}, null, EnumSet.of(Leg.DENSE), PayloadFilter.all(),
                5, 5, FusionMethod.rrf(60), false);
        assertThatThrownBy(() -> store.search(q)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension 2").hasMessageContaining("4");
    }

    // ---------------------------------------------------------------- failures and connection

    @Test
    void grpcFailuresMapToRetriableOrNonRetriableWithOperationAndCollection() {
        QdrantCaseStore store = builder().build();
        HybridQuery q = query(FusionMethod.rrf(60), false, PayloadFilter.all());

        server.fail("query", Status.UNAVAILABLE.withDescription("io exception"));
        assertThatThrownBy(() -> store.search(q)).isInstanceOf(RetriableNeuralTextException.class)
                .hasMessage("Qdrant query on collection 'code' failed: UNAVAILABLE (io exception)")
                .hasCauseInstanceOf(io.grpc.StatusRuntimeException.class)
                .satisfies(e -> assertThat(((NeuralTextException) e).isRetriable()).isTrue());

        server.fail("query", Status.DEADLINE_EXCEEDED);
        assertThatThrownBy(() -> store.search(q)).isInstanceOf(RetriableNeuralTextException.class)
                .hasMessageContaining("DEADLINE_EXCEEDED");

        server.fail("count", Status.NOT_FOUND.withDescription("Collection `code` doesn't exist!"));
        assertThatThrownBy(() -> store.count(PayloadFilter.all())).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("Qdrant count on collection 'code' failed: NOT_FOUND");

        server.fail("delete", Status.RESOURCE_EXHAUSTED);
        assertThatThrownBy(() -> store.deleteWhere(PayloadFilter.all()))
                .isInstanceOf(RetriableNeuralTextException.class).hasMessageContaining("delete by filter");

        server.fail("queryBatch", Status.INVALID_ARGUMENT.withDescription("bad"));
        assertThatThrownBy(() -> store.search(query(FusionMethod.alpha(0.3), false, PayloadFilter.all())))
                .isInstanceOf(NonRetriableNeuralTextException.class).hasMessageContaining("query_batch");
    }

    @Test
    void aRealDeadlineIsRetriable() {
        QdrantCaseStore store = builder().timeout(Duration.ofMillis(100)).build();
        server.delaysMs.add(1500L);
        assertThatThrownBy(() -> store.count(PayloadFilter.all())).isInstanceOf(RetriableNeuralTextException.class)
                .hasMessageContaining("count").hasMessageContaining("DEADLINE_EXCEEDED");
    }

    @Test
    void anInterruptCancelsTheCallAndRestoresTheFlag() {
        QdrantCaseStore store = builder().build();
        server.delaysMs.add(300L);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> store.count(PayloadFilter.all()))
                    .isInstanceOf(NonRetriableNeuralTextException.class)
                    .hasMessageContaining("interrupted while waiting for Qdrant count on collection 'code'")
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anUnreachableServerIsRetriableAndNamesTheOperation() {
        assertThatThrownBy(() -> QdrantCaseStore.builder().host("127.0.0.1", 1).collection("code")
                .timeout(Duration.ofSeconds(3)).sleeper(sleeps::add).build())
                .isInstanceOf(RetriableNeuralTextException.class)
                .hasMessageContaining("health_check on collection 'code' failed after 6 attempts");
        assertThat(sleeps).containsExactly(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800),
                Duration.ofMillis(1600), Duration.ofMillis(3200));
    }

    @Test
    void aCallerOwnedClientStaysOpen() {
        QdrantCaseStore store = builder().build();
        store.close();
        assertThat(server.channel().isShutdown()).isFalse();
        assertThat(store.count(PayloadFilter.all())).isZero();
        assertThat(store.client()).isSameAs(client);
    }

    @Test
    void aStoreOwnedClientTalksNettyOverLoopbackAndIsShutDownOnClose() throws Exception {
        try (FakeQdrant loopback = new FakeQdrant(true)) {
            QdrantCaseStore store = QdrantCaseStore.builder().host("127.0.0.1", loopback.port()).collection("owned")
                    .timeout(Duration.ofSeconds(5)).build();
            store.upsert(List.of(doc("a", "retry http", null, null)));
            assertThat(store.count(PayloadFilter.all())).isEqualTo(1);
            List<SearchHit> hits = store.search(new HybridQuery("parse", null, null, EnumSet.of(Leg.BM25),
                    PayloadFilter.all(), 10, 10, FusionMethod.rrf(60), false));
            assertThat(hits).extracting(SearchHit::id).containsExactly("a");
            store.close();
            assertThat(store.client().grpcClient().channel().isShutdown()).isTrue();
            assertThatThrownBy(() -> store.count(PayloadFilter.all())).isInstanceOf(NeuralTextException.class)
                    .hasMessageContaining("count on collection 'owned'");
        }
    }

    @Test
    void builderRejectsBadSettings() {
        assertThatThrownBy(() -> QdrantCaseStore.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("collection");
        assertThatThrownBy(() -> QdrantCaseStore.builder().host("h", 0)).hasMessageContaining("port");
        assertThatThrownBy(() -> QdrantCaseStore.builder().denseDimension(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> QdrantCaseStore.builder().timeout(Duration.ZERO)).hasMessageContaining("timeout");
        assertThatThrownBy(() -> QdrantCaseStore.builder().bm25AverageLength(0)).hasMessageContaining("0.0");
        assertThatThrownBy(() -> QdrantCaseStore.builder().collection("c").client(client).replicationFactor(1)
                .writeConsistencyFactor(2).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("writeConsistencyFactor (2)");
    }
}
