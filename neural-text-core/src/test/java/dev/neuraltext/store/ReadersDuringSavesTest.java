package dev.neuraltext.store;

import static dev.neuraltext.filter.PayloadFilter.all;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers load while a writer saves round after round (and garbage-collects old generations): every load is one
 * whole round, store and attachment agreeing, and never fails. Readers take no lock.
 */
class ReadersDuringSavesTest {

    private static final int ROUNDS = 30;

    @TempDir
    Path tmp;

    @Test
    void everyLoadDuringSavesIsOneWholeGeneration() throws Exception {
        Path dir = tmp.resolve("ix");
        InMemoryCaseStore first = SaveLoop.round(0);
        first.save(dir, first.fingerprint(), Map.of(SaveLoop.ATTACHMENT, SaveLoop.attachment(0, 200)));
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger loads = new AtomicInteger();
        Runnable reader = () -> {
            int lastRound = 0;
            while (writing.get()) {
                try {
                    InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, first.fingerprint());
                    String[] att = new String(loaded.loadedAttachment(SaveLoop.ATTACHMENT).orElseThrow(),
                            StandardCharsets.UTF_8).split("\n");
                    int round = Integer.parseInt(att[0]);
                    List<ChunkInput> chunks = loaded.chunks(all());
                    assertThat(chunks).hasSize(Integer.parseInt(att[1]));
                    assertThat(chunks).allSatisfy(c -> assertThat(c.id()).startsWith("r" + round + "-"));
                    assertThat(round).as("generations only move forward").isGreaterThanOrEqualTo(lastRound);
                    lastRound = round;
                    loads.incrementAndGet();
                } catch (Throwable t) { // collected and reported on the test thread
                    failures.add(t);
                    return;
                }
            }
        };
        Thread r1 = new Thread(reader, "reader-1");
        Thread r2 = new Thread(reader, "reader-2");
        r1.start();
        r2.start();
        try {
            for (int n = 1; n <= ROUNDS; n++) {
                InMemoryCaseStore s = SaveLoop.round(n);
                s.save(dir, s.fingerprint(), Map.of(SaveLoop.ATTACHMENT, SaveLoop.attachment(n, (int) s.count(all()))));
            }
        } finally {
            writing.set(false);
            r1.join();
            r2.join();
        }
        assertThat(failures).isEmpty();
        assertThat(loads.get()).isPositive();
        InMemoryCaseStore last = InMemoryCaseStore.load(dir, first.fingerprint());
        assertThat(new String(last.loadedAttachment(SaveLoop.ATTACHMENT).orElseThrow(), StandardCharsets.UTF_8))
                .startsWith(ROUNDS + "\n");
    }
}
