package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A question's latency is the median of its timed runs, so that one pause does not become the repository's p95. */
class SembleHarnessLatencyTest {

    @Test
    void aQuestionKeepsItsScoresAndTheMedianOfItsRuns() {
        List<String> top = List.of("a.rs:1-9");
        List<SembleHarness.Scored> runs = List.of(run(top, 4_000_000), run(top, 90_000_000), // a pause
                run(top, 5_000_000), run(top, 3_000_000), run(top, 6_000_000));

        SembleHarness.Scored median = SembleHarness.median(runs);

        assertThat(median.nanos()).isEqualTo(5_000_000);
        assertThat(median.ndcg()).isEqualTo(0.5);
        assertThat(median.fileNdcg()).isEqualTo(1.0);
        assertThat(median.top()).isEqualTo(top);
        assertThat(SembleHarness.DEFAULT_LATENCY_REPEATS).isEqualTo(5);
    }

    private static SembleHarness.Scored run(List<String> top, long nanos) {
        return new SembleHarness.Scored(0.5, 1.0, top, nanos, java.util.Map.of());
    }
}
