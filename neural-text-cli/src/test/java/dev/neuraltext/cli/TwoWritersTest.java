package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real {@code index} processes on one index folder, 20 rounds: exactly one writes, the other fails at once with
 * the lock message and exit 1, and a search after every round finds that round's change. The first writer is held
 * inside its lock ({@link HeldIndexRun} at {@link IndexSession.Step#LOCKED}) until the second has finished, so the two
 * always overlap.
 */
class TwoWritersTest {

    private static final int ROUNDS = 20;

    @TempDir
    Path tmp;

    private static Process start(Path log, String... args) throws IOException {
        // C1 only and the serial collector: these short runs start about a third faster
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path")));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    @Test
    void oneWriterAtATimeAndTheIndexStaysSearchable() throws Exception {
        Path root = CliFixture.tree(tmp.resolve("proj"));
        Path index = tmp.resolve("ix");
        Path file = root.resolve("docs/guide.md");
        String cli = NeuralTextCli.class.getName();
        for (int round = 1; round <= ROUNDS; round++) {
            String marker = "roundmarker" + round;
            Files.writeString(file, "\nChanged in " + marker + ".\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            Path gate = tmp.resolve("gate-" + round);
            Path logA = tmp.resolve("a-" + round + ".log");
            Path logB = tmp.resolve("b-" + round + ".log");
            Process a = start(logA, HeldIndexRun.class.getName(), IndexSession.Step.LOCKED.name(), gate.toString(),
                    "index", root.toString(), "--no-dense", "--index", index.toString());
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.exists(gate) && a.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(gate).as("round %d: the first writer holds the lock (%s)", round, logA).exists();
                Process b = start(logB, cli, "index", root.toString(), "--no-dense", "--index", index.toString());
                assertThat(b.waitFor(60, TimeUnit.SECONDS)).isTrue();
                String outB = Files.readString(logB);
                assertThat(b.exitValue()).as("round %d, second writer: %s", round, outB).isEqualTo(1);
                assertThat(outB).contains("is being updated by another process; try again when it finishes")
                        .doesNotContain("Exception").doesNotContain("Indexed ");
                Files.delete(gate);
                assertThat(a.waitFor(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                a.destroyForcibly();
            }
            String outA = Files.readString(logA);
            assertThat(a.exitValue()).as("round %d, first writer: %s", round, outA).isZero();
            assertThat(outA).contains("Indexed ").contains(round == 1 ? "3 added" : "1 modified");

            CliFixture.Result search = CliFixture.run("search", marker, "--index", index.toString(), "--no-dense",
                    "--limit", "1");
            assertThat(search.exitCode()).as(search.err()).isZero();
            assertThat(search.out()).as("round %d", round).contains("guide.md");
        }
    }
}
