package dev.neuraltext.store;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Keeps the best {@code k} (slot, score) pairs seen, ordered by score descending and then by id ascending, so that
 * rankings are deterministic and independent of slot numbering (identical before and after a save/load round trip).
 * A bounded binary min-heap over primitive arrays; not thread-safe (one per search).
 */
final class TopK {

    private final int k;
    private final IntFunction<String> idOf;
    private int[] slots;
    private double[] scores;
    private int size;

    TopK(int k, IntFunction<String> idOf) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        this.k = k;
        this.idOf = idOf;
        // grown on demand: k may be huge (a caller asking for everything) while few candidates exist
        this.slots = new int[Math.min(k, 256)];
        this.scores = new double[slots.length];
    }

    /** Whether (slotA, scoreA) ranks below (slotB, scoreB). */
    private boolean worse(int slotA, double scoreA, int slotB, double scoreB) {
        if (scoreA != scoreB) {
            return scoreA < scoreB;
        }
        return idOf.apply(slotA).compareTo(idOf.apply(slotB)) > 0;
    }

    void offer(int slot, double score) {
        if (size < k) {
            if (size == slots.length) {
                int n = (int) Math.min(k, 2L * size);
                slots = Arrays.copyOf(slots, n);
                scores = Arrays.copyOf(scores, n);
            }
            slots[size] = slot;
            scores[size] = score;
            siftUp(size++);
        } else if (worse(slots[0], scores[0], slot, score)) {
            slots[0] = slot;
            scores[0] = score;
            siftDown(0);
        }
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!worse(slots[i], scores[i], slots[parent], scores[parent])) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int worst = left;
            int right = left + 1;
            if (right < size && worse(slots[right], scores[right], slots[left], scores[left])) {
                worst = right;
            }
            if (!worse(slots[worst], scores[worst], slots[i], scores[i])) {
                return;
            }
            swap(i, worst);
            i = worst;
        }
    }

    private void swap(int a, int b) {
        int s = slots[a];
        slots[a] = slots[b];
        slots[b] = s;
        double d = scores[a];
        scores[a] = scores[b];
        scores[b] = d;
    }

    /** The kept entries, best first; empties this collector. */
    List<Scored> drain() {
        Scored[] out = new Scored[size];
        for (int i = size - 1; i >= 0; i--) {
            out[i] = new Scored(slots[0], scores[0]);
            size--;
            slots[0] = slots[size];
            scores[0] = scores[size];
            siftDown(0);
        }
        return Arrays.asList(out);
    }

    /** A slot and its score. */
    record Scored(int slot, double score) {
    }
}
