package dev.neuraltext.bm25;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.text.CodeDomainTokenizer.TermKind;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An in-memory inverted index over {@link CodeDomainTokenizer} terms, ranked with BM25F: Okapi BM25 over a weighted,
 * per-field length-normalised term frequency.
 *
 * <p><b>Scoring.</b> For a query term {@code t} and a document {@code d} with fields {@code f}:
 * <pre>
 *   idf(t)   = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))          (Lucene's IDF; df counts docs with t in any field)
 *   tf~(t,d) = sum_f  w_f * tf(t,f,d) / (1 - b_f + b_f * len(f,d) / avglen(f))
 *   score    = sum_t  q(t) * idf(t) * tf~ / (k1 + tf~)
 * </pre>
 * {@code N} counts live documents, {@code len(f,d)} is the number of terms the tokenizer emits for the field
 * (compounds and parts alike) and {@code avglen(f)} averages it over the documents that have the field. With one field
 * of weight 1 this is exactly Lucene's {@code BM25Similarity} (which, since Lucene 8, leaves out the constant
 * {@code (k1 + 1)} factor), so a term contributes at most {@code q(t) * idf(t)}. {@code q(t)} is the query weight:
 * the number of times the term occurs in the query, times {@link Builder#compoundWeight(double)} or
 * {@link Builder#partWeight(double)} for identifier compounds and parts.
 *
 * <p><b>Fields.</b> Documents carry named text fields. The project's standard names are {@code name} (symbol or
 * title, e.g. {@code StringUtils.isBlank}), {@code signature}, {@code doc} (Javadoc or comment) and {@code body}
 * ({@link dev.neuraltext.chunk.ChunkInput#DEFAULT_FIELD}). Defaults, measured on the commons-lang benchmark (see
 * the project README): {@code name} weight 8.0 with {@code b} 1.0 and binary term frequency (a name that is exactly
 * the query beats a longer one that merely contains it, and the constructor {@code Foo.Foo} does not beat the type
 * {@code Foo} by naming it twice; type-name queries go from MRR@10 0.62 with equal weights, and 0.70 with a counted
 * name, to 0.96), {@code signature} 3.0 (measured with the first line of each method as its signature: 1.0 loses
 * 0.01), {@code doc} 1.0 (not measurable on that benchmark), {@code body} 1.0; any other field 1.0 with the params'
 * {@code b}. Change them with {@link Builder#fieldWeight(String, double)}, {@link Builder#fieldB(String, double)} and
 * {@link Builder#binaryField(String, boolean)}.
 *
 * <p><b>Filtering.</b> {@link #search(String, int, PayloadFilter)} evaluates the filter on every scored candidate
 * before the top-k cut, never on an already cut list: a filter that excludes the best documents still returns
 * {@code limit} results when that many matching documents contain a query term. Ties are broken by id (ascending),
 * so results are deterministic.
 *
 * <p><b>Thread safety.</b> Safe for any number of concurrent searches while writers add, replace and delete: reads
 * share a read lock, writes take the write lock briefly (tokenization happens outside it). Several writers are safe
 * too, they simply take turns. Deleted documents are dropped from the postings once they make up half the index.
 */
public final class Bm25Index {

    /** Default field weights, see the class documentation. */
    public static final Map<String, Double> DEFAULT_FIELD_WEIGHTS =
            Map.of(ChunkMetadata.FIELD_NAME, 8.0, ChunkMetadata.FIELD_SIGNATURE, 3.0, ChunkMetadata.FIELD_DOC, 1.0,
                    ChunkMetadata.FIELD_BODY, 1.0);

    /** Default per-field length normalisation; fields not listed use {@link Bm25Params#b()}. */
    public static final Map<String, Double> DEFAULT_FIELD_BS = Map.of(ChunkMetadata.FIELD_NAME, 1.0);

    /** Fields whose term frequencies count once per document by default. */
    public static final Set<String> DEFAULT_BINARY_FIELDS = Set.of(ChunkMetadata.FIELD_NAME);

    /**
     * One document for {@link #upsertAll(Collection)}.
     *
     * @param id      stable id, non-blank; upserting it again replaces the document
     * @param fields  named text fields (see the class documentation for the standard names)
     * @param payload the filterable metadata {@link #search(String, int, PayloadFilter)} tests
     */
    public record Document(String id, Map<String, String> fields, Payload payload) {
        public Document {
            Checks.notBlank(id, "id");
            fields = Checks.stringMap(fields, "fields");
            Checks.notNull(payload, "payload");
        }
    }

    private final CodeDomainTokenizer tokenizer;
    private final Bm25Params params;
    private final TreeMap<String, Double> weights;
    private final TreeMap<String, Double> bs;
    private final double compoundWeight;
    private final double partWeight;
    private final TreeSet<String> binaryFields;
    private final String description;

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    // ---- state, guarded by lock ----
    private final HashMap<String, Integer> termIds = new HashMap<>();
    private final ArrayList<Postings> postings = new ArrayList<>();
    private int[] df = new int[64];
    private int[] lastDoc = new int[64]; // 1 + the last doc ordinal that counted the term in df (add() only)

    private final HashMap<String, Integer> fieldIds = new HashMap<>();
    private final ArrayList<String> fieldNames = new ArrayList<>();
    private double[] fieldW = new double[4];
    private double[] fieldB = new double[4];
    private int[][] fieldLen = new int[4][];
    private long[] fieldLenSum = new long[4];
    private int[] fieldDocCount = new int[4];

    private final HashMap<String, Integer> idToDoc = new HashMap<>();
    private String[] docIds = new String[64];
    private Payload[] payloads = new Payload[64];
    private int[][] docTerms = new int[64][];
    private int maxDoc;
    private int live;

    private Bm25Index(Builder b) {
        this.tokenizer = b.tokenizer;
        this.params = b.params;
        this.weights = new TreeMap<>(b.weights);
        this.bs = new TreeMap<>(b.bs);
        this.compoundWeight = b.compoundWeight;
        this.partWeight = b.partWeight;
        this.binaryFields = new TreeSet<>(b.binaryFields);
        StringBuilder d = new StringBuilder("bm25f(k1=").append(params.k1()).append(",b=").append(params.b())
                .append(",fields={");
        TreeMap<String, String> fields = new TreeMap<>();
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            fields.put(e.getKey(), "w" + e.getValue() + "/b" + bs.getOrDefault(e.getKey(), params.b()));
        }
        for (Map.Entry<String, Double> e : bs.entrySet()) {
            fields.putIfAbsent(e.getKey(), "w1.0/b" + e.getValue());
        }
        d.append(String.join(",", fields.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).toList()));
        d.append("},compound=").append(compoundWeight).append(",part=").append(partWeight)
                .append(",binary=").append(binaryFields).append(",tokenizer=").append(tokenizer.id()).append(')');
        this.description = d.toString();
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A stable description of the configuration (parameters, field weights and b, query weights, tokenizer id), for
     * index fingerprints: two indexes with equal descriptions score the same documents identically.
     */
    public String description() {
        return description;
    }

    /** The tokenizer used for documents and queries. */
    public CodeDomainTokenizer tokenizer() {
        return tokenizer;
    }

    /** The BM25 parameters. */
    public Bm25Params params() {
        return params;
    }

    /** The configured field weights (fields not listed weigh 1.0). */
    public Map<String, Double> fieldWeights() {
        return Collections.unmodifiableMap(weights);
    }

    /** The configured per-field {@code b} (fields not listed use {@link Bm25Params#b()}). */
    public Map<String, Double> fieldBs() {
        return Collections.unmodifiableMap(bs);
    }

    /**
     * Adds or replaces document {@code id} with its named text fields and filterable payload.
     *
     * @throws IllegalArgumentException if {@code id} is blank, or fields or payload are null
     */
    public void upsert(String id, Map<String, String> fields, Payload payload) {
        upsertAll(List.of(new Document(id, fields, payload)));
    }

    /**
     * Adds or replaces many documents at once (one lock acquisition per batch of 1,024); the fast way to (re)build an
     * index. A later document with the same id replaces an earlier one.
     */
    public void upsertAll(Collection<Document> documents) {
        Objects.requireNonNull(documents, "documents");
        List<Prepared> batch = new ArrayList<>(Math.min(documents.size(), 1024));
        for (Document d : documents) {
            Objects.requireNonNull(d, "documents must not contain null");
            batch.add(prepare(d));
            if (batch.size() == 1024) {
                write(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            write(batch);
        }
    }

    /** Deletes {@code id}; returns whether it was present. */
    public boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        lock.writeLock().lock();
        try {
            Integer doc = idToDoc.remove(id);
            if (doc == null) {
                return false;
            }
            remove(doc);
            maybeCompact();
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Whether a document with this id is indexed. */
    public boolean contains(String id) {
        lock.readLock().lock();
        try {
            return idToDoc.containsKey(id);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The number of documents. */
    public int size() {
        lock.readLock().lock();
        try {
            return live;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The top {@code limit} documents for {@code query} among those matching {@code filter}, best first (score
     * descending, then id ascending). Only documents containing at least one query term are returned.
     *
     * @param filter evaluated inside the search; {@code null} means no filter
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    public List<LegResult> search(String query, int limit, PayloadFilter filter) {
        Objects.requireNonNull(query, "query");
        Checks.positive(limit, "limit");
        LinkedHashMap<String, Double> queryTerms = queryTerms(query);
        if (queryTerms.isEmpty()) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            return searchLocked(queryTerms, limit, filter);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** {@link #search(String, int, PayloadFilter)} without a filter. */
    public List<LegResult> search(String query, int limit) {
        return search(query, limit, null);
    }

    /**
     * How {@code id} scores for {@code query}: per query term its query weight, IDF, per-field term frequencies and
     * lengths, the combined {@code tf~} and its contribution. The score equals the one
     * {@link #search(String, int, PayloadFilter)} gives the document. Empty when the id is not indexed.
     */
    public Optional<Explanation> explain(String query, String id) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(id, "id");
        LinkedHashMap<String, Double> queryTerms = queryTerms(query);
        lock.readLock().lock();
        try {
            Integer docOrd = idToDoc.get(id);
            if (docOrd == null) {
                return Optional.empty();
            }
            int doc = docOrd;
            List<TermExplanation> terms = new ArrayList<>();
            double total = 0;
            for (Map.Entry<String, Double> qt : queryTerms.entrySet()) {
                Integer termId = termIds.get(qt.getKey());
                if (termId == null || qt.getValue() <= 0 || df[termId] == 0) {
                    continue;
                }
                Postings p = postings.get(termId);
                int i = Arrays.binarySearch(p.docs, 0, p.size, doc);
                if (i < 0) {
                    continue;
                }
                while (i > 0 && p.docs[i - 1] == doc) {
                    i--;
                }
                TreeMap<String, FieldStats> fields = new TreeMap<>();
                double tf = 0;
                for (; i < p.size && p.docs[i] == doc; i++) {
                    int f = p.fieldTf[i] >>> Postings.FIELD_SHIFT;
                    int raw = p.fieldTf[i] & Postings.TF_MASK;
                    double avg = fieldDocCount[f] == 0 ? 1.0 : (double) fieldLenSum[f] / fieldDocCount[f];
                    double norm = 1 - fieldB[f] + (avg > 0 ? fieldB[f] / avg : 0) * fieldLen[f][doc];
                    fields.put(fieldNames.get(f), new FieldStats(raw, fieldLen[f][doc], avg, fieldW[f], fieldB[f]));
                    tf += fieldW[f] * raw / norm;
                }
                if (tf <= 0) {
                    continue;
                }
                int n = df[termId];
                double idf = Math.log(1 + (live - n + 0.5) / (n + 0.5));
                double contribution = qt.getValue() * idf * tf / (params.k1() + tf);
                total += contribution;
                terms.add(new TermExplanation(qt.getKey(), qt.getValue(), n, idf, tf, contribution, fields));
            }
            return Optional.of(new Explanation(id, total, live, terms));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The statistics of one field for one term of one document in an {@link Explanation}.
     *
     * @param tf            occurrences of the term in the field (1 in a binary field)
     * @param length        terms in the field
     * @param averageLength average length of the field over the documents that have it
     * @param weight        the field's weight
     * @param b             the field's length normalisation
     */
    public record FieldStats(int tf, int length, double averageLength, double weight, double b) {
    }

    /**
     * One query term's part of an {@link Explanation}.
     *
     * @param term         the term
     * @param queryWeight  its weight in the query
     * @param df           documents containing it
     * @param idf          its IDF
     * @param tfTilde      the weighted, length-normalised term frequency summed over the fields
     * @param contribution {@code queryWeight * idf * tfTilde / (k1 + tfTilde)}
     * @param fields       per field statistics, by field name
     */
    public record TermExplanation(String term, double queryWeight, int df, double idf, double tfTilde,
            double contribution, Map<String, FieldStats> fields) {
        public TermExplanation {
            fields = Collections.unmodifiableMap(new TreeMap<>(fields));
        }
    }

    /**
     * Why a document scores what it scores: {@code score = sum of contributions}, each
     * {@code queryWeight * idf * tfTilde / (k1 + tfTilde)}.
     *
     * @param id        the document id
     * @param score     the document's score for the query
     * @param documents the number of documents in the index ({@code N})
     * @param terms     the matching query terms, in query order
     */
    public record Explanation(String id, double score, int documents, List<TermExplanation> terms) {
        public Explanation {
            terms = List.copyOf(terms);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s: %.4f (N=%d)", id, score, documents));
            for (TermExplanation t : terms) {
                sb.append(String.format(Locale.ROOT, "%n  %s: %.4f = q %.2f * idf %.4f (df %d) * tf~ %.4f saturated",
                        t.term(), t.contribution(), t.queryWeight(), t.idf(), t.df(), t.tfTilde()));
                t.fields().forEach((f, st) -> sb.append(String.format(Locale.ROOT,
                        "%n    %s: tf %d, length %d / avg %.2f, weight %.2f, b %.2f", f, st.tf(), st.length(),
                        st.averageLength(), st.weight(), st.b())));
            }
            return sb.toString();
        }
    }

    @Override
    public String toString() {
        return "Bm25Index[size=" + size() + ", " + description + "]";
    }

    // ------------------------------------------------------------------ search

    /** Query terms with their weights: occurrences times the compound or part weight. */
    private LinkedHashMap<String, Double> queryTerms(String query) {
        LinkedHashMap<String, Double> queryTerms = new LinkedHashMap<>();
        tokenizer.tokenize(query, (term, kind) -> {
            double w = kind == TermKind.COMPOUND ? compoundWeight : kind == TermKind.PART ? partWeight : 1.0;
            queryTerms.merge(term, w, Double::sum);
        });
        return queryTerms;
    }

    private List<LegResult> searchLocked(Map<String, Double> queryTerms, int limit, PayloadFilter filter) {
        if (live == 0) {
            return List.of();
        }
        int fields = fieldNames.size();
        double k1 = params.k1();
        double[] w = new double[fields];
        double[] b = new double[fields];
        double[] bOverAvg = new double[fields];
        for (int f = 0; f < fields; f++) {
            w[f] = fieldW[f];
            b[f] = fieldB[f];
            double avg = fieldDocCount[f] == 0 ? 1.0 : (double) fieldLenSum[f] / fieldDocCount[f];
            bOverAvg[f] = avg > 0 ? b[f] / avg : 0;
        }
        double[] acc = new double[maxDoc];
        int[] touched = new int[64];
        int touchedCount = 0;
        for (Map.Entry<String, Double> qt : queryTerms.entrySet()) {
            double qw = qt.getValue();
            Integer termId = termIds.get(qt.getKey());
            if (termId == null || qw <= 0 || df[termId] == 0) {
                continue;
            }
            int n = df[termId];
            double idf = Math.log(1 + (live - n + 0.5) / (n + 0.5));
            double termWeight = qw * idf;
            Postings p = postings.get(termId);
            int[] docs = p.docs;
            int[] ftf = p.fieldTf;
            int size = p.size;
            int i = 0;
            while (i < size) {
                int doc = docs[i];
                double tf = 0;
                do {
                    int packed = ftf[i];
                    int f = packed >>> Postings.FIELD_SHIFT;
                    int raw = packed & Postings.TF_MASK;
                    tf += w[f] * raw / (1 - b[f] + bOverAvg[f] * fieldLen[f][doc]);
                    i++;
                } while (i < size && docs[i] == doc);
                if (tf <= 0 || docIds[doc] == null) {
                    continue;
                }
                if (acc[doc] == 0) {
                    if (touchedCount == touched.length) {
                        touched = Arrays.copyOf(touched, touchedCount * 2);
                    }
                    touched[touchedCount++] = doc;
                }
                acc[doc] += termWeight * tf / (k1 + tf);
            }
        }
        PriorityQueue<Integer> heap = new PriorityQueue<>(Math.min(limit, touchedCount) + 1,
                (x, y) -> worseFirst(acc, x, y));
        for (int t = 0; t < touchedCount; t++) {
            int doc = touched[t];
            double score = acc[doc];
            if (heap.size() == limit) {
                int worst = heap.peek();
                if (score < acc[worst] || (score == acc[worst] && docIds[doc].compareTo(docIds[worst]) > 0)) {
                    continue; // could not enter the top-k, whatever the filter says
                }
            }
            if (filter != null && !filter.test(payloads[doc])) {
                continue;
            }
            heap.add(doc);
            if (heap.size() > limit) {
                heap.poll();
            }
        }
        LegResult[] out = new LegResult[heap.size()];
        for (int k = out.length - 1; k >= 0; k--) {
            int doc = heap.poll();
            out[k] = new LegResult(docIds[doc], acc[doc]);
        }
        return List.of(out);
    }

    /** Orders so that the worst result (lowest score, then greatest id) comes first. */
    private int worseFirst(double[] acc, int x, int y) {
        int c = Double.compare(acc[x], acc[y]);
        if (c != 0) {
            return c;
        }
        return docIds[y].compareTo(docIds[x]);
    }

    // ------------------------------------------------------------------ writing

    /** A document tokenized outside the lock. */
    private record Prepared(String id, Payload payload, String[] fields, String[][] terms, int[][] tfs, int[] lengths) {
    }

    private Prepared prepare(Document d) {
        int n = d.fields().size();
        String[] fields = new String[n];
        String[][] terms = new String[n][];
        int[][] tfs = new int[n][];
        int[] lengths = new int[n];
        int k = 0;
        for (Map.Entry<String, String> e : new TreeMap<>(d.fields()).entrySet()) {
            Checks.notBlank(e.getKey(), "field name");
            HashMap<String, int[]> counts = new HashMap<>();
            int[] len = {0};
            tokenizer.tokenize(e.getValue(), (term, kind) -> {
                counts.computeIfAbsent(term, t -> new int[1])[0]++;
                len[0]++;
            });
            fields[k] = e.getKey();
            terms[k] = new String[counts.size()];
            tfs[k] = new int[counts.size()];
            int j = 0;
            for (Map.Entry<String, int[]> c : counts.entrySet()) {
                terms[k][j] = c.getKey();
                tfs[k][j] = c.getValue()[0];
                j++;
            }
            lengths[k] = len[0];
            if (binaryFields.contains(e.getKey())) {
                Arrays.fill(tfs[k], 1);
            }
            k++;
        }
        return new Prepared(d.id(), d.payload(), fields, terms, tfs, lengths);
    }

    private void write(List<Prepared> batch) {
        lock.writeLock().lock();
        try {
            for (Prepared p : batch) {
                Integer old = idToDoc.remove(p.id());
                if (old != null) {
                    remove(old);
                }
                add(p);
            }
            maybeCompact();
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void add(Prepared p) {
        int[] fieldOrd = new int[p.fields().length];
        for (int k = 0; k < fieldOrd.length; k++) {
            fieldOrd[k] = fieldOrdinal(p.fields()[k]);
        }
        if (maxDoc == docIds.length) {
            growDocs(maxDoc * 2);
        }
        int doc = maxDoc++;
        docIds[doc] = p.id();
        payloads[doc] = p.payload();
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
        docTerms[doc] = Arrays.copyOf(distinct, distinctCount);
    }

    private void remove(int doc) {
        for (int term : docTerms[doc]) {
            df[term]--;
        }
        for (int f = 0; f < fieldNames.size(); f++) {
            int len = fieldLen[f][doc];
            if (len > 0) {
                fieldLenSum[f] -= len;
                fieldDocCount[f]--;
            }
        }
        docIds[doc] = null;
        payloads[doc] = null;
        docTerms[doc] = null;
        live--;
    }

    private void maybeCompact() {
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
                payloads[nd] = payloads[d];
                docTerms[nd] = docTerms[d];
                for (int f = 0; f < fieldNames.size(); f++) {
                    fieldLen[f][nd] = fieldLen[f][d];
                }
                idToDoc.put(docIds[nd], nd);
            }
        }
        for (int d = next; d < maxDoc; d++) {
            docIds[d] = null;
            payloads[d] = null;
            docTerms[d] = null;
            for (int f = 0; f < fieldNames.size(); f++) {
                fieldLen[f][d] = 0;
            }
        }
        maxDoc = next;
        Arrays.fill(lastDoc, 0); // doc ordinals are reused from here on
    }

    private void growDocs(int capacity) {
        docIds = Arrays.copyOf(docIds, capacity);
        payloads = Arrays.copyOf(payloads, capacity);
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
        fieldB[f] = bs.getOrDefault(field, params.b());
        fieldLen[f] = new int[docIds.length];
        return f;
    }

    /**
     * Builder. Defaults: {@link CodeDomainTokenizer#standard()}, {@link Bm25Params#defaults()} ({@code k1} 1.2,
     * {@code b} 0.75), field weights {@link #DEFAULT_FIELD_WEIGHTS} ({@code name} 8.0, {@code signature} 3.0,
     * {@code doc} 1.0, {@code body} 1.0, others 1.0), per-field b {@link #DEFAULT_FIELD_BS} ({@code name} 1.0, others
     * the params' b), binary term frequency in {@code name} ({@link #DEFAULT_BINARY_FIELDS}), query compound and part
     * weights 1.0. Not thread-safe; the index it builds is.
     */
    public static final class Builder {
        private CodeDomainTokenizer tokenizer = CodeDomainTokenizer.standard();
        private Bm25Params params = Bm25Params.defaults();
        private final TreeMap<String, Double> weights = new TreeMap<>(DEFAULT_FIELD_WEIGHTS);
        private final TreeMap<String, Double> bs = new TreeMap<>(DEFAULT_FIELD_BS);
        private double compoundWeight = 1.0;
        private double partWeight = 1.0;
        private final TreeSet<String> binaryFields = new TreeSet<>(DEFAULT_BINARY_FIELDS);

        private Builder() {
        }

        /** The tokenizer for documents and queries; default {@link CodeDomainTokenizer#standard()}. */
        public Builder tokenizer(CodeDomainTokenizer tokenizer) {
            this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
            return this;
        }

        /** {@code k1} and the default {@code b}; default {@link Bm25Params#defaults()}. */
        public Builder params(Bm25Params params) {
            this.params = Objects.requireNonNull(params, "params");
            return this;
        }

        /** The weight of {@code field}'s term frequencies; a non-negative finite value (0 ignores the field). */
        public Builder fieldWeight(String field, double weight) {
            Checks.notBlank(field, "field");
            weights.put(field, Checks.nonNegativeFinite(weight, "weight of field '" + field + "'"));
            return this;
        }

        /** The length normalisation {@code b} of {@code field}, in [0, 1]; unset fields use the params' b. */
        public Builder fieldB(String field, double b) {
            Checks.notBlank(field, "field");
            if (Double.isNaN(b) || b < 0 || b > 1) {
                throw new IllegalArgumentException(
                        String.format(Locale.ROOT, "illegal b value for field '%s': %s, must be between 0 and 1",
                                field, b));
            }
            bs.put(field, b);
            return this;
        }

        /**
         * Clears all field weights, per-field b and binary fields: every field then weighs 1.0 with the params' b and
         * counts every occurrence (plain BM25 when documents have a single field).
         */
        public Builder clearFieldSettings() {
            weights.clear();
            bs.clear();
            binaryFields.clear();
            return this;
        }

        /** Query-side weight of an identifier's compound term ({@code chatmodel} in {@code ChatModel}); default 1.0. */
        public Builder compoundWeight(double weight) {
            this.compoundWeight = Checks.nonNegativeFinite(weight, "compoundWeight");
            return this;
        }

        /** Query-side weight of an identifier's part terms ({@code chat}, {@code model}); default 1.0. */
        public Builder partWeight(double weight) {
            this.partWeight = Checks.nonNegativeFinite(weight, "partWeight");
            return this;
        }

        /**
         * Whether a term counts once in {@code field} however often it occurs there (the field length still counts
         * every term). Default: only {@code name} is binary, so a constructor {@code Foo.Foo} does not outscore the
         * type {@code Foo} by naming it twice.
         */
        public Builder binaryField(String field, boolean binary) {
            Checks.notBlank(field, "field");
            if (binary) {
                binaryFields.add(field);
            } else {
                binaryFields.remove(field);
            }
            return this;
        }

        /** An empty index with this configuration. */
        public Bm25Index build() {
            return new Bm25Index(this);
        }
    }
}
