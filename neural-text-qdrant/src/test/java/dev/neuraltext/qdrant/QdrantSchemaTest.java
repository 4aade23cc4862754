package dev.neuraltext.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.client.grpc.Collections.CollectionConfig;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.CollectionParams;
import io.qdrant.client.grpc.Collections.CreateCollection;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.SparseVectorParams;
import io.qdrant.client.grpc.Collections.VectorParams;
import io.qdrant.client.grpc.Collections.VectorsConfig;
import org.junit.jupiter.api.Test;

class QdrantSchemaTest {

    private static CollectionInfo info(CreateCollection c) {
        return CollectionInfo.newBuilder().setConfig(CollectionConfig.newBuilder().setParams(CollectionParams.newBuilder()
                .setVectorsConfig(c.getVectorsConfig()).setSparseVectorsConfig(c.getSparseVectorsConfig()))).build();
    }

    @Test
    void ourOwnLayoutIsCompatibleAndExtraVectorsAreFine() {
        CreateCollection c = QdrantSchema.create("c", 384, 1, 1, 1);
        assertThat(QdrantSchema.differences(info(c), 384)).isEmpty();
        CreateCollection extra = c.toBuilder().setSparseVectorsConfig(c.getSparseVectorsConfig().toBuilder()
                .putMap("title-bm25", SparseVectorParams.getDefaultInstance())).build();
        assertThat(QdrantSchema.differences(info(extra), 384)).isEmpty();
        // a store without a dense leg can use a collection that has one
        assertThat(QdrantSchema.differences(info(c), 0)).isEmpty();
    }

    @Test
    void anUnnamedOrMissingDenseVectorIsReported() {
        CreateCollection unnamed = QdrantSchema.create("c", 4, 1, 1, 1).toBuilder()
                .setVectorsConfig(VectorsConfig.newBuilder().setParams(VectorParams.newBuilder().setSize(4)
                        .setDistance(Distance.Cosine))).build();
        assertThat(QdrantSchema.differences(info(unnamed), 4))
                .containsExactly("dense vector is unnamed (size 4), expected a named vector 'dense'");
        CreateCollection none = QdrantSchema.create("c", 0, 1, 1, 1);
        assertThat(QdrantSchema.differences(info(none), 8))
                .containsExactly("dense vector 'dense' is missing (expected dimension 8, Cosine)");
    }
}
