package dev.neuraltext.qdrant;

import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.store.IndexedCase;
import dev.neuraltext.text.CamelCaseExpander;
import io.qdrant.client.grpc.JsonWithInt.Value;
import io.qdrant.client.grpc.Points.Document;
import io.qdrant.client.grpc.Points.VectorInput;
import io.qdrant.client.grpc.Points;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The vector layout of a collection: how a chunk becomes the named vectors of its point ({@code dense}, {@code sparse},
 * {@code bm25}) and how a query becomes one input per leg. Immutable and thread-safe.
 */
final class QdrantVectors {

    /** What a leg sends: the vector name and the query input. */
    record LegInput(String using, VectorInput input) {
    }

    private final int denseDimension;
    private final Bm25Mode bm25Mode;
    private final ClientBm25Encoder bm25Encoder;
    private final Map<String, Value> bm25Options;

    QdrantVectors(int denseDimension, Bm25Mode bm25Mode, ClientBm25Encoder bm25Encoder, Map<String, Value> bm25Options) {
        this.denseDimension = denseDimension;
        this.bm25Mode = bm25Mode;
        this.bm25Encoder = bm25Encoder;
        this.bm25Options = Map.copyOf(bm25Options);
    }

    int denseDimension() {
        return denseDimension;
    }

    Bm25Mode bm25Mode() {
        return bm25Mode;
    }

    /**
     * The named vectors of the point for {@code c}.
     *
     * @throws IllegalArgumentException if its dense vector does not fit the collection
     */
    Map<String, Points.Vector> document(IndexedCase c) {
        String id = c.chunk().id();
        float[] dense = c.dense();
        Map<String, Points.Vector> vectors = new LinkedHashMap<>();
        if (dense != null) {
            if (denseDimension == 0) {
                throw new IllegalArgumentException("chunk '" + id + "' has a dense vector (dimension " + dense.length
                        + ") but the store was built without one (denseDimension 0)");
            }
            if (dense.length != denseDimension) {
                throw new IllegalArgumentException("chunk '" + id + "' has a dense vector of dimension " + dense.length
                        + ", the store expects " + denseDimension);
            }
            vectors.put(QdrantSchema.DENSE, Points.Vector.newBuilder().setDense(dense(dense)).build());
        }
        SparseVector sparse = c.sparse();
        if (sparse != null && sparse.size() > 0) {
            vectors.put(QdrantSchema.SPARSE, Points.Vector.newBuilder().setSparse(sparse(sparse)).build());
        }
        String text = c.chunk().text();
        if (bm25Mode == Bm25Mode.CLIENT_SIDE) {
            Points.SparseVector bm25 = bm25Encoder.document(c.chunk());
            if (bm25.getIndicesCount() > 0) {
                vectors.put(QdrantSchema.BM25, Points.Vector.newBuilder().setSparse(bm25).build());
            }
        } else if (!text.isBlank()) {
            vectors.put(QdrantSchema.BM25, Points.Vector.newBuilder().setDocument(bm25Document(text)).build());
        }
        return vectors;
    }

    /**
     * One input per leg of {@code query}; a leg whose query vector is empty has none (it ran and found nothing).
     *
     * @throws IllegalArgumentException if the dense query vector does not fit the collection
     */
    Map<Leg, LegInput> query(HybridQuery query) {
        Map<Leg, LegInput> inputs = new EnumMap<>(Leg.class);
        for (Leg leg : query.legs()) {
            switch (leg) {
                case DENSE: {
                    float[] dense = query.dense();
                    if (denseDimension == 0) {
                        throw new IllegalArgumentException("dense leg requested but the store was built without a dense"
                                + " vector (denseDimension 0)");
                    }
                    if (dense.length != denseDimension) {
                        throw new IllegalArgumentException("dense query vector has dimension " + dense.length
                                + ", the store expects " + denseDimension);
                    }
                    inputs.put(leg, new LegInput(QdrantSchema.DENSE,
                            VectorInput.newBuilder().setDense(dense(dense)).build()));
                    break;
                }
                case SPARSE:
                    if (query.sparse().size() > 0) {
                        inputs.put(leg, new LegInput(QdrantSchema.SPARSE,
                                VectorInput.newBuilder().setSparse(sparse(query.sparse())).build()));
                    }
                    break;
                case BM25:
                    if (bm25Mode == Bm25Mode.CLIENT_SIDE) {
                        Points.SparseVector v = bm25Encoder.query(query.text());
                        if (v.getIndicesCount() > 0) {
                            inputs.put(leg, new LegInput(QdrantSchema.BM25,
                                    VectorInput.newBuilder().setSparse(v).build()));
                        }
                    } else {
                        inputs.put(leg, new LegInput(QdrantSchema.BM25,
                                VectorInput.newBuilder().setDocument(bm25Document(query.text())).build()));
                    }
                    break;
                default:
                    throw new IllegalArgumentException("unsupported leg " + leg);
            }
        }
        return inputs;
    }

    private Document bm25Document(String text) {
        return Document.newBuilder()
                .setText(CamelCaseExpander.expand(text))
                .setModel(QdrantCaseStore.BM25_MODEL)
                .putAllOptions(bm25Options)
                .build();
    }

    private static Points.DenseVector dense(float[] v) {
        Points.DenseVector.Builder b = Points.DenseVector.newBuilder();
        for (float f : v) {
            b.addData(f);
        }
        return b.build();
    }

    private static Points.SparseVector sparse(SparseVector v) {
        Points.SparseVector.Builder b = Points.SparseVector.newBuilder();
        for (int i = 0; i < v.size(); i++) {
            b.addIndices(v.indexAt(i)).addValues(v.valueAt(i));
        }
        return b.build();
    }
}
