package dev.neuraltext.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.RetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.IndexedCase;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.grpc.Collections.CreateCollection;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.UpdateCollection;
import io.qdrant.client.grpc.Collections.VectorParams;
import io.qdrant.client.grpc.Collections.VectorParamsMap;
import io.qdrant.client.grpc.Collections.VectorsConfig;
import io.qdrant.client.grpc.JsonWithInt.Value;
import io.qdrant.client.grpc.Points;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A Qdrant that fails, through {@link FakeQdrant}'s {@link FaultPlan}: a status injected at each call of an index and
 * of a search in turn, a call applied but answered with an error, a server restarted between two calls with its state
 * kept or lost, a collection re-created by another version. Writes are repeated with backoff and stay idempotent, a
 * partly written index is never marked complete, and searches fail clearly or answer from a whole collection.
 */
class QdrantFaultsTest {

    private static final String COLLECTION = "code";
    private static final int ATTEMPTS = 3;
    /** Five chunks in batches of two: three upsert calls. */
    private static final List<IndexedCase> CASES = IntStream.range(0, 5).mapToObj(i -> new IndexedCase(
            ChunkInput.of("c" + i, "retry http request " + i), new float[] {1, i, 0, 0}, null)).toList();
    private static final List<String> POINT_IDS = CASES.stream()
            .map(c -> QdrantCaseStore.pointId(c.chunk().id()).toString()).toList();
    /** Every call a clean build and index make, in order. */
    private static final List<String> INDEX_CALLS = List.of("healthCheck", "collectionExists", "create",
            "createFieldIndex", "createFieldIndex", "createFieldIndex", "createFieldIndex", "createFieldIndex",
            "createFieldIndex", "updateCollection", "upsert", "upsert", "upsert", "updateCollection");
    private static final int SETUP_CALLS = 9;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private FakeQdrant server;
    private QdrantClient client;

