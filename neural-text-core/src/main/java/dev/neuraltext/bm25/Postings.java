package dev.neuraltext.bm25;

import java.util.Arrays;

/**
 * The postings of one term: entries of (doc ordinal, field ordinal, term frequency) sorted by doc ordinal, a document
 * with the term in several fields having consecutive entries, in parallel primitive arrays (the doc, and the field and
 * frequency packed in one int). Every {@link #GROUP_SIZE} entries the last doc is also kept in a skip list one
 * sixteenth the size, which {@link Cursor#advance} searches, so that a far target costs a search over the skip list
 * and a scan of one group rather than a search over the postings.
 *
 * <p>Plain arrays were measured against postings bit-packed in groups of 16 (doc deltas, fields, frequencies, each
 * with its own width, as Lucene packs its blocks): packing took a dense term from 8 bytes an entry to under 2, but
 * decoding cost more than the memory it saved, at 100k and at 1M documents alike (the two builds side by side in one
 * JVM: 0.88× against 1.15× Lucene's p50 at 1M). See docs/benchmarks.md, "At scale".
 *
 * <p>Read through {@link Cursor}s. Not thread-safe: the index's lock guards it, writes (under the write lock) with
 * {@link #add} and {@link #compact}, cursors under the read lock.
 */
final class Postings {

    static final int FIELD_SHIFT = 24;
    static final int TF_MASK = (1 << FIELD_SHIFT) - 1;
    static final int MAX_FIELDS = 256;

    /** The doc of an exhausted cursor. */
    static final int NO_MORE_DOCS = Integer.MAX_VALUE;

    static final int GROUP_SHIFT = 4;
    /** Entries per group of the skip list. */
    static final int GROUP_SIZE = 1 << GROUP_SHIFT;

    private static final int[] NONE = new int[0];

    private int[] docs = new int[2];
    private int[] fieldTf = new int[2];
    private int size;
    private int[] groupLast = NONE; // per full group of GROUP_SIZE entries, its last doc: the skip list

    /** The number of entries. */
    int size() {
        return size;
    }

    /** The doc of the last entry, or -1 when there is none. */
    int lastDoc() {
        return size == 0 ? -1 : docs[size - 1];
    }

    /** The bytes of its arrays (headers excluded). */
    long arrayBytes() {
        return 4L * docs.length + 4L * fieldTf.length + 4L * groupLast.length;
    }

    /**
     * Appends an entry.
     *
     * @throws IllegalArgumentException if {@code doc} is before the last entry's, or the field is out of range
     */
    void add(int doc, int field, int tf) {
        if (doc < lastDoc() || doc < 0) {
            throw new IllegalArgumentException("postings must grow in doc order: doc " + doc + " after " + lastDoc());
        }
        if (field < 0 || field >= MAX_FIELDS) {
            throw new IllegalArgumentException("field ordinal " + field + " is out of [0, " + MAX_FIELDS + ")");
        }
        if (size == docs.length) {
            int capacity = size + (size >> 1) + 2;
            docs = Arrays.copyOf(docs, capacity);
            fieldTf = Arrays.copyOf(fieldTf, capacity);
        }
        docs[size] = doc;
        fieldTf[size] = (field << FIELD_SHIFT) | Math.max(0, Math.min(tf, TF_MASK));
        size++;
        if ((size & (GROUP_SIZE - 1)) == 0) {
            int g = (size >>> GROUP_SHIFT) - 1;
            if (g == groupLast.length) {
                groupLast = Arrays.copyOf(groupLast, g + (g >> 1) + 2);
            }
            groupLast[g] = doc;
        }
    }

    /** Copies every entry's doc into {@code docsOut} and its packed field and frequency into {@code fieldTfOut}. */
    void copyTo(int[] docsOut, int[] fieldTfOut) {
        System.arraycopy(docs, 0, docsOut, 0, size);
        System.arraycopy(fieldTf, 0, fieldTfOut, 0, size);
    }

