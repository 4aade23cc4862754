package dev.neuraltext.cli.eval;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.eval.EvalDocument;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * LangChain4j's in-process {@code AllMiniLmL6V2EmbeddingModel} with exact cosine over every document
 * ({@code title + "\n" + text}); document embeddings cached on disk by {@link EmbeddingCache}. Searches are
 * thread-safe after indexing.
 */
final class MiniLmPeer implements Peer {

    private static final int BATCH = 256;

    private final AllMiniLmL6V2EmbeddingModel model = new AllMiniLmL6V2EmbeddingModel();
    private final EmbeddingCache cache;
    private String[] ids;
    private float[][] vectors;

    MiniLmPeer(Path cacheDir) {
        this.cache = new EmbeddingCache(new Embedder() {
            @Override
            public int dimension() {
                return 384;
            }

            @Override
            public String modelId() {
                return "langchain4j-all-minilm-l6-v2";
            }

            @Override
            public List<float[]> embed(List<String> texts, TextRole role) {
                List<TextSegment> segments = new ArrayList<>(texts.size());
                texts.forEach(t -> segments.add(TextSegment.from(t)));
                List<float[]> out = new ArrayList<>(texts.size());
                model.embedAll(segments).content().forEach(e -> out.add(e.vector()));
                return out;
            }
        }, cacheDir);
    }

    @Override
    public String name() {
        return "langchain4j-minilm";
    }

    @Override
    public String description() {
        return "LangChain4j all-MiniLM-L6-v2 (in-process), exact cosine";
    }

    @Override
    public void index(List<EvalDocument> documents, ProgressBar progress) {
        ids = new String[documents.size()];
        vectors = new float[documents.size()][];
        for (int from = 0; from < documents.size(); from += BATCH) {
            int to = Math.min(documents.size(), from + BATCH);
            List<String> texts = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) {
                EvalDocument d = documents.get(i);
                ids[i] = d.id();
                texts.add(d.title() + "\n" + d.text());
            }
            List<float[]> v = cache.embed(texts, TextRole.DOCUMENT);
            for (int i = from; i < to; i++) {
                vectors[i] = normalized(v.get(i - from));
            }
            progress.update(to);
        }
        cache.flush();
    }

    @Override
    public String indexNote() {
        return cache.hits() + " document embeddings from the cache, " + cache.misses() + " computed";
    }

    @Override
    public Ranking search(String query, int depth) {
        long start = System.nanoTime();
        float[] q = normalized(model.embed(query).content().vector());
        long encoding = System.nanoTime() - start;
        return new Ranking(VectorSearch.topK(q, vectors, ids, depth), encoding);
    }

    static float[] normalized(float[] v) {
        double norm = 0;
        for (float f : v) {
            norm += f * f;
        }
        norm = Math.sqrt(norm);
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = norm == 0 ? 0 : (float) (v[i] / norm);
        }
        return out;
    }
}
