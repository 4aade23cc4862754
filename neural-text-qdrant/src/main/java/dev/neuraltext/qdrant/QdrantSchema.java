package dev.neuraltext.qdrant;

import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.CreateCollection;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.Modifier;
import io.qdrant.client.grpc.Collections.SparseVectorConfig;
import io.qdrant.client.grpc.Collections.SparseVectorParams;
import io.qdrant.client.grpc.Collections.VectorParams;
import io.qdrant.client.grpc.Collections.VectorParamsMap;
import io.qdrant.client.grpc.Collections.VectorsConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The collection layout the store needs: building it, and listing how an existing collection differs. Stateless. */
final class QdrantSchema {

    static final String DENSE = "dense";
    static final String SPARSE = "sparse";
    static final String BM25 = "bm25";

    private QdrantSchema() {
    }

    /**
     * Named dense vector {@value #DENSE} (cosine, {@code dimension}; absent when 0), sparse vectors {@value #SPARSE} and
     * {@value #BM25}, the latter with {@code Modifier.Idf}; its completion marker says complete, as an empty collection
     * is ({@link QdrantCompletion}).
     */
    static CreateCollection create(String collection, int dimension, int shards, int replication,
            int writeConsistency) {
        VectorParamsMap.Builder dense = VectorParamsMap.newBuilder();
        if (dimension > 0) {
            dense.putMap(DENSE, VectorParams.newBuilder().setSize(dimension).setDistance(Distance.Cosine).build());
        }
        SparseVectorConfig sparse = SparseVectorConfig.newBuilder()
                .putMap(SPARSE, SparseVectorParams.getDefaultInstance())
                .putMap(BM25, SparseVectorParams.newBuilder().setModifier(Modifier.Idf).build())
                .build();
        return CreateCollection.newBuilder()
                .setCollectionName(collection)
                .setVectorsConfig(VectorsConfig.newBuilder().setParamsMap(dense))
                .setSparseVectorsConfig(sparse)
                .setShardNumber(shards)
                .setReplicationFactor(replication)
                .setWriteConsistencyFactor(writeConsistency)
                .putAllMetadata(QdrantCompletion.metadata(QdrantCompletion.COMPLETE))
                .build();
    }

    /**
     * What keeps {@code info} from serving this store, each difference with the expected and the found value of the
     * named vector; empty when compatible. Extra vectors are fine.
     */
    static List<String> differences(CollectionInfo info, int dimension) {
        List<String> diffs = new ArrayList<>();
        var params = info.getConfig().getParams();
        if (dimension > 0) {
            VectorsConfig vc = params.getVectorsConfig();
            if (vc.hasParams()) {
                diffs.add("dense vector is unnamed (dimension " + vc.getParams().getSize() + ", "
                        + vc.getParams().getDistance() + "), expected a named vector '" + DENSE + "' (dimension "
                        + dimension + ", Cosine)");
            } else {
                VectorParams dense = vc.getParamsMap().getMapMap().get(DENSE);
                if (dense == null) {
                    diffs.add("dense vector '" + DENSE + "' is missing (expected dimension " + dimension + ", Cosine)");
                } else {
                    if (dense.getSize() != dimension) {
                        diffs.add("dense vector '" + DENSE + "' has dimension " + dense.getSize() + ", expected "
                                + dimension);
                    }
                    if (dense.getDistance() != Distance.Cosine) {
                        diffs.add("dense vector '" + DENSE + "' uses distance " + dense.getDistance()
                                + ", expected Cosine");
                    }
                }
            }
        }
        Map<String, SparseVectorParams> sparse = params.getSparseVectorsConfig().getMapMap();
        SparseVectorParams splade = sparse.get(SPARSE);
        if (splade == null) {
            diffs.add("sparse vector '" + SPARSE + "' is missing");
        } else if (splade.getModifier() == Modifier.Idf) {
            diffs.add("sparse vector '" + SPARSE + "' has modifier Idf, expected None (SPLADE weights are final)");
        }
        SparseVectorParams bm25 = sparse.get(BM25);
        if (bm25 == null) {
            diffs.add("sparse vector '" + BM25 + "' is missing (expected modifier Idf)");
        } else if (bm25.getModifier() != Modifier.Idf) {
            diffs.add("sparse vector '" + BM25 + "' has modifier " + bm25.getModifier()
                    + ", expected Idf (Qdrant computes BM25's IDF only with it)");
        }
        return diffs;
    }
}
