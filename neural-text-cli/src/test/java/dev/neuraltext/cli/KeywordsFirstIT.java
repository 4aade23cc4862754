package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code index} with the dense model saves a searchable BM25 index before it embeds: a search in another process
 * answers while the run is held just before embedding ({@link HeldIndexRun} at
 * {@link IndexSession.Step#BEFORE_EMBEDDING})
 * and says the dense leg covers none of the index; the run is then killed, and the next run embeds every chunk
 * without re-reading a file. Real model (the CLI's default preset), so a Failsafe test.
 */
class KeywordsFirstIT {

    @TempDir
    Path tmp;

    @Test
    void aKilledRunLeavesASearchableKeywordIndexAndTheNextRunEmbedsWhatItLacks() throws Exception {
        Path root = CliFixture.tree(tmp.resolve("proj"));
        Path index = tmp.resolve("ix");
        Path gate = tmp.resolve("gate");
        Path log = tmp.resolve("index.log");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HeldIndexRun.class.getName(),
                IndexSession.Step.BEFORE_EMBEDDING.name(), gate.toString(), "index", root.toString(),
                "--index", index.toString());
        Process first = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.exists(gate) && first.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(gate).as("the run reached the embedding step: %s", Files.readString(log)).exists();
            assertThat(Files.readString(log)).contains("keyword search is ready");

            CliFixture.Result search = CliFixture.run("search", "RetryPolicy", "--index", index.toString(),
                    "--limit", "3");
            assertThat(search.exitCode()).as(search.err()).isZero();
            assertThat(search.out()).contains("RetryPolicy");
            assertThat(search.out() + search.err()).contains("the dense leg covers only 0 of");
        } finally {
            first.destroyForcibly();
            first.waitFor(30, TimeUnit.SECONDS);
        }

        CliFixture.Result resumed = CliFixture.run("index", root.toString(), "--index", index.toString());
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("0 added, 0 modified").contains("(100%); ").contains("embedded by this run");
        assertThat(resumed.err()).doesNotContain("rebuilding");
    }
}
