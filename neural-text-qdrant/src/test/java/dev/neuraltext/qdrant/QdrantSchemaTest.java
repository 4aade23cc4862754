package dev.neuraltext.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.client.grpc.Collections.CollectionConfig;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.CollectionParams;
import io.qdrant.client.grpc.Collections.CreateCollection;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.Modifier;
import io.qdrant.client.grpc.Collections.SparseVectorConfig;
import io.qdrant.client.grpc.Collections.SparseVectorParams;
import io.qdrant.client.grpc.Collections.VectorParams;
import io.qdrant.client.grpc.Collections.VectorParamsMap;
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
                .containsExactly("dense vector is unnamed (dimension 4, Cosine), expected a named vector 'dense'"
                        + " (dimension 4, Cosine)");
        CreateCollection none = QdrantSchema.create("c", 0, 1, 1, 1);
        assertThat(QdrantSchema.differences(info(none), 8))
                .containsExactly("dense vector 'dense' is missing (expected dimension 8, Cosine)");
    }

    @Test
    void aDenseVectorOfAnotherSizeOrDistanceIsReportedWithBothValues() {
        CreateCollection other = QdrantSchema.create("c", 0, 1, 1, 1).toBuilder()
                .setVectorsConfig(VectorsConfig.newBuilder().setParamsMap(VectorParamsMap.newBuilder()
                        .putMap("dense", VectorParams.newBuilder().setSize(768).setDistance(Distance.Dot).build())))
                .build();
        assertThat(QdrantSchema.differences(info(other), 384)).containsExactly(
                "dense vector 'dense' has dimension 768, expected 384",
                "dense vector 'dense' uses distance Dot, expected Cosine");
    }

    @Test
    void sparseVectorsWithTheWrongModifierAreReported() {
        CreateCollection swapped = QdrantSchema.create("c", 0, 1, 1, 1).toBuilder()
                .setSparseVectorsConfig(SparseVectorConfig.newBuilder()
                        .putMap("sparse", SparseVectorParams.newBuilder().setModifier(Modifier.Idf).build())
                        .putMap("bm25", SparseVectorParams.getDefaultInstance()))
                .build();
        assertThat(QdrantSchema.differences(info(swapped), 0)).containsExactly(
                "sparse vector 'sparse' has modifier Idf, expected None (SPLADE weights are final)",
                "sparse vector 'bm25' has modifier None, expected Idf (Qdrant computes BM25's IDF only with it)");
    }
}
