package dev.neuraltext.bm25;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The state of a {@link Bm25Index}: the term dictionary, one {@link Postings} per term, document frequencies, per-field
 * lengths and their sums, and the doc-ordinal-to-id table. Knows nothing of scoring ({@link Bm25FScorer}) or
 * searching ({@link Bm25Search}). Deleted documents leave a hole (a null id) until they make up half the ordinals,
 * when {@link #add} and {@link #remove} compact the postings.
 *
 * <p>Not thread-safe: {@link Bm25Index} guards it with its read-write lock.
 */
final class InvertedIndex {

    private final Map<String, Double> weights;
    private final Map<String, Double> bs;
    private final double defaultB;

    private final HashMap<String, Integer> termIds = new HashMap<>();
    private final ArrayList<Postings> postings = new ArrayList<>();
    private int[] df = new int[64];
    private int[] lastDoc = new int[64]; // 1 + the last doc ordinal that counted the term in df (add() only)
    // per term, its tf~ bounds at some version; written by searches under the read lock
    private TermBound[] bounds = new TermBound[64];

    private final HashMap<String, Integer> fieldIds = new HashMap<>();
    private final ArrayList<String> fieldNames = new ArrayList<>();
    private double[] fieldW = new double[4];
    private double[] fieldB = new double[4];
    private int[][] fieldLen = new int[4][];
    private byte[][] fieldShortLen = new byte[4][]; // FieldScoring.shortLength of fieldLen, what searches read
    private long[] fieldLenSum = new long[4];
    private int[] fieldDocCount = new int[4];

    private final HashMap<String, Integer> idToDoc = new HashMap<>();
    private String[] docIds = new String[64];
    private long[] liveBits = new long[1]; // bit d: docIds[d] != null (what searches test: 1 bit, not a reference)
    private byte[][] docTerms = new byte[64][]; // per doc its distinct terms, for delete: see TermSet
    private int maxDoc;
    private int live;
    private long version;
    private FieldScoring scoring; // of some version; written by searches under the read lock

    InvertedIndex(Map<String, Double> weights, Map<String, Double> bs, double defaultB) {
        this.weights = weights;
        this.bs = bs;
        this.defaultB = defaultB;
    }

    // ------------------------------------------------------------------ reads

    /** The number of live documents ({@code N}). */
    int live() {
        return live;
    }

    /** One past the highest doc ordinal in use (deleted ones included). */
    int maxDoc() {
        return maxDoc;
    }

    /** Counts every change, so that statistics derived from this state can tell when they are stale. */
    long version() {
        return version;
    }

    /** The ordinal of term {@code term}, or -1 when no live document has it. */
    int term(String term) {
        Integer t = termIds.get(term);
        return t == null || df[t] == 0 ? -1 : t;
    }

    int df(int term) {
        return df[term];
    }

    Postings postings(int term) {
        return postings.get(term);
    }

    /** The ordinal of document {@code id}, or -1. */
    int doc(String id) {
        Integer d = idToDoc.get(id);
        return d == null ? -1 : d;
    }

    /** The id at a doc ordinal, or null for a deleted document. */
    String id(int doc) {
        return docIds[doc];
    }

    /** Whether the document at a doc ordinal is live (not deleted). */
    boolean isLive(int doc) {
        return (liveBits[doc >>> 6] & (1L << doc)) != 0;
    }

    private void setLive(int doc, boolean isLive) {
        if (isLive) {
            liveBits[doc >>> 6] |= 1L << doc;
        } else {
            liveBits[doc >>> 6] &= ~(1L << doc);
        }
    }

    boolean contains(String id) {
        return idToDoc.containsKey(id);
    }

    int fieldCount() {
        return fieldNames.size();
    }

    String fieldName(int field) {
        return fieldNames.get(field);
    }

    double fieldWeight(int field) {
        return fieldW[field];
    }

    double fieldB(int field) {
        return fieldB[field];
    }

    /** The field's length in terms in document {@code doc} (0 when the document lacks the field). */
    int fieldLength(int field, int doc) {
        return fieldLen[field][doc];
    }

    /** The per-doc lengths of a field, indexed by doc ordinal (read-only for callers). */
    int[] fieldLengths(int field) {
        return fieldLen[field];
    }

    /** The field's average length over the documents that have it; 1 when none has it. */
    double averageLength(int field) {
        return fieldDocCount[field] == 0 ? 1.0 : (double) fieldLenSum[field] / fieldDocCount[field];
    }

    /**
     * The per-field parameters of scoring at the current statistics: weights, b, length factors, lengths and norms.
     * Computed on the first search after a change and cached; searches racing to compute it compute the same value,
     * and the record's final fields publish it whole.
     */
    FieldScoring fieldScoring() {
        FieldScoring cached = scoring;
        if (cached != null && cached.version() == version) {
            return cached;
        }
        int fields = fieldNames.size();
        double[] w = new double[fields];
        double[] b = new double[fields];
        double[] lengthFactor = new double[fields];
        int[][] lengths = new int[fields][];
        byte[][] shortLengths = new byte[fields][];
        double[][] norm = new double[fields][FieldScoring.LONG_LENGTH];
        for (int f = 0; f < fields; f++) {
            w[f] = fieldW[f];
            b[f] = fieldB[f];
            lengthFactor[f] = Bm25FScorer.lengthFactor(b[f], averageLength(f));
            lengths[f] = fieldLen[f];
            shortLengths[f] = fieldShortLen[f];
            for (int l = 0; l < FieldScoring.LONG_LENGTH; l++) {
                norm[f][l] = Bm25FScorer.fieldNorm(w[f], b[f], lengthFactor[f], l);
            }
        }
        cached = new FieldScoring(version, w, b, lengthFactor, lengths, shortLengths, norm);
        scoring = cached;
        return cached;
    }

    /** Posting entries per block of bounds: {@code 1 << BLOCK_SHIFT}, eight groups of the postings' skip list. */
    static final int BLOCK_SHIFT = 7;
    static final int BLOCK_SIZE = 1 << BLOCK_SHIFT;

    /** Blocks per superblock ({@code 1 << SUPER_SHIFT}): the second level of the bounds, for wide windows. */
    static final int SUPER_SHIFT = 3;

    /**
     * The bounds of {@code term}'s {@code tf~} over its postings (deleted documents included, so they bound the live
     * ones), with {@code fields} taken at the current version: the largest overall, and for postings of at least
     * {@link #BLOCK_SIZE} entries the largest in each block of {@code BLOCK_SIZE} entries, as Lucene keeps per-block
     * impacts. Computed on the first search after a change and cached per term; searches holding the read lock may
     * race to compute it, which is harmless: they compute the same value, and a {@link TermBound} is immutable, so a
     * reader sees either a whole old bound (stale, recomputed) or a whole new one.
     */
    TermBound bound(int term, FieldScoring fields) {
        TermBound bound = bounds[term];
        if (bound != null && bound.version() == version) {
            return bound;
        }
        bound = boundOf(postings.get(term), fields);
        bounds[term] = bound;
        return bound;
    }

    /** The bounds of postings {@code p} at this version; see {@link #bound}. */
    TermBound boundOf(Postings p, FieldScoring fields) {
        int size = p.size();
        boolean blocked = size >= BLOCK_SIZE;
        int blocks = blocked ? ((size - 1) >>> BLOCK_SHIFT) + 1 : 0;
        int[] blockLast = blocked ? new int[blocks] : null;
        float[] blockMax = blocked ? new float[blocks] : null;
        double max = 0;
        Postings.Cursor c = p.cursor();
        int doc = c.next();
        while (doc != Postings.NO_MORE_DOCS) {
            int first = c.entry();
            int d = doc;
            double tf = 0;
            do {
                tf += fields.tf(c.fieldTf(), d);
                doc = c.next();
            } while (doc == d);
            max = Math.max(max, tf);
            if (blocked) {
                float up = (float) tf;
                if (up < tf) {
                    up = Math.nextUp(up); // rounded up: still a bound
                }
                // a document whose entries straddle two blocks counts whole in both
                int last = c.entry() - 1;
                for (int b = first >>> BLOCK_SHIFT; b <= last >>> BLOCK_SHIFT; b++) {
                    blockMax[b] = Math.max(blockMax[b], up);
                    blockLast[b] = d;
                }
            }
        }
        if (!blocked) {
            return new TermBound(version, max, 0, null, null, null, null);
        }
        int supers = ((blocks - 1) >>> SUPER_SHIFT) + 1;
        int[] superLast = new int[supers];
        float[] superMax = new float[supers];
        for (int b = 0; b < blocks; b++) {
            superLast[b >>> SUPER_SHIFT] = blockLast[b];
            superMax[b >>> SUPER_SHIFT] = Math.max(superMax[b >>> SUPER_SHIFT], blockMax[b]);
        }
        return new TermBound(version, max, blocks, blockLast, blockMax, superLast, superMax);
    }

    /**
     * A term's cached {@code tf~} bounds and the version they were computed at.
     *
     * @param maxTfTilde the largest {@code tf~} of any of its postings
     * @param blocks     the number of blocks of {@link #BLOCK_SIZE} entries; 0 for short postings (then the arrays are
     *                   null)
     * @param blockLast  per block, the doc of its last entry (non-decreasing: a document whose entries straddle two
     *                   blocks is the last of one and the first of the next); block {@code b} holds the documents from
     *                   {@code blockLast[b - 1]} to {@code blockLast[b]}
     * @param blockMax   per block, a float at least the largest {@code tf~} of a document with an entry in it
     * @param superLast  per superblock of {@code 1 << SUPER_SHIFT} blocks, the last doc of its last block
     * @param superMax   per superblock, the largest {@code blockMax} of its blocks: a window spanning thousands of
     *                   documents is bounded, and skipped, a superblock at a time
     */
    record TermBound(long version, double maxTfTilde, int blocks, int[] blockLast, float[] blockMax, int[] superLast,
            float[] superMax) {
    }

    // ------------------------------------------------------------------ persistence

    /**
     * Writes the whole state (fields and their length statistics, the doc table with its holes, each document's term
     * set, and per term its postings) for {@link #read}; numbers are big-endian, strings {@code int length + UTF-8},
     * a deleted document's id is length -1.
     */
    void write(DataOutput out) throws IOException {
        int fields = fieldNames.size();
        out.writeInt(fields);
        for (int f = 0; f < fields; f++) {
            writeString(out, fieldNames.get(f));
            out.writeLong(fieldLenSum[f]);
            out.writeInt(fieldDocCount[f]);
        }
        out.writeInt(maxDoc);
        out.writeInt(live);
        for (int d = 0; d < maxDoc; d++) {
            if (docIds[d] == null) {
                out.writeInt(-1);
            } else {
                writeString(out, docIds[d]);
            }
        }
        for (int f = 0; f < fields; f++) {
            writeInts(out, fieldLen[f], maxDoc);
        }
        for (int d = 0; d < maxDoc; d++) {
            byte[] t = docTerms[d];
            out.writeInt(t == null ? 0 : t.length);
            if (t != null) {
                out.write(t);
            }
        }
        out.writeInt(postings.size());
        String[] terms = new String[postings.size()];
        termIds.forEach((term, t) -> terms[t] = term);
        int[] docs = new int[1024]; // one term's postings, copied out for writing
        int[] fieldTf = new int[docs.length];
        for (int t = 0; t < terms.length; t++) {
            Postings p = postings.get(t);
            writeString(out, terms[t]);
            out.writeInt(df[t]);
            int size = p.size();
            if (size > docs.length) {
                docs = new int[Math.max(size, 2 * docs.length)];
                fieldTf = new int[docs.length];
            }
            p.copyTo(docs, fieldTf);
            out.writeInt(size);
            writeInts(out, docs, size);
            writeInts(out, fieldTf, size);
        }
    }

    /**
     * Replaces this empty index's state by one {@link #write} wrote, taking each document id through {@code ids} (so
     * that the caller can share its own instances).
     *
     * @throws IllegalStateException    if this index is not empty
     * @throws IllegalArgumentException if the data is inconsistent (a count out of range)
     */
    void read(DataInput in, UnaryOperator<String> ids) throws IOException {
        if (maxDoc != 0 || !postings.isEmpty()) {
            throw new IllegalStateException("reading a saved BM25 index needs an empty index");
        }
        int fields = count(in.readInt(), Postings.MAX_FIELDS, "fields");
        for (int f = 0; f < fields; f++) {
            int ordinal = fieldOrdinal(readString(in));
            fieldLenSum[ordinal] = in.readLong();
            fieldDocCount[ordinal] = in.readInt();
        }
        int docs = count(in.readInt(), Integer.MAX_VALUE - 8, "documents");
        live = count(in.readInt(), docs, "live documents");
        growDocs(Math.max(64, docs));
        int liveSeen = 0;
        for (int d = 0; d < docs; d++) {
            int n = in.readInt();
            if (n >= 0) {
                String id = ids.apply(readString(in, n));
                docIds[d] = id;
                setLive(d, true);
                idToDoc.put(id, d);
                liveSeen++;
            }
        }
        if (liveSeen != live || idToDoc.size() != live) {
            throw new IllegalArgumentException("the saved BM25 index has " + liveSeen + " documents with distinct ids "
                    + idToDoc.size() + " but says " + live);
        }
        maxDoc = docs;
        for (int f = 0; f < fields; f++) {
            readInts(in, fieldLen[f], docs);
            for (int d = 0; d < docs; d++) {
                setFieldLength(f, d, fieldLen[f][d]);
            }
        }
        for (int d = 0; d < docs; d++) {
            int n = count(in.readInt(), 1 << 28, "term set bytes");
            if (docIds[d] != null) {
                docTerms[d] = new byte[n];
                in.readFully(docTerms[d]);
            } else {
                in.skipBytes(n);
            }
        }
        int terms = count(in.readInt(), Integer.MAX_VALUE - 8, "terms");
        df = new int[Math.max(64, terms)];
        lastDoc = new int[df.length];
        bounds = new TermBound[df.length];
        postings.ensureCapacity(terms);
        int[] docIds = new int[1024];
        int[] fieldTf = new int[docIds.length];
        for (int t = 0; t < terms; t++) {
            String term = readString(in);
            if (termIds.put(term, t) != null) {
                throw new IllegalArgumentException("the saved BM25 index lists term '" + term + "' twice");
            }
            df[t] = count(in.readInt(), live, "document frequency");
            int size = count(in.readInt(), Integer.MAX_VALUE - 8, "postings");
            if (size > docIds.length) {
                docIds = new int[Math.max(size, 2 * docIds.length)];
                fieldTf = new int[docIds.length];
            }
            readInts(in, docIds, size);
            readInts(in, fieldTf, size);
            for (int i = 0; i < size; i++) {
                if (docIds[i] < 0 || docIds[i] >= docs || (i > 0 && docIds[i] < docIds[i - 1])
                        || fieldTf[i] >>> Postings.FIELD_SHIFT >= fields) {
                    throw new IllegalArgumentException("the saved postings of '" + term
                            + "' are out of order or name a field the index lacks");
                }
            }
            postings.add(Postings.of(docIds, fieldTf, size));
        }
        version++;
    }

    private static int count(int n, int max, String what) {
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("the saved BM25 index has " + n + " " + what + ", out of [0, " + max + "]");
        }
        return n;
    }

    private static void writeString(DataOutput out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInput in) throws IOException {
        return readString(in, count(in.readInt(), 1 << 28, "string bytes"));
    }

    private static String readString(DataInput in, int length) throws IOException {
        byte[] b = new byte[count(length, 1 << 28, "string bytes")];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static final int IO_INTS = 1 << 14;

    /** Writes {@code ints[0..n)} big-endian, in bulk. */
    private static void writeInts(DataOutput out, int[] ints, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(IO_INTS * Integer.BYTES);
        for (int i = 0; i < n; i += IO_INTS) {
            int len = Math.min(IO_INTS, n - i);
            buf.clear();
            buf.asIntBuffer().put(ints, i, len);
            out.write(buf.array(), 0, len * Integer.BYTES);
        }
    }

    /** Reads {@code n} big-endian ints into {@code ints[0..n)}, in bulk. */
    private static void readInts(DataInput in, int[] ints, int n) throws IOException {
        byte[] bytes = new byte[Math.min(n, IO_INTS) * Integer.BYTES];
        for (int i = 0; i < n; i += IO_INTS) {
            int len = Math.min(IO_INTS, n - i);
            in.readFully(bytes, 0, len * Integer.BYTES);
            ByteBuffer.wrap(bytes, 0, len * Integer.BYTES).asIntBuffer().get(ints, i, len);
        }
    }

    // ------------------------------------------------------------------ writes

    /** Adds or replaces a document. */
    void upsert(AnalyzedDocument document) {
        Integer old = idToDoc.remove(document.id());
        if (old != null) {
            remove(old);
        }
        add(document);
        version++;
    }

    /** Deletes {@code id}; returns whether it was present. */
    boolean delete(String id) {
        Integer doc = idToDoc.remove(id);
        if (doc == null) {
            return false;
        }
        remove(doc);
        version++;
        maybeCompact();
        return true;
    }

    /** Compacts when deleted documents make up half the ordinals; call after a batch of upserts. */
    void maybeCompact() {
        int deleted = maxDoc - live;
        if (deleted < 64 || deleted * 2 < maxDoc) {
            return;
        }
        int[] newOrd = new int[maxDoc];
        int next = 0;
        for (int d = 0; d < maxDoc; d++) {
            newOrd[d] = docIds[d] == null ? -1 : next++;
        }
        for (Postings p : postings) {
            p.compact(newOrd);
        }
        for (int d = 0; d < maxDoc; d++) {
            int nd = newOrd[d];
            if (nd >= 0 && nd != d) {
                docIds[nd] = docIds[d];
                setLive(nd, true);
                docTerms[nd] = docTerms[d];
                for (int f = 0; f < fieldNames.size(); f++) {
                    setFieldLength(f, nd, fieldLen[f][d]);
                }
                idToDoc.put(docIds[nd], nd);
            }
        }
        for (int d = next; d < maxDoc; d++) {
            docIds[d] = null;
            setLive(d, false);
            docTerms[d] = null;
            for (int f = 0; f < fieldNames.size(); f++) {
                setFieldLength(f, d, 0);
            }
        }
        maxDoc = next;
        version++;
        Arrays.fill(lastDoc, 0); // doc ordinals are reused from here on
    }

    private void add(AnalyzedDocument p) {
        int[] fieldOrd = new int[p.fields().length];
        for (int k = 0; k < fieldOrd.length; k++) {
            fieldOrd[k] = fieldOrdinal(p.fields()[k]);
        }
        if (maxDoc == docIds.length) {
            growDocs(maxDoc * 2);
        }
        int doc = maxDoc++;
        docIds[doc] = p.id();
        setLive(doc, true);
        idToDoc.put(p.id(), doc);
        live++;
        // the whole document is added under the lock, so each term's entries for this doc stay consecutive
        int[] distinct = new int[16];
        int distinctCount = 0;
        for (int k = 0; k < fieldOrd.length; k++) {
            int f = fieldOrd[k];
            if (p.lengths()[k] > 0) {
                setFieldLength(f, doc, p.lengths()[k]);
                fieldLenSum[f] += p.lengths()[k];
                fieldDocCount[f]++;
            }
            String[] terms = p.terms()[k];
            int[] tfs = p.tfs()[k];
            for (int j = 0; j < terms.length; j++) {
                int term = termOrdinal(terms[j]);
                postings.get(term).add(doc, f, tfs[j]);
                if (lastDoc[term] != doc + 1) { // first field of this doc with the term
                    lastDoc[term] = doc + 1;
                    df[term]++;
                    if (distinctCount == distinct.length) {
                        distinct = Arrays.copyOf(distinct, distinctCount * 2);
                    }
                    distinct[distinctCount++] = term;
                }
            }
        }
        docTerms[doc] = TermSet.encode(distinct, distinctCount);
    }

    private void remove(int doc) {
        TermSet.forEach(docTerms[doc], term -> df[term]--);
        for (int f = 0; f < fieldNames.size(); f++) {
            int len = fieldLen[f][doc];
            if (len > 0) {
                fieldLenSum[f] -= len;
                fieldDocCount[f]--;
            }
        }
        docIds[doc] = null;
        setLive(doc, false);
        docTerms[doc] = null;
        live--;
    }

    /** Sets a document's field length, in the int table and in the byte table that searches read. */
    private void setFieldLength(int field, int doc, int length) {
        fieldLen[field][doc] = length;
        fieldShortLen[field][doc] = FieldScoring.shortLength(length);
    }

    private void growDocs(int capacity) {
        docIds = Arrays.copyOf(docIds, capacity);
        liveBits = Arrays.copyOf(liveBits, (capacity + 63) >>> 6);
        docTerms = Arrays.copyOf(docTerms, capacity);
        for (int f = 0; f < fieldNames.size(); f++) {
            fieldLen[f] = Arrays.copyOf(fieldLen[f], capacity);
            fieldShortLen[f] = Arrays.copyOf(fieldShortLen[f], capacity);
        }
    }

    private int termOrdinal(String term) {
        Integer id = termIds.get(term);
        if (id != null) {
            return id;
        }
        int t = postings.size();
        termIds.put(term, t);
        postings.add(new Postings());
        if (t == df.length) {
            df = Arrays.copyOf(df, t * 2);
            lastDoc = Arrays.copyOf(lastDoc, t * 2);
            bounds = Arrays.copyOf(bounds, t * 2);
        }
        return t;
    }

    private int fieldOrdinal(String field) {
        Integer id = fieldIds.get(field);
        if (id != null) {
            return id;
        }
        int f = fieldNames.size();
        if (f == Postings.MAX_FIELDS) {
            throw new IllegalArgumentException("at most " + Postings.MAX_FIELDS
                    + " distinct field names per index, got '" + field + "' as one more");
        }
        fieldIds.put(field, f);
        fieldNames.add(field);
        if (f == fieldW.length) {
            fieldW = Arrays.copyOf(fieldW, f * 2);
            fieldB = Arrays.copyOf(fieldB, f * 2);
            fieldLen = Arrays.copyOf(fieldLen, f * 2);
            fieldShortLen = Arrays.copyOf(fieldShortLen, f * 2);
            fieldLenSum = Arrays.copyOf(fieldLenSum, f * 2);
            fieldDocCount = Arrays.copyOf(fieldDocCount, f * 2);
        }
        fieldW[f] = weights.getOrDefault(field, 1.0);
        fieldB[f] = bs.getOrDefault(field, defaultB);
        fieldLen[f] = new int[docIds.length];
        fieldShortLen[f] = new byte[docIds.length];
        return f;
    }
}