    /**
     * Postings of the first {@code size} entries of {@code docs} and {@code fieldTf} (packed as {@link #add} packs
     * them), copied at their exact size: a saved index's, read back. The caller has checked that the docs are sorted
     * and the fields below {@link #MAX_FIELDS}.
     */
    static Postings of(int[] docs, int[] fieldTf, int size) {
        Postings p = new Postings();
        p.docs = Arrays.copyOf(docs, size);
        p.fieldTf = Arrays.copyOf(fieldTf, size);
        p.size = size;
        p.rebuildSkipList();
        return p;
    }

    /** Drops entries of deleted docs and renumbers the rest with {@code newOrdinal} (-1 = deleted), in place. */
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
        rebuildSkipList();
    }

    /** Sets the skip list from the docs: the last doc of every full group. */
    private void rebuildSkipList() {
        int groups = size >>> GROUP_SHIFT;
        groupLast = groups == 0 ? NONE : new int[groups];
        for (int g = 0; g < groups; g++) {
            groupLast[g] = docs[((g + 1) << GROUP_SHIFT) - 1];
        }
    }

    /** A cursor before the first entry; valid while the postings do not change. */
    Cursor cursor() {
        return new Cursor(this);
    }

    /**
     * Walks the postings forward, entry by entry ({@link #next}) or by skipping to a doc ({@link #advance}), decoding
     * one group at a time. Before the first {@code next} or {@code advance} its doc is -1; once past the last entry,
     * {@link #NO_MORE_DOCS}. Not thread-safe: one per search and term.
     */
    /**
     * Walks the postings forward, entry by entry ({@link #next}) or by skipping to a doc ({@link #advance}). Before
     * the first {@code next} or {@code advance} its doc is -1; once past the last entry, {@link #NO_MORE_DOCS}. Not
     * thread-safe: one per search and term.
     */
    static final class Cursor {

        /** Groups looked at one by one, from the cursor's, before {@link #advance} binary-searches the skip list. */
        private static final int NEAR_GROUPS = 4;

        private final int[] docs;
        private final int[] fieldTf;
        private final int[] groupLast;
        private final int groups;
        private final int size;
        private int entry = -1;
        private int doc = -1;

        private Cursor(Postings p) {
            docs = p.docs;
            fieldTf = p.fieldTf;
            groupLast = p.groupLast;
            size = p.size;
            groups = size >>> GROUP_SHIFT;
        }

        /** The current entry's doc: -1 before the first, {@link #NO_MORE_DOCS} after the last. */
        int doc() {
            return doc;
        }

        /** The index of the current entry among the postings. */
        int entry() {
            return entry;
        }

        /** The current entry's field ordinal and frequency, packed as {@code field << FIELD_SHIFT | tf}. */
        int fieldTf() {
            return fieldTf[entry];
        }

        /** Moves to the next entry and returns its doc, or {@link #NO_MORE_DOCS}. */
        int next() {
            int e = ++entry;
            if (e >= size) {
                entry = size;
                return doc = NO_MORE_DOCS;
            }
            return doc = docs[e];
        }

        /**
         * Moves to the first entry at or after the current one whose doc is at least {@code target}, and returns its
         * doc ({@link #NO_MORE_DOCS} when there is none): the next {@link #NEAR_GROUPS} groups' last docs, then the
         * rest of the skip list by binary search, locate the group, which is then scanned.
         */
        int advance(int target) {
            if (doc >= target) {
                return doc;
            }
            int e = entry + 1;
            int g = e >>> GROUP_SHIFT;
            if (g >= groups) {
                return scan(e, target);
            }
            int near = Math.min(groups, g + NEAR_GROUPS);
            while (g < near && groupLast[g] < target) {
                g++;
            }
            if (g == near && g < groups) {
                int lo = g;
                int hi = groups;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (groupLast[mid] < target) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                g = lo;
            }
            return scan(Math.max(e, g << GROUP_SHIFT), target);
        }

        private int scan(int from, int target) {
            int e = from;
            while (e < size && docs[e] < target) {
                e++;
            }
            entry = e;
            return doc = e < size ? docs[e] : NO_MORE_DOCS;
        }
    }
}
