package dev.neuraltext.cli;

import dev.neuraltext.cli.model.DenseModel;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI with its default dense leg (bge-small-en-v1.5-q from the classpath): slow, so a Failsafe test. */
class CliDenseIT {

    @TempDir
    Path tmp;

    @Test
    void indexAndSearchWithTheDenseLegThenRebuildWhenTheModelChanges() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("proj"));
        Path idx = root.resolve(".neural-text");
        CliFixture.Result index = CliFixture.run("index", root.toString());
        assertThat(index.exitCode()).as(index.err()).isZero();
        assertThat(index.out()).contains("dense:   bge-small-en-v1.5-q");

        // no shared words with the code: the dense leg has to find it
        CliFixture.Result search = CliFixture.run("search", "pause length before the next try", "--index",
                idx.toString(), "--json", "--limit", "3");
        assertThat(search.exitCode()).as(search.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(search.out());
        assertThat(json.get("legs").toString()).isEqualTo("[\"bm25\",\"dense\"]");
        assertThat(json.get("hits").get(0).get("legs").has("dense")).isTrue();

        // a run without the model keeps the dense vectors; the file it changes lacks them until the next model run
        CliFixture.write(root, "src/main/java/com/acme/http/HttpClientConfig.java", """
                package com.acme.http;

                /** Connection settings of the HTTP client. */
                public record HttpClientConfig(String host, int port) {
                }
                """);
        CliFixture.Result bm25 = CliFixture.run("index", root.toString(), "--no-dense");
        assertThat(bm25.exitCode()).as(bm25.err()).isZero();
        assertThat(bm25.err()).doesNotContain("rebuilding");
        assertThat(bm25.out()).contains("the index keeps its dense vectors for 6 of 7 chunks");
        CliFixture.Result withModel = CliFixture.run("index", root.toString());
        assertThat(withModel.exitCode()).as(withModel.err()).isZero();
        assertThat(withModel.out()).contains("dense:   " + DenseModel.DEFAULT_MODEL + "/").contains("7 of 7 chunks (100%); "
                + "1 embedded by this run");
        assertThat(withModel.out()).contains("0 added, 0 modified");

        // dropping the leg takes an explicit flag
        CliFixture.Result drop = CliFixture.run("index", root.toString(), "--drop-dense");
        assertThat(drop.exitCode()).as(drop.err()).isZero();
        assertThat(drop.err()).contains("rebuilding the index").contains("--drop-dense");
    }

    @Test
    void anotherModelPresetIsRecordedUsedBySearchAndDetected() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("q"));
        Path idx = root.resolve(".neural-text");
        CliFixture.Result index = CliFixture.run("index", root.toString(), "--model", "all-minilm-l6-v2-q");
        assertThat(index.exitCode()).as(index.err()).isZero();
        assertThat(index.out()).contains("all-MiniLM-L6-v2-q");

        // without --model, search loads the index's own preset
        CliFixture.Result search = CliFixture.run("search", "pause length before the next try", "--index",
                idx.toString(), "--json");
        assertThat(search.exitCode()).as(search.err()).isZero();
        assertThat(new ObjectMapper().readTree(search.out()).get("legs").toString()).isEqualTo("[\"bm25\",\"dense\"]");

        CliFixture.Result other = CliFixture.run("search", "retry", "--index", idx.toString(), "--model",
                "all-minilm-l6-v2");
        assertThat(other.exitCode()).isEqualTo(3);
        assertThat(other.err()).contains("all-MiniLM-L6-v2-q").contains("--model all-minilm-l6-v2");

        // indexing with another preset rebuilds, and says why
        CliFixture.Result rebuilt = CliFixture.run("index", root.toString());
        assertThat(rebuilt.exitCode()).as(rebuilt.err()).isZero();
        assertThat(rebuilt.err()).contains("rebuilding the index");
    }
}