    @BeforeEach
    void start() throws Exception {
        fresh();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    /** A new server and client, so that call numbers start again at 1. */
    private void fresh() throws Exception {
        server = new FakeQdrant();
        client = server.client();
        resources.add(server);
        resources.add(client);
        sleeps.clear();
    }

    private QdrantCaseStore.Builder builder() {
        return QdrantCaseStore.builder().client(client).collection(COLLECTION).denseDimension(4)
                .timeout(Duration.ofSeconds(5)).upsertBatchSize(2)
                .retries(ATTEMPTS, Duration.ofMillis(100), Duration.ofSeconds(1)).sleeper(sleeps::add);
    }

    private static HybridQuery query(boolean explain) {
        return new HybridQuery("retry http", new float[] {1, 0, 0, 0}, null, EnumSet.of(Leg.BM25, Leg.DENSE),
                PayloadFilter.all(), 20, 10, FusionMethod.rrf(60), explain);
    }

    /** The store's answer from a whole collection: every chunk. */
    private static void assertWholeAnswer(QdrantCaseStore store) {
        assertThat(store.search(query(false))).extracting(SearchHit::id)
                .containsExactlyInAnyOrder("c0", "c1", "c2", "c3", "c4");
    }

    private void assertEveryPointOnceAndComplete() {
        assertThat(server.points.keySet()).containsExactlyInAnyOrderElementsOf(POINT_IDS);
        assertThat(server.marker()).isEqualTo(QdrantCompletion.COMPLETE);
    }

    private List<String> methods() {
        return server.calls.stream().map(FakeQdrant.Call::method).toList();
    }

    // ---------------------------------------------------------------- writes: retried, idempotent, marked last

    @Test
    void aCleanIndexMarksTheCollectionWritingFirstAndCompleteLastWithExactRequests() {
        builder().build().upsert(CASES);
        assertThat(methods()).containsExactlyElementsOf(INDEX_CALLS);
        assertThat(server.<UpdateCollection>requests("updateCollection")).containsExactly(
                UpdateCollection.newBuilder().setCollectionName(COLLECTION).putMetadata(QdrantCompletion.KEY,
                        Value.newBuilder().setStringValue("writing").build()).build(),
                UpdateCollection.newBuilder().setCollectionName(COLLECTION).putMetadata(QdrantCompletion.KEY,
                        Value.newBuilder().setStringValue("complete").build()).build());
        assertEveryPointOnceAndComplete();
        assertThat(sleeps).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = Status.Code.class,
            names = {"UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "ABORTED"})
    void aTransientFailureAtAnyCallOfAnIndexIsRepeatedWithBackoff(Status.Code code) throws Exception {
        for (int call = 1; call <= INDEX_CALLS.size(); call++) {
            fresh();
            server.faults.failCalls(call, ATTEMPTS - 1, Status.fromCode(code).withDescription("injected"));
            QdrantCaseStore store = builder().build();
            store.upsert(CASES);
            assertEveryPointOnceAndComplete();
            assertThat(sleeps).as("call %d", call).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
            // the same call, twice more; then the rest of the index as without the fault
            List<String> expected = new ArrayList<>(INDEX_CALLS);
            expected.add(call - 1, INDEX_CALLS.get(call - 1));
            expected.add(call - 1, INDEX_CALLS.get(call - 1));
            assertThat(methods()).as("call %d", call).containsExactlyElementsOf(expected);
            assertWholeAnswer(store);
        }
    }

    @Test
    void aCallAppliedButAnsweredWithADeadlineIsRepeatedWithoutDuplicates() throws Exception {
        for (int call = 1; call <= INDEX_CALLS.size(); call++) {
            fresh();
            server.faults.applyThenFail(call, Status.DEADLINE_EXCEEDED.withDescription("answer lost"));
            QdrantCaseStore store = builder().build();
            store.upsert(CASES);
            // an upsert applied twice replaces its points: the ids are the chunk ids' name-based UUIDs
            assertEveryPointOnceAndComplete();
            assertThat(sleeps).as("call %d", call).containsExactly(Duration.ofMillis(100));
            assertWholeAnswer(store);
        }
    }

    @Test
    void aRealDeadlineMidUpsertIsRepeatedWithoutDuplicates() {
        QdrantCaseStore store = builder().timeout(Duration.ofSeconds(1)).build();
        server.delaysMs.add(0L); // the marker update
        server.delaysMs.add(3_000L); // batch 1 is applied after the client gave up on it
        long start = System.nanoTime();
        store.upsert(CASES);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2_900));
        assertThat(sleeps).startsWith(Duration.ofMillis(100)); // (a loaded machine may miss another deadline)
        assertThat(server.marker()).isEqualTo(QdrantCompletion.COMPLETE);
        assertThat(server.points.keySet()).containsExactlyInAnyOrderElementsOf(POINT_IDS);
        assertThat(store.count(PayloadFilter.all())).isEqualTo(5);
    }

    @ParameterizedTest
    @EnumSource(value = Status.Code.class, names = {"UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"})
    void aPersistentFailureFailsTheRunNamingTheCallAndLeavesItIncomplete(Status.Code code) throws Exception {
        for (int call = 1; call <= INDEX_CALLS.size(); call++) {
            fresh();
            server.faults.failCalls(call, ATTEMPTS, Status.fromCode(code).withDescription("injected"));
            Throwable thrown = catchThrowable(() -> builder().build().upsert(CASES));
            String method = INDEX_CALLS.get(call - 1);
            assertThat(thrown).as("call %d (%s)", call, method).isInstanceOf(RetriableNeuralTextException.class)
                    .hasMessageContaining("on collection 'code' failed after 3 attempts: " + code + " (injected)")
                    .cause().isInstanceOf(StatusRuntimeException.class)
                    .satisfies(c -> assertThat(Status.fromThrowable(c).getCode()).isEqualTo(code));
            int batch = (int) INDEX_CALLS.subList(0, call).stream().filter("upsert"::equals).count();
            if (method.equals("upsert")) {
                assertThat(thrown).hasMessageContaining("upsert (batch " + batch + " of 3, ");
            }
            assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
            server.faults.clear();
            if (call <= SETUP_CALLS) {
                assertThat(server.points).isEmpty(); // the store was not built; nothing was written
            } else if (call == SETUP_CALLS + 1) {
                // the run could not even say it began: it wrote nothing, the collection is still whole (empty)
                assertThat(server.points).isEmpty();
                assertThat(server.marker()).isEqualTo(QdrantCompletion.COMPLETE);
            } else {
                // half written (or whole but not confirmed): marked so, and a search from anywhere refuses it
                assertThat(server.points).hasSize(Math.min(5, 2 * (batch - (method.equals("upsert") ? 1 : 0))));
                assertThat(server.marker()).isEqualTo(QdrantCompletion.WRITING);
                assertThatThrownBy(() -> builder().build().search(query(false)))
                        .isInstanceOf(RetriableNeuralTextException.class)
                        .hasMessageContaining("Qdrant collection 'code' is incomplete (neural_text_state = writing)")
                        .hasMessageContaining("refusing to search half a collection");
            }
            // the documented remedy: repeat the run
            QdrantCaseStore store = builder().build();
            store.upsert(CASES);
            assertEveryPointOnceAndComplete();
            assertWholeAnswer(store);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Status.Code.class, names = {"INVALID_ARGUMENT", "PERMISSION_DENIED", "UNAUTHENTICATED",
        "FAILED_PRECONDITION", "INTERNAL"})
    void otherStatusesAreNeverRepeated(Status.Code code) throws Exception {
        for (int call = 1; call <= INDEX_CALLS.size(); call++) {
            fresh();
            server.faults.failCalls(call, 1, Status.fromCode(code).withDescription("injected"));
            assertThatThrownBy(() -> builder().build().upsert(CASES)).as("call %d", call)
                    .isInstanceOf(NonRetriableNeuralTextException.class)
                    .hasMessageContaining("on collection 'code' failed: " + code + " (injected)");
            assertThat(sleeps).isEmpty();
            assertThat(server.callCount()).as("no call after the failed one").isEqualTo(call);
        }
    }

    @Test
    void backoffDoublesUpToTheMaximumAndAnInterruptStopsIt() {
        QdrantRetry retry = new QdrantRetry(10, Duration.ofMillis(100), Duration.ofMillis(500), d -> { });
        assertThat(IntStream.rangeClosed(1, 6).mapToObj(retry::delay)).containsExactly(Duration.ofMillis(100),
                Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(500), Duration.ofMillis(500),
                Duration.ofMillis(500));

        QdrantCaseStore store = builder().sleeper(d -> {
            throw new InterruptedException("stop");
        }).build();
        server.fail("upsert", Status.UNAVAILABLE);
        try {
            assertThatThrownBy(() -> store.upsert(CASES)).isInstanceOf(NonRetriableNeuralTextException.class)
                    .hasMessageContaining("interrupted while waiting 100 ms to repeat Qdrant upsert (batch 1 of 3")
                    .hasCauseInstanceOf(InterruptedException.class)
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                            .isInstanceOf(RetriableNeuralTextException.class));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(server.calls("upsert")).hasSize(1);
        assertThat(server.marker()).isEqualTo(QdrantCompletion.WRITING);

        assertThatThrownBy(() -> QdrantCaseStore.builder().retries(0, Duration.ZERO, Duration.ZERO))
                .hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> QdrantCaseStore.builder().retries(3, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("0 <= initialDelay <= maxDelay, got PT2S and PT1S");
    }

    // ---------------------------------------------------------------- restarts

    private static int callNumber(String method, int occurrence) {
        int seen = 0;
        for (int i = 0; i < INDEX_CALLS.size(); i++) {
            if (INDEX_CALLS.get(i).equals(method) && ++seen == occurrence) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(method + " #" + occurrence);
    }

    @Test
    void aRestartWithPersistenceBetweenTwoBatchesIsRiddenOut() {
        server.faults.restartBefore(callNumber("upsert", 2), 2, true);
        QdrantCaseStore store = builder().build();
        store.upsert(CASES);
        assertEveryPointOnceAndComplete();
        assertThat(sleeps).hasSize(2);
        assertWholeAnswer(store);
    }

    @Test
    void aRestartWithoutPersistenceMidIndexFailsClearlyAndNothingAnswersFromTheRest() {
        server.faults.restartBefore(callNumber("upsert", 2), 1, false);
        QdrantCaseStore store = builder().build();
        assertThatThrownBy(() -> store.upsert(CASES)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("Qdrant upsert (batch 2 of 3, 2 points; safe to repeat) on collection 'code'"
                        + " failed after 2 attempts: NOT_FOUND")
                .hasMessageContaining("the server restarted without persistence), build the store again");
        assertThat(server.created).isNull(); // the store does not re-create it behind the caller's back
        assertThatThrownBy(() -> store.search(query(false))).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("NOT_FOUND");
        // the remedy it names
        QdrantCaseStore again = builder().build();
        again.upsert(CASES);
        assertEveryPointOnceAndComplete();
        assertWholeAnswer(again);
    }

    @Test
    void aRestartBetweenIndexAndSearchFailsTheSearchClearlyOrIsOver() {
        QdrantCaseStore store = builder().build();
        store.upsert(CASES);
        server.faults.restartBefore(server.callCount() + 1, 2, true); // both calls of the search find it down
        assertThatThrownBy(() -> store.search(query(false))).isInstanceOf(RetriableNeuralTextException.class)
                .hasMessageContaining("UNAVAILABLE (io exception: Connection refused (restarting))");
        assertWholeAnswer(store);
        assertThat(sleeps).as("searches are not repeated").isEmpty();

        server.faults.restartBefore(server.callCount() + 1, 0, false);
        assertThatThrownBy(() -> store.search(query(false))).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("on collection 'code' failed: NOT_FOUND")
                .hasMessageContaining("build the store again to re-create it and index again");
    }

    // ---------------------------------------------------------------- searches: a clear error or a whole answer

    @ParameterizedTest
    @EnumSource(value = Status.Code.class, names = {"UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"})
    void aSearchWithAFailingCallFailsClearlyAndTheNextOneAnswersWhole(Status.Code code) {
        QdrantCaseStore store = builder().build();
        store.upsert(CASES);
        for (String method : List.of("getCollection", "query", "queryBatch")) {
            server.calls.clear();
            server.fail(method, Status.fromCode(code).withDescription("injected"));
            boolean explain = method.equals("queryBatch");
            NeuralTextException e = (NeuralTextException) catchThrowable(() -> store.search(query(explain)));
            String operation = switch (method) {
                case "getCollection" -> "get collection info";
                case "query" -> "Qdrant query on";
                default -> "query_batch";
            };
            assertThat(e).as(method).isInstanceOf(RetriableNeuralTextException.class)
                    .hasMessageContaining(operation)
                    .hasMessageContaining("on collection 'code' failed: " + code + " (injected)");
            assertThat(server.calls(method)).as("not repeated").hasSize(1);
            server.failures.clear();
            assertThat(store.search(query(explain))).hasSize(5);
        }
        assertThat(sleeps).isEmpty();
    }

    @Test
    void aSearchOfAHalfWrittenCollectionIsRefusedUntilTheWriteIsRepeated() {
        QdrantCaseStore store = builder().build();
        server.faults.failCalls(callNumber("upsert", 2), ATTEMPTS, Status.UNAVAILABLE); // every attempt
        assertThatThrownBy(() -> store.upsert(CASES)).isInstanceOf(RetriableNeuralTextException.class);
        assertThat(server.points).hasSize(2); // batch 1 is in: a search would find c0 and c1 alone
        assertThatThrownBy(() -> store.search(query(false))).isInstanceOf(RetriableNeuralTextException.class)
                .hasMessageContaining("is incomplete");
        assertThatThrownBy(() -> store.search(new HybridQuery("retry", null, null, EnumSet.of(Leg.BM25),
                PayloadFilter.all(), 10, 10, FusionMethod.alpha(0.5), false)))
                .hasMessageContaining("is incomplete");
        server.faults.clear();
        store.upsert(CASES);
        assertWholeAnswer(store);
    }

    @Test
    void anIndexRunKeepsTheCollectionIncompleteAcrossCallsUntilItCompletes() {
        QdrantCaseStore writer = builder().build();
        QdrantCaseStore reader = builder().build();
        try (QdrantIndexRun run = writer.beginIndexRun()) {
            assertThatThrownBy(writer::beginIndexRun).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already open");
            writer.upsert(CASES.subList(0, 3));
            assertThatThrownBy(() -> reader.search(query(false))).hasMessageContaining("is incomplete");
            writer.upsert(CASES.subList(3, 5));
            writer.delete(List.of("gone"));
            assertThat(server.marker()).isEqualTo(QdrantCompletion.WRITING);
            run.complete();
        }
        assertThat(server.<UpdateCollection>requests("updateCollection")).extracting(u -> u.getMetadataMap()
                .get(QdrantCompletion.KEY).getStringValue()).containsExactly("writing", "complete");
        assertWholeAnswer(reader);

        // a run with a failed write cannot complete, even after the write was repeated inside it
        QdrantIndexRun failing = writer.beginIndexRun();
        server.fail("upsert", Status.INVALID_ARGUMENT.withDescription("Wrong input: vector dimension error"));
        assertThatThrownBy(() -> writer.upsert(CASES)).isInstanceOf(NonRetriableNeuralTextException.class);
        server.failures.clear();
        writer.upsert(CASES);
        assertThatThrownBy(failing::complete).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot mark Qdrant collection 'code' complete: a write of this index run"
                        + " failed (Qdrant upsert (batch 1 of 3")
                .hasCauseInstanceOf(NonRetriableNeuralTextException.class);
        failing.close();
        assertThat(server.marker()).isEqualTo(QdrantCompletion.WRITING);
        assertThatThrownBy(failing::complete).hasMessageContaining("is closed");
        try (QdrantIndexRun again = writer.beginIndexRun()) {
            writer.upsert(CASES);
            again.complete();
        }
        assertWholeAnswer(reader);
    }

    // ---------------------------------------------------------------- collections from other versions

    private static CreateCollection withDense(int size, Distance distance) {
        return QdrantSchema.create(COLLECTION, 4, 1, 1, 1).toBuilder().setVectorsConfig(VectorsConfig.newBuilder()
                .setParamsMap(VectorParamsMap.newBuilder().putMap("dense", VectorParams.newBuilder().setSize(size)
                        .setDistance(distance).build()))).build();
    }

    @Test
    void aCollectionReCreatedWithOtherVectorsUnderARunningStoreIsRefusedNamingBothValues() {
        QdrantCaseStore store = builder().build();
        store.upsert(CASES);
        server.preexisting(withDense(768, Distance.Euclid)); // dropped and re-created by another version, whole
        assertThatThrownBy(() -> store.search(query(false))).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("Qdrant collection 'code' no longer fits this store")
                .hasMessageContaining("dense vector 'dense' has dimension 768, expected 4")
                .hasMessageContaining("dense vector 'dense' uses distance Euclid, expected Cosine");
        assertThatThrownBy(() -> builder().build()).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("dimension 768, expected 4").hasMessageContaining("Euclid, expected Cosine");
        server.preexisting(QdrantSchema.create(COLLECTION, 4, 1, 1, 1).toBuilder().setVectorsConfig(
                VectorsConfig.newBuilder().setParams(VectorParams.newBuilder().setSize(8).setDistance(Distance.Dot)))
                .build());
        assertThatThrownBy(() -> builder().build()).hasMessageContaining("dense vector is unnamed (dimension 8, Dot),"
                + " expected a named vector 'dense' (dimension 4, Cosine)");
    }

    @Test
    void aCollectionWithoutAMarkerIsMarkedWhenEmptyAndRefusedWhenItHoldsPoints() {
        CreateCollection legacy = QdrantSchema.create(COLLECTION, 4, 1, 1, 1).toBuilder().clearMetadata().build();
        server.preexisting(legacy);
        builder().build().upsert(List.of()); // nothing to write: no run
        assertThat(server.marker()).isEqualTo(QdrantCompletion.COMPLETE); // empty: nothing can be half written

        server.preexisting(legacy);
        server.points.put(POINT_IDS.get(0), Points.PointStruct.newBuilder().setId(io.qdrant.client.grpc.Common.PointId
                .newBuilder().setUuid(POINT_IDS.get(0))).putAllPayload(PayloadCodec.encode(CASES.get(0).chunk()))
                .build());
        QdrantCaseStore store = builder().build();
        assertThat(server.marker()).isNull();
        assertThatThrownBy(() -> store.search(query(false))).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("Qdrant collection 'code' has no completion marker (collection metadata"
                        + " 'neural_text_state'), so nothing says its 1 points are a whole index")
                .hasMessageContaining("in an index run (QdrantCaseStore.beginIndexRun), as 'neural-text index"
                        + " --qdrant' does");
        try (QdrantIndexRun run = store.beginIndexRun()) {
            store.upsert(CASES);
            run.complete();
        }
        assertWholeAnswer(store);
    }
}
