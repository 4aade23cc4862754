package dev.neuraltext.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.fusion.LegResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class DenseWindowsTest {

    @Test
    void aShortTextIsOneWindowUnchanged() {
        assertThat(DenseWindows.windows("head\nbody", 100)).containsExactly("head\nbody");
    }

    @Test
    void aLongTextIsCutAtLineEndsAndEveryLaterWindowRepeatsTheFirstLine() {
        String text = "Title\n" + "a".repeat(8) + "\n" + "b".repeat(8) + "\n" + "c".repeat(8);
        List<String> w = DenseWindows.windows(text, 20);
        assertThat(w).hasSize(3);
        assertThat(w.get(0)).isEqualTo("Title\naaaaaaaa\n");
        assertThat(w.get(1)).isEqualTo("Title\nbbbbbbbb\n");
        assertThat(w.get(2)).isEqualTo("Title\ncccccccc\n");
        assertThat(String.join("", w)).contains("aaaaaaaa", "bbbbbbbb", "cccccccc");
    }

    @Test
    void topIsBestFirstWithTiesById() {
        List<LegResult> top = DenseWindows.top(List.of("b", "a", "c"), new double[] {0.5, 0.5, 0.9});
        assertThat(top).extracting(LegResult::id).containsExactly("c", "a", "b");
    }
}
