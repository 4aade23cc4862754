package dev.neuraltext.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.encode.SparseVector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The dense and sparse legs against brute force on random data, with removals and slot reuse. */
class VectorIndexTest {

    private static final IntFunction<String> ID = slot -> String.format("s%05d", slot);

    @Test
    void denseSearchEqualsBruteForceCosineAfterRandomPutsAndRemovals() {
        Random random = new Random(42);
        int dim = 24;
        DenseVectorIndex index = new DenseVectorIndex(dim);
        Map<Integer, float[]> live = new HashMap<>();
        for (int op = 0; op < 3000; op++) {
            int slot = random.nextInt(500);
            if (random.nextInt(4) == 0) {
                index.remove(slot);
                live.remove(slot);
            } else {
                float[] v = new float[dim];
                for (int j = 0; j < dim; j++) {
                    v[j] = (float) random.nextGaussian() * (random.nextInt(10) == 0 ? 100 : 1);
                }
                index.put(slot, v);
                live.put(slot, v);
            }
        }
        assertThat(index.size()).isEqualTo(live.size());
        for (int trial = 0; trial < 20; trial++) {
            float[] q = new float[dim];
            for (int j = 0; j < dim; j++) {
                q[j] = (float) random.nextGaussian();
            }
            int limit = 1 + random.nextInt(40);
            boolean filtered = trial % 2 == 0;
            List<Integer> expected = live.keySet().stream()
                    .filter(s -> !filtered || s % 3 == 0)
                    .sorted(Comparator.comparingDouble((Integer s) -> -CaseStoreContract.cosine(q, live.get(s))))
                    .limit(limit).collect(Collectors.toList());
            List<TopK.Scored> got = index.search(q, limit, s -> !filtered || s % 3 == 0, ID);
            assertThat(got).extracting(TopK.Scored::slot).containsExactlyElementsOf(expected);
            for (TopK.Scored s : got) {
                assertThat(s.score()).isCloseTo(CaseStoreContract.cosine(q, live.get(s.slot())), within(1e-5));
            }
        }
    }

    @Test
    void denseChecksDimensionOnInsertAndQueryAndHandlesZeroVectors() {
        DenseVectorIndex index = new DenseVectorIndex(3);
        assertThatThrownBy(() -> index.put(0, new float[2])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2").hasMessageContaining("3");
        assertThatThrownBy(() -> index.search(new float[4], 1, s -> true, ID)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("query vector has dimension 4 but the store's dense dimension is 3");
        index.put(0, new float[3]);
        index.put(1, new float[] {0, 2, 0});
        List<TopK.Scored> got = index.search(new float[] {0, 1, 0}, 5, s -> true, ID);
        assertThat(got).extracting(TopK.Scored::slot).containsExactly(1, 0);
        assertThat(got.get(0).score()).isCloseTo(1.0, within(1e-6));
        assertThat(got.get(1).score()).isZero();
        assertThat(index.search(new float[3], 5, s -> true, ID)).extracting(TopK.Scored::score).containsOnly(0.0);
    }

    @Test
    void tiesAreBrokenByIdNotBySlot() {
        DenseVectorIndex index = new DenseVectorIndex(2);
        String[] ids = {"zeta", "alpha", "mid"};
        for (int i = 0; i < 3; i++) {
            index.put(i, new float[] {1, 1});
        }
        assertThat(index.search(new float[] {1, 0}, 2, s -> true, s -> ids[s])).extracting(TopK.Scored::slot)
                .containsExactly(1, 2);
    }

    @Test
    void sparseSearchEqualsBruteForceDotProductAfterRandomPutsAndRemovals() {
        Random random = new Random(9);
        SparseVectorIndex index = new SparseVectorIndex();
        Map<Integer, SparseVector> live = new HashMap<>();
        for (int op = 0; op < 3000; op++) {
            int slot = random.nextInt(400);
            if (random.nextInt(4) == 0) {
                index.remove(slot);
                live.remove(slot);
            } else {
                Map<Integer, Float> m = new HashMap<>();
                for (int j = 0, n = 1 + random.nextInt(12); j < n; j++) {
                    m.put(random.nextInt(200), random.nextFloat() * 4 - 0.5f);
                }
                SparseVector v = SparseVector.of(m);
                index.put(slot, v);
                live.put(slot, v);
            }
        }
        assertThat(index.size()).isEqualTo(live.size());
        for (int trial = 0; trial < 20; trial++) {
            Map<Integer, Float> qm = new HashMap<>();
            for (int j = 0; j < 6; j++) {
                qm.put(random.nextInt(200), random.nextFloat());
            }
            SparseVector q = SparseVector.of(qm);
            int limit = 1 + random.nextInt(30);
            boolean filtered = trial % 2 == 1;
            List<Integer> expected = new ArrayList<>(live.keySet()).stream()
                    .filter(s -> !filtered || s % 2 == 0)
                    .filter(s -> shares(q, live.get(s)))
                    .sorted(Comparator.comparingDouble((Integer s) -> -q.dot(live.get(s))).thenComparing(ID::apply))
                    .limit(limit).collect(Collectors.toList());
            List<TopK.Scored> got = index.search(q, limit, s -> !filtered || s % 2 == 0, ID);
            assertThat(got).extracting(TopK.Scored::slot).containsExactlyElementsOf(expected);
            for (TopK.Scored s : got) {
                assertThat(s.score()).isEqualTo(q.dot(live.get(s.slot())));
            }
        }
    }

    private static boolean shares(SparseVector a, SparseVector b) {
        for (int i : a.indices()) {
            for (int j : b.indices()) {
                if (i == j) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void topKKeepsTheBestInOrderForAnyK() {
        Random random = new Random(1);
        for (int k : new int[] {1, 3, 256, 300, 10_000}) {
            TopK top = new TopK(k, ID);
            List<double[]> all = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                double score = random.nextInt(50); // many ties
                top.offer(i, score);
                all.add(new double[] {i, score});
            }
            List<Integer> expected = all.stream()
                    .sorted(Comparator.comparingDouble((double[] e) -> -e[1]).thenComparing(e -> ID.apply((int) e[0])))
                    .limit(k).map(e -> (int) e[0]).collect(Collectors.toList());
            assertThat(top.drain()).extracting(TopK.Scored::slot).containsExactlyElementsOf(expected);
        }
    }
}
