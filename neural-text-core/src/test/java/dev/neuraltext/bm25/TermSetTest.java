package dev.neuraltext.bm25;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TermSetTest {

    @Test
    void encodedSetsDecodeToTheSortedTerms() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            int count = random.nextInt(300);
            int[] terms = random.ints(0, round % 2 == 0 ? 1000 : Integer.MAX_VALUE).distinct().limit(count).toArray();
            int[] expected = terms.clone();
            Arrays.sort(expected);
            byte[] encoded = TermSet.encode(Arrays.copyOf(terms, terms.length + 5), terms.length);
            List<Integer> decoded = new ArrayList<>();
            TermSet.forEach(encoded, decoded::add);
            assertThat(decoded).containsExactly(Arrays.stream(expected).boxed().toArray(Integer[]::new));
        }
        assertThat(TermSet.encode(new int[] {5, 1, 300}, 3)).hasSize(4); // deltas 1, 4 and 295 (two bytes)
    }
}
