package dev.neuraltext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The fuzz harness itself: the {@code -Dfuzz.inputs} switch and inputs that are independent of each other. */
class FuzzTest {

    private static void withInputs(String value, Runnable body) {
        String before = System.getProperty(Fuzz.INPUTS_PROPERTY);
        System.setProperty(Fuzz.INPUTS_PROPERTY, value);
        try {
            body.run();
        } finally {
            if (before == null) {
                System.clearProperty(Fuzz.INPUTS_PROPERTY);
            } else {
                System.setProperty(Fuzz.INPUTS_PROPERTY, before);
            }
        }
    }

    @Test
    void theSwitchSetsTheCountAndLiftsTheBudgetAndIsEmptyPerBuild() {
        withInputs("", () -> {
            assertThat(Fuzz.inputs(20_000)).isEqualTo(20_000);
            assertThat(Fuzz.releaseScale()).isFalse();
        });
        withInputs("1_000_000", () -> assertThat(Fuzz.inputs(20_000)).isEqualTo(1_000_000));
        withInputs("300", () -> {
            AtomicInteger seen = new AtomicInteger();
            // a budget of 0 ms would stop after the first input; the switch runs all 300
            assertThat(Fuzz.run("switch", 5, 0, (random, i) -> seen.incrementAndGet())).isEqualTo(300);
            assertThat(seen).hasValue(300);
        });
        withInputs("many", () -> assertThatThrownBy(() -> Fuzz.inputs(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-Dfuzz.inputs must be a positive integer, got 'many'"));
        withInputs("0", () -> assertThatThrownBy(() -> Fuzz.inputs(1)).hasMessageContaining("got '0'"));
    }

    @Test
    void consecutiveInputsDrawIndependentFirstValues() {
        long seed = 12345L; // with new Random(seed + i) 1,991 of these 2,000 first booleans were false
        int[] branch = new int[4];
        int trues = 0;
        for (int i = 0; i < 2_000; i++) {
            Random random = new Random(Fuzz.inputSeed(seed, i));
            trues += random.nextBoolean() ? 1 : 0;
            branch[new Random(Fuzz.inputSeed(seed, i)).nextInt(4)]++;
        }
        assertThat(trues).isBetween(900, 1_100);
        for (int n : branch) {
            assertThat(n).isBetween(420, 580);
        }
    }
}
