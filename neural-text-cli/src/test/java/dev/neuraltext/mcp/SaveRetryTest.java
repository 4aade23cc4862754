package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.NonRetriableNeuralTextException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SaveRetryTest {

    @TempDir
    Path dir;

    /** A save that fails as the store's writer fails on a full disk. */
    private static void diskFull() {
        throw new NonRetriableNeuralTextException("saving the index to /x failed; the previous index, if any, is "
                + "unchanged: No space left on device", new IOException("No space left on device"));
    }

    @Test
    void aFailedSaveIsSaidWithTheSpaceItNeedsRetriedWithBackoffAndClearedOnceASaveWorks() throws Exception {
        Files.createDirectories(dir.resolve("gen-1"));
        Files.write(dir.resolve("gen-1/chunks.bin"), new byte[3_000]);
        Files.writeString(dir.resolve("CURRENT"), "gen-1\n");
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch retried = new CountDownLatch(1);
        try (SaveRetry saves = new SaveRetry(dir, log::add, retried::countDown, Duration.ofMillis(20))) {
            assertThat(saves.run(SaveRetryTest::diskFull)).isFalse();
            assertThat(retried.await(5, TimeUnit.SECONDS)).as("the retry was scheduled").isTrue();
            String problem = saves.problem().orElseThrow();
            assertThat(problem).startsWith("saving the index to " + dir + " failed once since ")
                    .contains("(No space left on device)").contains("it needs about 2.9 KiB there")
                    .contains("free; searches answer from the index in memory, the saved one is from before this "
                            + "server started");
            assertThat(log).containsExactly(problem);

            assertThat(saves.run(SaveRetryTest::diskFull)).isFalse();
            assertThat(saves.failure().attempts()).isEqualTo(2);
            assertThat(saves.failure().nextTry()).isEqualTo(Duration.ofMillis(40));
            assertThat(saves.problem().orElseThrow()).contains("failed 2 times");

            assertThat(saves.run(() -> { })).isTrue();
            assertThat(saves.problem()).isEmpty();
            assertThat(saves.lastSaved()).isNotNull();
            assertThat(log.get(log.size() - 1)).isEqualTo("saving the index to " + dir + " works again after 2 failed "
                    + "tries: the saved index is current");

            assertThat(saves.run(SaveRetryTest::diskFull)).isFalse();
            assertThat(saves.problem().orElseThrow()).contains("failed once").contains("the saved one is from 20");
        }
    }

    @Test
    void theDelayDoublesUpToAMinute() {
        try (SaveRetry saves = new SaveRetry(dir, s -> { }, () -> { }, Duration.ofSeconds(1))) {
            assertThat(saves.delay(1)).isEqualTo(Duration.ofSeconds(1));
            assertThat(saves.delay(2)).isEqualTo(Duration.ofSeconds(2));
            assertThat(saves.delay(6)).isEqualTo(Duration.ofSeconds(32));
            assertThat(saves.delay(7)).isEqualTo(SaveRetry.MAX_DELAY);
            assertThat(saves.delay(1_000)).isEqualTo(SaveRetry.MAX_DELAY);
        }
    }

    @Test
    void theMessageIsTheInnermostCause() {
        assertThat(SaveRetry.message(new RuntimeException("outer", new IOException("No space left on device"))))
                .isEqualTo("No space left on device");
        assertThat(SaveRetry.message(new RuntimeException("outer", new java.nio.file.AccessDeniedException("/x/y"))))
                .isEqualTo("AccessDeniedException: /x/y");
        assertThat(SaveRetry.message(new IllegalStateException())).isEqualTo("IllegalStateException");
    }
}
