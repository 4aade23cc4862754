package dev.neuraltext.testing;

import dev.neuraltext.eval.EvalRun;
import dev.neuraltext.filter.PayloadFilter;
import java.util.Locale;

/**
 * How long {@link FixtureCorpus#retriever()} takes, the cost a user's unit test pays: the first build in a fresh JVM
 * (class loading, reading the chunk file once) and the p50 of later builds (each a new store and retriever, indexing the
 * parsed chunks). A measurement, not a test.
 *
 * <p>Run: {@code mvn -B -q -pl neural-text-core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.neuraltext.testing.FixtureBuildTime}
 */
public final class FixtureBuildTime {

    private FixtureBuildTime() {
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        int parsed = FixtureCorpus.chunks().size();
        long parsing = System.nanoTime() - start;
        long chunks = FixtureCorpus.retriever().store().count(PayloadFilter.all());
        long first = System.nanoTime() - start;
        long[] later = new long[50];
        for (int i = 0; i < later.length; i++) {
            long s = System.nanoTime();
            long count = FixtureCorpus.retriever().store().count(PayloadFilter.all());
            later[i] = System.nanoTime() - s;
            if (count != chunks) {
                throw new IllegalStateException("fixture builds differ: " + count + " vs " + chunks + " chunks");
            }
        }
        System.out.printf(Locale.ROOT, "fixture retriever (%d chunks): first build in a fresh JVM %.1f ms (%.1f ms "
                + "of it reading the %d chunks), p50 of %d later builds %.2f ms%n", chunks,
                first / 1e6, parsing / 1e6, parsed, later.length, EvalRun.percentile(later, 50) / 1e6);
    }
}
