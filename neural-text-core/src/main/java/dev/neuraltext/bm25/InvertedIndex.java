package dev.neuraltext.bm25;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

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
    private long[] fieldLenSum = new long[4];
    private int[] fieldDocCount = new int[4];

    private final HashMap<String, Integer> idToDoc = new HashMap<>();
    private String[] docIds = new String[64];
    private byte[][] docTerms = new byte[64][]; // per doc its distinct terms, for delete: see TermSet
    private int maxDoc;
    private int live;
    private long version;

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

    /** The per-field parameters of scoring at the current statistics: weights, b, length factors and lengths. */
    FieldScoring fieldScoring() {
        int fields = fieldNames.size();
        double[] w = new double[fields];
        double[] b = new double[fields];
        double[] lengthFactor = new double[fields];
        int[][] lengths = new int[fields][];
        for (int f = 0; f < fields; f++) {
            w[f] = fieldW[f];
            b[f] = fieldB[f];
            lengthFactor[f] = Bm25FScorer.lengthFactor(b[f], averageLength(f));
            lengths[f] = fieldLen[f];
        }
        return new FieldScoring(w, b, lengthFactor, lengths);
    }

    /** Posting entries per block: a block closes at the first document boundary at or after this many entries. */
    static final int BLOCK_SIZE = 128;

    /**
     * The bounds of {@code term}'s {@code tf~} over its postings (deleted documents included, so they bound the live
     * ones), with {@code fields} taken at the current version: the largest overall, and for postings of at least
     * {@link #BLOCK_SIZE} entries the largest in each block of about {@code BLOCK_SIZE} entries, as Lucene keeps
     * per-block impacts. Computed on the first search after a change and cached per term; searches holding the read
     * lock may race to compute it, which is harmless: they compute the same value, and a {@link TermBound} is
     * immutable, so a reader sees either a whole old bound (stale, recomputed) or a whole new one.
     */
    TermBound bound(int term, FieldScoring fields) {
        TermBound bound = bounds[term];
        if (bound != null && bound.version() == version) {
            return bound;
        }
        Postings p = postings.get(term);
        boolean blocked = p.size >= BLOCK_SIZE;
        int capacity = blocked ? p.size / BLOCK_SIZE + 1 : 0;
        int[] blockLast = blocked ? new int[capacity] : null;
        float[] blockMax = blocked ? new float[capacity] : null;
        int blocks = 0;
        int blockStart = 0;
        float blockUp = 0;
        double max = 0;
        int i = 0;
        while (i < p.size) {
            int doc = p.docs[i];
            double tf = 0;
            do {
                tf += fields.tf(p.fieldTf[i], doc);
                i++;
            } while (i < p.size && p.docs[i] == doc);
            max = Math.max(max, tf);
            if (blocked) {
                float up = (float) tf;
                if (up < tf) {
                    up = Math.nextUp(up); // rounded up: still a bound
                }
                blockUp = Math.max(blockUp, up);
                if (i - blockStart >= BLOCK_SIZE || i == p.size) {
                    blockLast[blocks] = doc;
                    blockMax[blocks] = blockUp;
                    blocks++;
                    blockStart = i;
                    blockUp = 0;
                }
            }
        }
        bound = blocked ? new TermBound(version, max, blocks, Arrays.copyOf(blockLast, blocks),
                Arrays.copyOf(blockMax, blocks)) : new TermBound(version, max, 0, null, null);
        bounds[term] = bound;
        return bound;
    }

    /**
     * A term's cached {@code tf~} bounds and the version they were computed at.
     *
     * @param maxTfTilde the largest {@code tf~} of any of its postings
     * @param blocks     the number of blocks; 0 for short postings (then the arrays are null)
     * @param blockLast  per block, its last doc ordinal; block {@code b} covers the ordinals after
     *                   {@code blockLast[b - 1]} up to {@code blockLast[b]}
     * @param blockMax   per block, a float at least the largest {@code tf~} in it
     */
    record TermBound(long version, double maxTfTilde, int blocks, int[] blockLast, float[] blockMax) {
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
                docTerms[nd] = docTerms[d];
                for (int f = 0; f < fieldNames.size(); f++) {
                    fieldLen[f][nd] = fieldLen[f][d];
                }
                idToDoc.put(docIds[nd], nd);
            }
        }
        for (int d = next; d < maxDoc; d++) {
            docIds[d] = null;
            docTerms[d] = null;
            for (int f = 0; f < fieldNames.size(); f++) {
                fieldLen[f][d] = 0;
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
        idToDoc.put(p.id(), doc);
        live++;
        // the whole document is added under the lock, so each term's entries for this doc stay consecutive
        int[] distinct = new int[16];
        int distinctCount = 0;
        for (int k = 0; k < fieldOrd.length; k++) {
            int f = fieldOrd[k];
            if (p.lengths()[k] > 0) {
                fieldLen[f][doc] = p.lengths()[k];
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
        docTerms[doc] = null;
        live--;
    }

    private void growDocs(int capacity) {
        docIds = Arrays.copyOf(docIds, capacity);
        docTerms = Arrays.copyOf(docTerms, capacity);
        for (int f = 0; f < fieldNames.size(); f++) {
            fieldLen[f] = Arrays.copyOf(fieldLen[f], capacity);
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
            fieldLenSum = Arrays.copyOf(fieldLenSum, f * 2);
            fieldDocCount = Arrays.copyOf(fieldDocCount, f * 2);
        }
        fieldW[f] = weights.getOrDefault(field, 1.0);
        fieldB[f] = bs.getOrDefault(field, defaultB);
        fieldLen[f] = new int[docIds.length];
        return f;
    }
}
