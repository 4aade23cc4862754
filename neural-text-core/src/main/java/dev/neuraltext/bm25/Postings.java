package dev.neuraltext.bm25;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The postings of one term: entries of (doc ordinal, field ordinal, term frequency) sorted by doc ordinal, a document
 * with the term in several fields having consecutive entries. Compressed as Lucene compresses its postings, in groups
 * of {@link #GROUP_SIZE} entries, each bit-packed with its own widths: the doc deltas (from the previous entry, so 0
 * between the entries of one document), the field ordinals, and the term frequencies. Per group its last doc and its
 * byte offset stay unpacked: the skip list that {@link Cursor#advance} searches. The entries after the last full group
 * wait unpacked in a short tail. A term in many documents thus takes one to two bytes per entry instead of eight, so
 * that the postings a search reads stay in the processor's caches at a million documents.
 *
 * <p>Read through {@link Cursor}s, which decode one group at a time: the doc ordinals of a group when the cursor
 * enters it, a field and frequency only when asked for. Not thread-safe: the index's lock guards it, writes (under the
 * write lock) with {@link #add} and {@link #compact}, cursors under the read lock.
 */
final class Postings {

    static final int FIELD_SHIFT = 24;
    static final int TF_MASK = (1 << FIELD_SHIFT) - 1;
    static final int MAX_FIELDS = 256;

    /** The doc of an exhausted cursor. */
    static final int NO_MORE_DOCS = Integer.MAX_VALUE;

    static final int GROUP_SHIFT = 4;
    /** Entries per packed group. */
    static final int GROUP_SIZE = 1 << GROUP_SHIFT;

    /** A group starts with three bytes: the bit widths of its doc deltas, its field ordinals and its frequencies. */
    private static final int HEADER = 3;
    /** Bytes after the last group, so that reading a value as a little-endian long never leaves the array. */
    private static final int PADDING = Long.BYTES;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte[] EMPTY = new byte[PADDING];
    private static final int[] NONE = new int[0];

    private byte[] data = EMPTY; // the packed groups, then PADDING bytes
    private int dataSize; // bytes of data in use, padding excluded
    private int[] groupLast = NONE; // per packed group, the doc of its last entry
    private int[] groupOffset = NONE; // per packed group, its byte offset in data
    private int packed; // entries in packed groups: a multiple of GROUP_SIZE
    private int[] tail; // the unpacked entries: tail[2k] the doc, tail[2k + 1] field << FIELD_SHIFT | tf
    private int tailSize; // entries in the tail, fewer than GROUP_SIZE

    Postings() {
        tail = new int[4];
    }

    /** The number of entries. */
    int size() {
        return packed + tailSize;
    }

    /** The doc of the last entry, or -1 when there is none. */
    int lastDoc() {
        if (tailSize > 0) {
            return tail[2 * tailSize - 2];
        }
        return packed == 0 ? -1 : groupLast[(packed >>> GROUP_SHIFT) - 1];
    }

    /** The bytes of its arrays (headers excluded): packed groups, skip list and tail. */
    long packedBytes() {
        return data.length + 4L * groupLast.length + 4L * groupOffset.length + 4L * tail.length;
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
        if (2 * tailSize == tail.length) {
            tail = Arrays.copyOf(tail, Math.min(2 * GROUP_SIZE, 2 * tail.length));
        }
        tail[2 * tailSize] = doc;
        tail[2 * tailSize + 1] = (field << FIELD_SHIFT) | Math.max(0, Math.min(tf, TF_MASK));
        if (++tailSize == GROUP_SIZE) {
            pack();
        }
    }

    /** Packs the full tail into a group. */
    private void pack() {
        int groups = packed >>> GROUP_SHIFT;
        int doc = groups == 0 ? 0 : groupLast[groups - 1];
        int deltas = 0;
        int fields = 0;
        int tfs = 0;
        for (int k = 0; k < GROUP_SIZE; k++) {
            deltas |= tail[2 * k] - doc;
            doc = tail[2 * k];
            fields |= tail[2 * k + 1] >>> FIELD_SHIFT;
            tfs |= tail[2 * k + 1] & TF_MASK;
        }
        int db = bits(deltas);
        int fb = bits(fields);
        int tb = bits(tfs);
        int bytes = HEADER + (GROUP_SIZE * (db + fb + tb) + 7) / 8;
        if (dataSize + bytes + PADDING > data.length) {
            long capacity = Math.max(dataSize + bytes + PADDING, (long) data.length + (data.length >> 1) + 64);
            if (capacity > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("the postings of one term outgrew 2 GB");
            }
            data = Arrays.copyOf(data, (int) capacity);
        }
        if (groups == groupLast.length) {
            int capacity = groups + (groups >> 1) + 2;
            groupLast = Arrays.copyOf(groupLast, capacity);
            groupOffset = Arrays.copyOf(groupOffset, capacity);
        }
        int o = dataSize;
        data[o] = (byte) db;
        data[o + 1] = (byte) fb;
        data[o + 2] = (byte) tb;
        int w = o + HEADER;
        long acc = 0;
        int accBits = 0;
        int prev = groups == 0 ? 0 : groupLast[groups - 1];
        for (int stream = 0; stream < 3; stream++) {
            int width = stream == 0 ? db : stream == 1 ? fb : tb;
            for (int k = 0; k < GROUP_SIZE && width > 0; k++) {
                int value = switch (stream) {
                    case 0 -> tail[2 * k] - (k == 0 ? prev : tail[2 * k - 2]);
                    case 1 -> tail[2 * k + 1] >>> FIELD_SHIFT;
                    default -> tail[2 * k + 1] & TF_MASK;
                };
                acc |= (value & 0xFFFFFFFFL) << accBits;
                accBits += width;
                while (accBits >= 8) {
                    data[w++] = (byte) acc;
                    acc >>>= 8;
                    accBits -= 8;
                }
            }
        }
        if (accBits > 0) {
            data[w++] = (byte) acc;
        }
        groupLast[groups] = tail[2 * GROUP_SIZE - 2];
        groupOffset[groups] = o;
        dataSize = w;
        packed += GROUP_SIZE;
        tailSize = 0;
    }

    private static int bits(int orOfValues) {
        return Integer.SIZE - Integer.numberOfLeadingZeros(orOfValues);
    }

    /** The {@code width}-bit value at bit {@code bit} after byte {@code base} of {@code data}. */
    private static int read(byte[] data, int base, int bit, int width) {
        long word = (long) LONG.get(data, base + (bit >>> 3));
        return (int) ((word >>> (bit & 7)) & ((1L << width) - 1));
    }

    /** Copies every entry's doc into {@code docs} and its packed field and frequency into {@code fieldTf}. */
    void copyTo(int[] docs, int[] fieldTf) {
        Cursor c = cursor();
        for (int i = 0, doc = c.next(); doc != NO_MORE_DOCS; i++, doc = c.next()) {
            docs[i] = doc;
            fieldTf[i] = c.fieldTf();
        }
    }

    /** Drops entries of deleted docs and renumbers the rest with {@code newOrdinal} (-1 = deleted). */
    void compact(int[] newOrdinal) {
        int n = size();
        int[] docs = new int[n];
        int[] fieldTf = new int[n];
        copyTo(docs, fieldTf);
        data = EMPTY;
        dataSize = 0;
        groupLast = NONE;
        groupOffset = NONE;
        packed = 0;
        tailSize = 0;
        tail = new int[4];
        for (int i = 0; i < n; i++) {
            int nd = newOrdinal[docs[i]];
            if (nd >= 0) {
                add(nd, fieldTf[i] >>> FIELD_SHIFT, fieldTf[i] & TF_MASK);
            }
        }
        trim();
    }

    /** Gives back the spare capacity of the packed arrays (after a bulk load or a compaction). */
    void trim() {
        if (data.length > dataSize + PADDING) {
            data = Arrays.copyOf(data, dataSize + PADDING);
        }
        int groups = packed >>> GROUP_SHIFT;
        if (groupLast.length > groups) {
            groupLast = Arrays.copyOf(groupLast, groups);
            groupOffset = Arrays.copyOf(groupOffset, groups);
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
    static final class Cursor {

        /** Groups looked at one by one, from the cursor's, before {@link #advance} binary-searches the skip list. */
        private static final int NEAR_GROUPS = 4;

        private final byte[] data;
        private final int[] groupLast;
        private final int[] groupOffset;
        private final int groups;
        private final int packed;
        private final int[] tail;
        private final int size;
        private final int[] docs = new int[GROUP_SIZE]; // the decoded doc ordinals of the current group
        private int entry = -1;
        private int doc = -1;
        private int base; // the current group's first value byte
        private int fieldBit; // where its field ordinals start, in bits after base
        private int tfBit; // where its frequencies start
        private int fieldBits;
        private int tfBits;

        private Cursor(Postings p) {
            data = p.data;
            groupLast = p.groupLast;
            groupOffset = p.groupOffset;
            packed = p.packed;
            groups = packed >>> GROUP_SHIFT;
            tail = p.tail;
            size = p.size();
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
            if (entry >= packed) {
                return tail[2 * (entry - packed) + 1];
            }
            int k = entry & (GROUP_SIZE - 1);
            return read(data, base, fieldBit + k * fieldBits, fieldBits) << FIELD_SHIFT
                    | read(data, base, tfBit + k * tfBits, tfBits);
        }

        /** Moves to the next entry and returns its doc, or {@link #NO_MORE_DOCS}. */
        int next() {
            int e = ++entry;
            if (e >= size) {
                entry = size;
                return doc = NO_MORE_DOCS;
            }
            if (e >= packed) {
                return doc = tail[2 * (e - packed)];
            }
            int k = e & (GROUP_SIZE - 1);
            if (k == 0) {
                decode(e >>> GROUP_SHIFT);
            }
            return doc = docs[k];
        }

        /**
         * Moves to the first entry at or after the current one whose doc is at least {@code target}, and returns its
         * doc ({@link #NO_MORE_DOCS} when there is none). A target in the current group is scanned to; otherwise the
         * next {@link #NEAR_GROUPS} groups' last docs, then the rest by binary search, locate the group, which alone is
         * decoded.
         */
        int advance(int target) {
            if (doc >= target) {
                return doc;
            }
            int e = entry;
            int g;
            if (e >= packed) { // in the tail, or before it with no group left to skip
                return scanTail(Math.max(e + 1, packed), target);
            }
            if (e >= 0 && groupLast[g = e >>> GROUP_SHIFT] >= target) {
                int k = (e & (GROUP_SIZE - 1)) + 1;
                while (docs[k] < target) {
                    k++;
                }
                entry = (g << GROUP_SHIFT) + k;
                return doc = docs[k];
            }
            g = e < 0 ? 0 : (e >>> GROUP_SHIFT) + 1;
            int near = Math.min(groups, g + NEAR_GROUPS);
            while (g < near && groupLast[g] < target) {
                g++;
            }
            if (g == near && g < groups) {
                g = firstGroupEndingAtOrAfter(g, target);
            }
            if (g == groups) {
                return scanTail(packed, target);
            }
            decode(g);
            int k = 0;
            while (docs[k] < target) {
                k++;
            }
            entry = (g << GROUP_SHIFT) + k;
            return doc = docs[k];
        }

        private int scanTail(int from, int target) {
            int e = from;
            while (e < size && tail[2 * (e - packed)] < target) {
                e++;
            }
            entry = e;
            return doc = e < size ? tail[2 * (e - packed)] : NO_MORE_DOCS;
        }

        /** The first group at or after {@code from} whose last doc is at least {@code target}, or {@code groups}. */
        private int firstGroupEndingAtOrAfter(int from, int target) {
            int lo = from;
            int hi = groups;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (groupLast[mid] < target) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        private void decode(int g) {
            int o = groupOffset[g];
            int docBits = data[o];
            fieldBits = data[o + 1];
            tfBits = data[o + 2];
            base = o + HEADER;
            fieldBit = GROUP_SIZE * docBits;
            tfBit = fieldBit + GROUP_SIZE * fieldBits;
            int d = g == 0 ? 0 : groupLast[g - 1];
            if (docBits == 0) {
                Arrays.fill(docs, d);
                return;
            }
            for (int k = 0; k < GROUP_SIZE; k++) {
                d += read(data, base, k * docBits, docBits);
                docs[k] = d;
            }
        }
    }
}
