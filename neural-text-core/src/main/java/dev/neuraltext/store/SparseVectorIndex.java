package dev.neuraltext.store;

import dev.neuraltext.encode.SparseVector;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * An inverted index over {@link SparseVector} indices, scoring by dot product (term-at-a-time accumulation). A chunk
 * is a candidate when it shares at least one index with the query; the filter is evaluated on candidates before the
 * top-k cut. Keeps each slot's vector, so removal touches only that vector's posting lists.
 *
 * <p>Not thread-safe: {@link InMemoryCaseStore} guards it with its read-write lock.
 */
final class SparseVectorIndex {

    /** One posting list: parallel arrays of slots and weights, unordered. */
    private static final class Postings {
        int[] slots = new int[4];
        float[] weights = new float[4];
        int size;

        void add(int slot, float weight) {
            if (size == slots.length) {
                slots = Arrays.copyOf(slots, size * 2);
                weights = Arrays.copyOf(weights, size * 2);
            }
            slots[size] = slot;
            weights[size] = weight;
            size++;
        }

        void remove(int slot) {
            for (int i = 0; i < size; i++) {
                if (slots[i] == slot) {
                    size--;
                    slots[i] = slots[size];
                    weights[i] = weights[size];
                    return;
                }
            }
        }
    }

    private final Map<Integer, Postings> postings = new HashMap<>();
    private SparseVector[] vectors = new SparseVector[16];
    private int size;
    private int maxSlot = -1;

    int size() {
        return size;
    }

    /** The vector stored at {@code slot}, or null. */
    SparseVector get(int slot) {
        return slot < vectors.length ? vectors[slot] : null;
    }

    /** Stores {@code vector} at {@code slot}, replacing what was there. */
    void put(int slot, SparseVector vector) {
        remove(slot);
        if (slot >= vectors.length) {
            vectors = Arrays.copyOf(vectors, Math.max(slot + 1, vectors.length * 2));
        }
        vectors[slot] = vector;
        size++;
        maxSlot = Math.max(maxSlot, slot);
        for (int i = 0; i < vector.size(); i++) {
            postings.computeIfAbsent(vector.indexAt(i), k -> new Postings()).add(slot, vector.valueAt(i));
        }
    }

    void remove(int slot) {
        SparseVector old = get(slot);
        if (old == null) {
            return;
        }
        for (int i = 0; i < old.size(); i++) {
            Postings p = postings.get(old.indexAt(i));
            p.remove(slot);
            if (p.size == 0) {
                postings.remove(old.indexAt(i));
            }
        }
        vectors[slot] = null;
        size--;
    }

    /** The {@code limit} best slots by dot product with {@code query} among those {@code accept} admits, best first. */
    List<TopK.Scored> search(SparseVector query, int limit, IntPredicate accept, IntFunction<String> idOf) {
        double[] acc = new double[maxSlot + 1];
        boolean[] touched = new boolean[maxSlot + 1];
        int[] candidates = new int[16];
        int count = 0;
        for (int i = 0; i < query.size(); i++) {
            Postings p = postings.get(query.indexAt(i));
            if (p == null) {
                continue;
            }
            double qw = query.valueAt(i);
            for (int j = 0; j < p.size; j++) {
                int slot = p.slots[j];
                if (!touched[slot]) {
                    touched[slot] = true;
                    if (count == candidates.length) {
                        candidates = Arrays.copyOf(candidates, count * 2);
                    }
                    candidates[count++] = slot;
                }
                acc[slot] += qw * p.weights[j];
            }
        }
        TopK top = new TopK(limit, idOf);
        for (int c = 0; c < count; c++) {
            int slot = candidates[c];
            if (accept.test(slot)) {
                top.offer(slot, acc[slot]);
            }
        }
        return top.drain();
    }
}
