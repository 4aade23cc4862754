package dev.neuraltext.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Bm25BenchmarkTest {

    /**
     * Document "a" is an alias of "b" (same text), and the judgments name only "b". Both engines rank "a" first (score
     * tie, "a" first by id and by insertion), so once mapped to canonical ids the first hit is relevant: MRR@10 = 1.
     * Scored on the raw ids, "a" is unjudged and "b" at rank 2 would give 0.5.
     */
    @Test
    void mrrCheckMapsAliasesToCanonicalIdsLikeTheEvalHarness(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("corpus.jsonl"), String.join("\n",
                "{\"_id\": \"a\", \"title\": \"\", \"text\": \"alpha widget\"}",
                "{\"_id\": \"b\", \"title\": \"\", \"text\": \"alpha widget\"}",
                "{\"_id\": \"c\", \"title\": \"\", \"text\": \"gamma other\"}") + "\n");
        Files.writeString(dir.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"widget\"}\n");
        Files.createDirectories(dir.resolve("qrels"));
        Files.writeString(dir.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\tb\t1\n");
        Files.writeString(dir.resolve("aliases.tsv"), "a\tb\n");

        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        int code;
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            code = Bm25Benchmark.run("--dataset", dir.toString(), "--builds", "1", "--warmup", "0", "--passes", "1",
                    "--limit", "10");
        } finally {
            System.setOut(previous);
        }
        String output = buffer.toString(StandardCharsets.UTF_8);
        assertThat(code).as(output).isZero();
        String row = Arrays.stream(output.split("\\R")).filter(l -> l.startsWith("MRR@10 (check)")).findFirst()
                .orElseThrow(() -> new AssertionError("no MRR row in:\n" + output));
        String[] cols = row.substring("MRR@10 (check)".length()).trim().split("\\s+");
        assertThat(cols[0]).as("neural-text MRR@10").isEqualTo("1.000");
        assertThat(cols[1]).as("lucene MRR@10").isEqualTo("1.000");
    }
}
