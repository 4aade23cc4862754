package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.retrieve.DenseBackfill;
import dev.neuraltext.store.DenseCoverage;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --no-dense} means "do not load the model for this run": an index keeps the dense vectors it has, files changed
 * meanwhile lack them, search says so, and only {@code --drop-dense} drops the leg. The dense vectors come from a small
 * hashing embedder here (the real model is exercised by {@code CliDenseIT}).
 */
class CliDenseCoverageTest {

    @TempDir
    Path tmp;

    /** Letter counts, for vectors that are real and cheap. */
    static final class LetterEmbedder implements Embedder {
        @Override
        public int dimension() {
            return 26;
        }

        @Override
        public String modelId() {
            return "letters-26";
        }

        @Override
        public List<float[]> embed(List<String> texts, TextRole role) {
            List<float[]> out = new ArrayList<>();
            for (String t : texts) {
                float[] v = new float[26];
                v[0] = 0.01f;
                for (char c : t.toLowerCase(java.util.Locale.ROOT).toCharArray()) {
                    if (c >= 'a' && c <= 'z') {
                        v[c - 'a']++;
                    }
                }
                out.add(v);
            }
            return out;
        }
    }

    @Test
    void aRunWithoutTheModelKeepsTheDenseVectorsAndSearchSaysTheLegCoversOnlyPart() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("proj"));
        Path idx = root.resolve(".neural-text");
        assertThat(CliFixture.run("index", root.toString(), "--no-dense").exitCode()).isZero();
        // give the whole index dense vectors, as a run with a model would
        InMemoryCaseStore.Builder config = InMemoryCaseStore.builder();
        LetterEmbedder model = new LetterEmbedder();
        try (InMemoryCaseStore store = config.load(idx, config.fingerprintAsSaved(idx))) {
            DenseBackfill.builder(store, model).build().run();
            assertThat(store.denseCoverage().partial()).isFalse();
            store.save(idx, config.fingerprint().withDense(model), java.util.Map.of(IndexSession.MANIFEST_FILE,
                    store.loadedAttachment(IndexSession.MANIFEST_FILE).orElseThrow()));
        }

        CliFixture.write(root, "src/main/java/com/acme/http/HttpClientConfig.java", """
                package com.acme.http;

                /** Connection settings of the HTTP client. */
                public record HttpClientConfig(String host, int port) {
                }
                """);
        CliFixture.Result again = CliFixture.run("index", root.toString(), "--no-dense");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.err()).doesNotContain("rebuilding");
        assertThat(again.out()).contains("1 modified").contains(
                "dense:   model not loaded for this run; the index keeps its dense vectors for 6 of 7 chunks (86%): "
                        + "the next run with the model embeds the other 1");
        assertThat(InMemoryCaseStore.readFingerprint(idx).denseModel()).isEqualTo("letters-26");
        try (InMemoryCaseStore store = config.load(idx, config.fingerprintAsSaved(idx))) {
            assertThat(store.denseCoverage()).isEqualTo(new DenseCoverage(7, 6));
            assertThat(store.chunksLackingDense(10)).extracting(c -> c.metadata().get("path"))
                    .containsExactly("src/main/java/com/acme/http/HttpClientConfig.java");
        }

        CliFixture.Result search = CliFixture.run("search", "backoffDelay", "--index", idx.toString(), "--no-dense");
        assertThat(search.exitCode()).as(search.err()).isZero();
        assertThat(search.out()).contains("note: the dense leg covers only 6 of 7 chunks (86%) of this index");

        CliFixture.Result drop = CliFixture.run("index", root.toString(), "--drop-dense");
        assertThat(drop.exitCode()).as(drop.err()).isZero();
        assertThat(drop.err()).contains("rebuilding the index").contains("--drop-dense drops its dense leg ('letters-26')");
        assertThat(drop.out()).contains("dense:   off (BM25 only)");
        assertThat(InMemoryCaseStore.readFingerprint(idx).denseModel()).isEmpty();
    }
}
