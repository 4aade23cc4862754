package dev.neuraltext.qdrant;

import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.CaseStoreContract;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The core {@link CaseStoreContract} against a real Qdrant ({@link QdrantTestServer#IMAGE}), once per
 * {@link Bm25Mode}. Skipped when no Docker engine is reachable.
 */
@Testcontainers(disabledWithoutDocker = true)
@ParameterizedClass(name = "bm25 {0}")
@EnumSource(Bm25Mode.class)
class QdrantCaseStoreIT extends CaseStoreContract {

    private static final AtomicInteger COLLECTIONS = new AtomicInteger();

    @Parameter
    Bm25Mode mode;

    @Override
    protected CaseStore createStore(int denseDimension) {
        GenericContainer<?> qdrant = QdrantTestServer.get();
        return QdrantCaseStore.builder()
                .host(qdrant.getHost(), qdrant.getMappedPort(6334))
                .collection("contract-" + mode.name().toLowerCase(java.util.Locale.ROOT) + "-"
                        + COLLECTIONS.incrementAndGet())
                .denseDimension(denseDimension)
                .bm25Mode(mode)
                .build();
    }
}
