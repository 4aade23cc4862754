package dev.neuraltext.mcp;

import dev.neuraltext.cli.results.Amounts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The live index's saves when the disk fights back: a save that fails (a full disk, a read-only remount, any
 * {@code IOException}) leaves the previous generation on disk and the current index served from memory; the store's
 * writer has already deleted its partial files. The failure is kept for {@code status} and every answer
 * ({@link #problem()}: what failed, how often, how much space the index needs and how much is free), and the save is
 * tried again after 1, 2, 4 ... seconds, at most a minute apart, until one succeeds; then the saved index catches up
 * with the one in memory and the problem is cleared. Thread-safe.
 */
final class SaveRetry implements AutoCloseable {

    static final Duration FIRST_DELAY = Duration.ofSeconds(1);
    static final Duration MAX_DELAY = Duration.ofMinutes(1);

    /** A failed save: when it first failed, the last error, how many tries failed, the space needed and free. */
    record Failure(Instant since, String error, int attempts, long neededBytes, long usableBytes, Duration nextTry) {

        String describe(Path indexDir, Instant lastSaved) {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "saving the index to %s failed %s since %s "
                    + "(%s)", indexDir, attempts == 1 ? "once" : attempts + " times",
                    since.truncatedTo(ChronoUnit.SECONDS), error));
            if (neededBytes > 0) {
                b.append(String.format(Locale.ROOT, ": it needs about %s there, %s %s free",
                        Amounts.bytes(neededBytes), Amounts.bytes(usableBytes), usableBytes == 1 ? "is" : "are"));
            }
            b.append("; searches answer from the index in memory, the saved one is ").append(lastSaved == null
                    ? "from before this server started" : "from " + lastSaved.truncatedTo(ChronoUnit.SECONDS));
            b.append(String.format(Locale.ROOT, "; trying again in %d s", Math.max(1, nextTry.toSeconds())));
            return b.toString();
        }
    }

    private final Path indexDir;
    private final Consumer<String> log;
    private final Runnable retry;
    private final Duration firstDelay;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "neural-text-save-retry");
        t.setDaemon(true);
        return t;
    });
    private volatile Failure failure;
    private volatile Instant lastSaved;

    /**
     * @param indexDir   the index folder, whose space is reported
     * @param log        where a failure and the recovery are said
     * @param retry      what to run to save again (it calls {@link #run} itself)
     * @param firstDelay the wait before the first retry, doubled after each failure up to {@link #MAX_DELAY}
     */
    SaveRetry(Path indexDir, Consumer<String> log, Runnable retry, Duration firstDelay) {
        this.indexDir = Objects.requireNonNull(indexDir, "indexDir");
        this.log = Objects.requireNonNull(log, "log");
        this.retry = Objects.requireNonNull(retry, "retry");
        this.firstDelay = Objects.requireNonNull(firstDelay, "firstDelay");
    }

    /** Runs {@code save}; returns whether it succeeded. A failure is recorded, said and retried later, not thrown. */
    boolean run(Runnable save) {
        try {
            save.run();
        } catch (RuntimeException e) {
            Failure before = failure;
            int attempts = before == null ? 1 : before.attempts() + 1;
            Duration delay = delay(attempts);
            Failure now = new Failure(before == null ? Instant.now() : before.since(), message(e), attempts,
                    neededBytes(), usableBytes(), delay);
            failure = now;
            log.accept(now.describe(indexDir, lastSaved));
            if (!timer.isShutdown()) {
                timer.schedule(retry, delay.toMillis(), TimeUnit.MILLISECONDS);
            }
            return false;
        }
        lastSaved = Instant.now();
        Failure before = failure;
        if (before != null) {
            failure = null;
            log.accept("saving the index to " + indexDir + " works again after " + before.attempts()
                    + (before.attempts() == 1 ? " failed try" : " failed tries") + ": the saved index is current");
        }
        return true;
    }

    /** The wait before try {@code attempts + 1}: the first delay doubled per failure, at most {@link #MAX_DELAY}. */
    Duration delay(int attempts) {
        long millis = firstDelay.toMillis() << Math.min(attempts - 1, 20);
        return Duration.ofMillis(Math.min(millis, MAX_DELAY.toMillis()));
    }

    /** The failing save said for people, or empty while saves succeed. */
    Optional<String> problem() {
        Failure f = failure;
        return f == null ? Optional.empty() : Optional.of(f.describe(indexDir, lastSaved));
    }

    /** The current failure, or null. */
    Failure failure() {
        return failure;
    }

    /** When the index was last saved by this server, or null. */
    Instant lastSaved() {
        return lastSaved;
    }

    /** The failure's own words: the innermost cause that says something, with the outer message's context. */
    static String message(Throwable e) {
        Throwable inner = e;
        while (inner.getCause() != null && inner.getCause() != inner) {
            inner = inner.getCause();
        }
        String m = inner.getMessage();
        String kind = inner.getClass().getSimpleName();
        return m == null || m.isBlank() ? kind : (inner instanceof IOException && !m.contains(" ") ? kind + ": " + m
                : m);
    }

    /** The size of the generation the index folder holds now: about what a new save writes. 0 when unknown. */
    private long neededBytes() {
        try {
            Path current = indexDir.resolve("CURRENT");
            if (!Files.isRegularFile(current)) {
                return 0;
            }
            Path gen = indexDir.resolve(Files.readString(current, StandardCharsets.US_ASCII).strip());
            long total = 0;
            try (DirectoryStream<Path> files = Files.newDirectoryStream(gen)) {
                for (Path f : files) {
                    total += Files.size(f);
                }
            }
            return total;
        } catch (IOException | UncheckedIOException | java.nio.file.InvalidPathException e) {
            return 0; // the report of the failure must not fail: the size is left out
        }
    }

    private long usableBytes() {
        try {
            return Files.getFileStore(indexDir).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Stops the retries. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
