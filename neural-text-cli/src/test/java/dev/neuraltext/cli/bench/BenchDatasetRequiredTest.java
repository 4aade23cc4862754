package dev.neuraltext.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/** A benchmark has no default data set: without one it is bad input, and the error names the option. */
class BenchDatasetRequiredTest {

    private static String stderrOf(IntSupplier run, int expectedCode) {
        PrintStream previous = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            code = run.getAsInt();
        } finally {
            System.setErr(previous);
        }
        String err = buffer.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err).isEqualTo(expectedCode);
        return err;
    }

    @Test
    void bm25NamesDataset() {
        assertThat(stderrOf(() -> Bm25Benchmark.run("--builds", "1"), 2)).contains("--dataset is required");
    }

    @Test
    void embedNamesCorpus() {
        assertThat(stderrOf(() -> EmbeddingBenchmark.run("--limit", "3"), 2)).contains("--corpus is required");
    }

    @Test
    void scaleNamesDataset() {
        assertThatThrownBy(() -> ScaleOptions.parse("--docs", "10")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--dataset is required");
    }
}
