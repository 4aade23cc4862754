package dev.neuraltext;

import java.util.Random;
import java.util.function.BiConsumer;

/**
 * Bounded, seeded fuzzing for the normal test suite. Each run draws a fresh seed (or takes
 * {@code -Dneuraltext.fuzz.seed=N}); input {@code i} is generated from {@code seed + i} (scrambled: see
 * {@link #inputSeed}), and a failure names the seed and the input so that it can be replayed exactly. Each fuzz test
 * stops at its input count or its time budget, whichever comes first, and prints how many inputs per second it
 * checked.
 *
 * <p>{@code -Dfuzz.inputs=N} ({@link #INPUTS_PROPERTY}) runs every fuzz test on exactly N inputs with no time budget,
 * for a release-scale run ({@code mvn -pl neural-text-core test -Dtest=TextAnalysisFuzzTest -Dfuzz.inputs=1000000});
 * without it each test keeps the count and budget it passes, so the per-build run stays short.
 */
public final class Fuzz {

    /** System property that fixes the seed of every fuzz test, to replay a failure. */
    public static final String SEED_PROPERTY = "neuraltext.fuzz.seed";

    /** System property that sets the number of inputs of every fuzz test and lifts its time budget. */
    public static final String INPUTS_PROPERTY = "fuzz.inputs";

    private Fuzz() {
    }

    /**
     * The seed of input {@code i}: {@code seed + i} through SplitMix64's finalizer. {@link Random}'s first draws from
     * consecutive seeds are nearly equal ({@code nextBoolean()} and {@code nextInt(4)} read its top bits, which change
     * once in hundreds of seeds), so unscrambled seeds gave runs of hundreds of inputs down the same branch of a
     * generator.
     */
    static long inputSeed(long seed, int i) {
        long z = seed + i;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * The input count {@code -Dfuzz.inputs} asks for, or {@code perBuild} when it is not set.
     *
     * @throws IllegalArgumentException if the property is set but is not a positive integer
     */
    public static int inputs(int perBuild) {
        String value = System.getProperty(INPUTS_PROPERTY, "").strip();
        if (value.isEmpty()) {
            return perBuild;
        }
        try {
            int n = Integer.parseInt(value.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + INPUTS_PROPERTY + " must be a positive integer, got '" + value + "'");
    }

    /** Whether {@code -Dfuzz.inputs} is set: every input then runs, whatever the time budget. */
    public static boolean releaseScale() {
        return !System.getProperty(INPUTS_PROPERTY, "").isBlank();
    }

    /**
     * Runs {@code body} on up to {@code inputs} random inputs within {@code budgetMillis}; with {@code -Dfuzz.inputs}
     * on exactly that many, without a time budget.
     *
     * @param body receives a {@link Random} seeded for one input, and the input's number
     * @return the number of inputs checked
     */
    public static int run(String name, int inputs, long budgetMillis, BiConsumer<Random, Integer> body) {
        Long fixed = Long.getLong(SEED_PROPERTY);
        long seed = fixed != null ? fixed : new Random().nextLong();
        int count = inputs(inputs);
        boolean budgeted = !releaseScale();
        long start = System.nanoTime();
        long deadline = start + budgetMillis * 1_000_000L;
        int done = 0;
        for (int i = 0; i < count && (i == 0 || !budgeted || System.nanoTime() < deadline); i++) {
            try {
                body.accept(new Random(inputSeed(seed, i)), i);
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
