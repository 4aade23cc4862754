package dev.neuraltext.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled static model: the shipped file is the one the model card describes (size and SHA-256 pinned: a new
 * distillation updates both here and in {@code tools/static-model/README.md}), it loads from the classpath and from a
 * copy on disk alike, and it ranks code by meaning on a few hand-written pairs with no words in common.
 */
class StaticEmbedderBundledTest {

    /** The shipped file's size and checksum, as written by tools/static-model/distill.sh (see the model card). */
    static final long BUNDLED_BYTES = 8_647_173L;
    static final String BUNDLED_SHA256 = "3655c21ff28e2aad6a5dc7d38cd682c0678ed9bb5da89edd403649141a907ba5";

    @TempDir
    Path dir;

    private static byte[] resource() throws IOException {
        try (InputStream in = StaticEmbedder.class.getClassLoader()
                .getResourceAsStream(StaticEmbedder.BUNDLED_RESOURCE)) {
            assertThat(in).as(StaticEmbedder.BUNDLED_RESOURCE).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void shippedFileIsTheDistilledOne() throws IOException {
        byte[] bytes = resource();
        assertThat((long) bytes.length).isEqualTo(BUNDLED_BYTES).isLessThanOrEqualTo(16L << 20);
        assertThat(StaticModelFile.sha256(bytes)).isEqualTo(BUNDLED_SHA256);
        try (StaticEmbedder embedder = StaticEmbedder.bundled()) {
            assertThat(embedder.dimension()).isEqualTo(StaticEmbedder.BUNDLED_DIMENSION);
            assertThat(embedder.sha256()).isEqualTo(BUNDLED_SHA256);
            assertThat(embedder.modelId()).isEqualTo(StaticEmbedder.BUNDLED_MODEL_NAME + "/static/256/"
                    + BUNDLED_SHA256.substring(0, 12));
        }
    }

    @Test
    void theModelComesFromItsOwnArtifactNotFromThisModule() throws Exception {
        java.net.URL resource = StaticEmbedder.class.getClassLoader().getResource(StaticEmbedder.BUNDLED_RESOURCE);
        assertThat(resource).as(StaticEmbedder.BUNDLED_RESOURCE).isNotNull();
        String onnxModule = StaticEmbedder.class.getProtectionDomain().getCodeSource().getLocation().toString();
        assertThat(resource.toString()).contains("neural-text-static-model").doesNotStartWith(onnxModule);
    }

    @Test
    void withoutItsArtifactTheBundledModelNamesTheArtifactToAdd() {
        ClassLoader withoutTheModel = new ClassLoader(null) {
        };
        assertThatThrownBy(() -> StaticEmbedder.bundled(withoutTheModel, StaticEmbedder.Tokenization.JAVA_IF_SUPPORTED))
                .isInstanceOf(dev.neuraltext.NonRetriableNeuralTextException.class)
                .hasMessageContaining(StaticEmbedder.BUNDLED_RESOURCE)
                .hasMessageContaining("add the Maven artifact dev.neuraltext:neural-text-static-model")
                .hasMessageContaining("StaticEmbedder.load(path)");
    }

    @Test
    void aLargeCallEmbedsInParallelAsOneTextAtATime() {
        List<String> texts = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            texts.add("method number " + i + " retries the request " + (i % 7) + " times");
        }
        try (StaticEmbedder embedder = StaticEmbedder.bundled()) {
            List<float[]> all = embedder.embed(texts, TextRole.DOCUMENT);
            assertThat(all).hasSize(texts.size());
            for (int i = 0; i < texts.size(); i += 37) {
                assertThat(all.get(i)).containsExactly(embedder.embed(List.of(texts.get(i)), TextRole.DOCUMENT).get(0));
            }
        }
    }

    @Test
    void aCopyOnDiskGivesTheSameVectors() throws IOException {
        Path file = dir.resolve("copy.ntsm");
        Files.write(file, resource());
        List<String> texts = List.of("int retries = config.maxRetries();", "## Installation\nAdd the dependency.");
        try (StaticEmbedder bundled = StaticEmbedder.bundled(); StaticEmbedder copy = StaticEmbedder.load(file)) {
            assertThat(copy.modelId()).isEqualTo(bundled.modelId());
            List<float[]> a = bundled.embed(texts, TextRole.DOCUMENT);
            List<float[]> b = copy.embed(texts, TextRole.DOCUMENT);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(b.get(i)).containsExactly(a.get(i));
                double norm = 0;
                for (float x : a.get(i)) {
                    norm += x * x;
                }
                assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
            }
        }
    }

    @Test
    void ranksCodeByMeaning() {
        List<String> code = List.of(
                "public static String reverse(String s) { return new StringBuilder(s).reverse().toString(); }",
                "try (InputStream in = Files.newInputStream(path)) { return in.readAllBytes(); }",
                "executor.shutdown(); if (!executor.awaitTermination(10, TimeUnit.SECONDS)) { executor.shutdownNow(); }",
                "Matcher m = EMAIL.matcher(address); return m.matches();");
        List<String> queries = List.of("flip the order of characters in text", "read a whole file into a byte array",
                "stop the worker threads and wait for them to finish", "check that an e-mail address is valid");
        try (StaticEmbedder embedder = StaticEmbedder.bundled()) {
            List<float[]> docs = embedder.embed(code, TextRole.DOCUMENT);
            for (int q = 0; q < queries.size(); q++) {
                float[] query = embedder.embedQuery(queries.get(q));
                int best = -1;
                double bestScore = -2;
                for (int d = 0; d < docs.size(); d++) {
                    double s = 0;
                    for (int i = 0; i < query.length; i++) {
                        s += query[i] * docs.get(d)[i];
                    }
                    if (s > bestScore) {
                        bestScore = s;
                        best = d;
                    }
                }
                assertThat(best).as(queries.get(q)).isEqualTo(q);
            }
        }
    }

    @Test
    void denseModelsKnowsTheStaticModel() throws Exception {
        assertThat(DenseModels.ids()).containsAll(EmbeddingPreset.ids()).endsWith(DenseModels.STATIC_CODE);
        assertThat(DenseModels.checkId(" Static-Code ")).isEqualTo(DenseModels.STATIC_CODE);
        assertThat(DenseModels.checkId("bge-small-en-v1.5-q")).isEqualTo("bge-small-en-v1.5-q");
        assertThatThrownBy(() -> DenseModels.checkId("static")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'static'").hasMessageContaining(DenseModels.STATIC_CODE);
        Embedder e = DenseModels.load(DenseModels.STATIC_CODE);
        try {
            assertThat(e).isInstanceOf(StaticEmbedder.class);
            assertThat(DenseModels.forModelId(e.modelId())).contains(DenseModels.STATIC_CODE);
        } finally {
            ((AutoCloseable) e).close();
        }
        assertThat(DenseModels.forModelId("bge-small-en-v1.5-q/cls/256/prefixed")).contains("bge-small-en-v1.5-q");
        assertThat(DenseModels.forModelId("something-else/mean/128")).isEmpty();
    }
}
