package dev.neuraltext.qdrant;

import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.CaseStoreContract;
import io.qdrant.client.QdrantClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The core {@link CaseStoreContract} against the in-process {@link FakeQdrant} (client-side BM25, filters evaluated
 * with Qdrant's rules, IDF applied as Qdrant does): the whole store logic without Docker. {@link QdrantCaseStoreIT}
 * runs the same contract against a real server.
 */
class FakeQdrantCaseStoreContractTest extends CaseStoreContract {

    private final List<AutoCloseable> resources = new ArrayList<>();

    @Override
    protected CaseStore createStore(int denseDimension) {
        try {
            FakeQdrant server = new FakeQdrant();
            QdrantClient client = server.client();
            resources.add(server);
            resources.add(client);
            return QdrantCaseStore.builder().client(client).collection("contract").denseDimension(denseDimension)
                    .build();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterEach
    void closeServers() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        resources.clear();
    }
}
