package dev.neuraltext.store;

import static dev.neuraltext.filter.PayloadFilter.all;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writer process ({@code destroyForcibly}, SIGKILL) at random points of its saves, 20 times, and loads after
 * each kill: the index is exactly the last committed round or the one being saved, whole, with the attachment (the
 * stand-in for the CLI's file manifest) agreeing with the store; and the next writer gets the lock at once.
 */
class CrashConsistencyTest {

    private static final int KILLS = 20;

    @TempDir
    Path tmp;

    @Test
    void aWriterKilledAnywhereInASaveLeavesThePreviousOrTheNewGenerationWhole() throws Exception {
        Path dir = tmp.resolve("ix");
        InMemoryCaseStore first = SaveLoop.round(0);
        first.save(dir, first.fingerprint(), Map.of(SaveLoop.ATTACHMENT, SaveLoop.attachment(0, 200)));
        long seed = Long.getLong("neuraltext.fuzz.seed", new Random().nextLong());
        Random random = new Random(seed);
        int committed = 0;
        int killedMidSave = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            String context = "kill " + kill + " of seed " + seed;
            // the child's output goes to a file: killing a process closes its pipes, losing lines not yet read
            Path log = tmp.resolve("writer-" + kill + ".log");
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                    SaveLoop.class.getName(), dir.toString(),
                    Integer.toString(committed)).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectOutput(log.toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(log).contains("saving ") && System.nanoTime() < deadline && child.isAlive()) {
                    Thread.sleep(2);
                }
                assertThat(Files.readString(log)).as(context + ": the writer starts saving").contains("saving ");
                Thread.sleep(random.nextInt(250));
            } finally {
                child.destroyForcibly();
            }
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as(context).isTrue();
            int lastSaving = committed;
            int lastSaved = committed;
            for (String line : Files.readAllLines(log)) {
                if (line.isBlank()) {
                    continue;
                }
                int n = Integer.parseInt(line.substring(line.indexOf(' ') + 1).strip());
                if (line.startsWith("saving")) {
                    lastSaving = n;
                } else if (line.startsWith("saved")) {
                    lastSaved = n;
                }
            }
            InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, first.fingerprint());
            String[] att = new String(loaded.loadedAttachment(SaveLoop.ATTACHMENT).orElseThrow(),
                    StandardCharsets.UTF_8).split("\n");
            int round = Integer.parseInt(att[0]);
            assertThat(round).as(context + ": last saved " + lastSaved + ", last begun " + lastSaving)
                    .isIn(lastSaved, lastSaving);
            List<ChunkInput> chunks = loaded.chunks(all());
            assertThat(chunks).as(context + ": store and attachment agree").hasSize(Integer.parseInt(att[1]));
            assertThat(chunks).as(context + ": one whole round").allSatisfy(c ->
                    assertThat(c.id()).startsWith("r" + round + "-"));
            assertThat(chunks).hasSize((int) SaveLoop.round(round).count(all()));
            killedMidSave += lastSaving > lastSaved ? 1 : 0;
            committed = round;
        }
        // the OS released the dead writer's lock: a new writer takes it at once
        InMemoryCaseStore last = SaveLoop.round(committed + 1);
        last.save(dir, last.fingerprint());
        assertThat(InMemoryCaseStore.load(dir, last.fingerprint()).count(all())).isEqualTo(last.count(all()));
        assertThat(killedMidSave).as("kills that landed inside a save, seed " + seed).isPositive();
        System.out.printf("crash consistency: %d kills, %d inside a save, seed %d%n", KILLS, killedMidSave, seed);
    }
}
