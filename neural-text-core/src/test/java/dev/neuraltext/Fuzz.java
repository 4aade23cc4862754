package dev.neuraltext;

import java.util.Random;
import java.util.function.BiConsumer;

/**
 * Bounded, seeded fuzzing for the normal test suite. Each run draws a fresh seed (or takes
 * {@code -Dneuraltext.fuzz.seed=N}); input {@code i} is generated from {@code seed + i}, and a failure names the
 * seed and the input so that it can be replayed exactly. Each fuzz test stops at its input count or its time
 * budget, whichever comes first, and prints how many inputs per second it checked.
 */
public final class Fuzz {

    /** System property that fixes the seed of every fuzz test, to replay a failure. */
    public static final String SEED_PROPERTY = "neuraltext.fuzz.seed";

    private Fuzz() {
    }

    /**
     * Runs {@code body} on up to {@code inputs} random inputs within {@code budgetMillis}.
     *
     * @param body receives a {@link Random} seeded for one input, and the input's number
     * @return the number of inputs checked
     */
    public static int run(String name, int inputs, long budgetMillis, BiConsumer<Random, Integer> body) {
        Long fixed = Long.getLong(SEED_PROPERTY);
        long seed = fixed != null ? fixed : new Random().nextLong();
        long start = System.nanoTime();
        long deadline = start + budgetMillis * 1_000_000L;
        int done = 0;
        for (int i = 0; i < inputs && (i == 0 || System.nanoTime() < deadline); i++) {
            try {
                body.accept(new Random(seed + i), i);
            } catch (AssertionError | RuntimeException | StackOverflowError e) {
                throw new AssertionError("fuzz " + name + " failed on input " + i + " of seed " + seed
                        + " (replay with -D" + SEED_PROPERTY + "=" + seed + "): " + e, e);
            }
            done++;
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf(java.util.Locale.ROOT, "fuzz %s: %d inputs in %.2f s (%.0f/s), seed %d%n", name, done, secs,
                done / Math.max(secs, 1e-9), seed);
        return done;
    }
}
