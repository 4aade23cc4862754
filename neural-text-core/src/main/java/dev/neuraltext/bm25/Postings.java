package dev.neuraltext.bm25;

import java.util.Arrays;

/**
 * The postings of one term: parallel primitive arrays of (doc ordinal, field ordinal and term frequency packed in one
 * int), sorted by doc ordinal; a document with the term in several fields has consecutive entries. Guarded by the
 * index's lock.
 */
final class Postings {

    static final int FIELD_SHIFT = 24;
    static final int TF_MASK = (1 << FIELD_SHIFT) - 1;
    static final int MAX_FIELDS = 256;

    int[] docs;
    int[] fieldTf;
    int size;

    Postings() {
        this(2);
    }

    /** Empty postings with room for {@code capacity} entries. */
    Postings(int capacity) {
        docs = new int[capacity];
        fieldTf = new int[capacity];
    }

    void add(int doc, int field, int tf) {
        if (size == docs.length) {
            int capacity = size + (size >> 1) + 2; // grows by half: postings are most of the index's heap
            docs = Arrays.copyOf(docs, capacity);
            fieldTf = Arrays.copyOf(fieldTf, capacity);
        }
        docs[size] = doc;
        fieldTf[size] = (field << FIELD_SHIFT) | Math.min(tf, TF_MASK);
        size++;
    }

    /** The index of the first entry of {@code doc}, or -1 when the term is not in it. */
    int firstEntry(int doc) {
        int i = Arrays.binarySearch(docs, 0, size, doc);
        if (i < 0) {
            return -1;
        }
        while (i > 0 && docs[i - 1] == doc) {
            i--;
        }
        return i;
    }

    /** Drops entries of deleted docs and renumbers the rest with {@code newOrdinal} (-1 = deleted). */
    void compact(int[] newOrdinal) {
        int w = 0;
        for (int r = 0; r < size; r++) {
            int nd = newOrdinal[docs[r]];
            if (nd >= 0) {
                docs[w] = nd;
                fieldTf[w] = fieldTf[r];
                w++;
            }
        }
        size = w;
        if (docs.length > 2 * size + 8) {
            docs = Arrays.copyOf(docs, size + 2);
            fieldTf = Arrays.copyOf(fieldTf, size + 2);
        }
    }
}
