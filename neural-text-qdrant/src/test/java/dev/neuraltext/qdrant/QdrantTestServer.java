package dev.neuraltext.qdrant;

import org.testcontainers.qdrant.QdrantContainer;

/**
 * One Qdrant container shared by the integration tests of a run, started on first use (Testcontainers' Ryuk removes
 * it at JVM exit). The image is pinned: 1.17.1 supports RRF with {@code k} (1.16) and per-prefetch weights (1.17) and
 * server-side {@code qdrant/bm25} inference (1.15.3).
 */
final class QdrantTestServer {

    static final String IMAGE = "qdrant/qdrant:v1.17.1";

    private static QdrantContainer container;

    private QdrantTestServer() {
    }

    static synchronized QdrantContainer get() {
        if (container == null) {
            QdrantContainer c = new QdrantContainer(IMAGE);
            c.start();
            container = c;
        }
        return container;
    }
}
