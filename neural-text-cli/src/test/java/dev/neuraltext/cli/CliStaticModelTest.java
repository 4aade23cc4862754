package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.neuraltext.onnx.StaticEmbedder;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI with {@code --model static-code}: the bundled static model is recorded in the index fingerprint, search
 * loads it from there, and another model rebuilds. Fast (no transformer), so a Surefire test.
 */
class CliStaticModelTest {

    @TempDir
    Path tmp;

    @Test
    void staticModelIsRecordedAndUsedBySearch() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("proj"));
        Path idx = root.resolve(".neural-text");
        CliFixture.Result index = CliFixture.run("index", root.toString(), "--model", "static-code");
        assertThat(index.exitCode()).as(index.err()).isZero();
        assertThat(index.out()).contains("dense:   " + StaticEmbedder.BUNDLED_MODEL_NAME + "/static/256/");
        assertThat(InMemoryCaseStore.readFingerprint(idx).denseModel())
                .startsWith(StaticEmbedder.BUNDLED_MODEL_NAME + "/static/256/");
        assertThat(InMemoryCaseStore.readFingerprint(idx).denseDimension()).isEqualTo(256);

        // without --model, search loads the index's own (static) model
        CliFixture.Result search = CliFixture.run("search", "pause length before the next try", "--index",
                idx.toString(), "--json", "--limit", "3");
        assertThat(search.exitCode()).as(search.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(search.out());
        assertThat(json.get("legs").toString()).isEqualTo("[\"bm25\",\"dense\"]");

        CliFixture.Result other = CliFixture.run("search", "retry", "--index", idx.toString(), "--model",
                "all-minilm-l6-v2");
        assertThat(other.exitCode()).isEqualTo(3);
        assertThat(other.err()).contains(StaticEmbedder.BUNDLED_MODEL_NAME).contains("--model all-minilm-l6-v2");
    }

    @Test
    void unknownModelNamesTheStaticOne() {
        CliFixture.Result bad = CliFixture.run("index", tmp.toString(), "--model", "static");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("'static'").contains("static-code");
    }
}
