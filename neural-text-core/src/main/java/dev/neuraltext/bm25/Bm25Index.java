package dev.neuraltext.bm25;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.internal.Checks;
import dev.neuraltext.text.CodeDomainTokenizer.TermKind;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * An in-memory inverted index over {@link CodeDomainTokenizer} terms, ranked with BM25F: Okapi BM25 over a weighted,
 * per-field length-normalised term frequency.
 *
 * <p><b>Scoring</b> ({@link Bm25FScorer}). For a query term {@code t} and a document {@code d} with fields {@code f}:
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
 * ({@link dev.neuraltext.chunk.ChunkInput#DEFAULT_FIELD}). Defaults, measured on the commons-lang benchmark:
 * {@code name} weight 8.0 with {@code b} 1.0 and binary term frequency (a name that is exactly
 * the query beats a longer one that merely contains it, and the constructor {@code Foo.Foo} does not beat the type
 * {@code Foo} by naming it twice; type-name queries go from MRR@10 0.62 with equal weights, and 0.70 with a counted
 * name, to 0.96), {@code signature} 3.0 (measured with the first line of each method as its signature: 1.0 loses
 * 0.01), {@code doc} 1.0 (not measurable on that benchmark), {@code body} 1.0, {@code exports} (the names a file's
 * header re-exports, {@code pub use a::{B, C}}) 16.0 with {@code b} 0 and binary term frequency: each name counts in
 * full however many the header lists, and saturation keeps it level with a definition's own name (measured on the
 * semble-dev split, where only the Rust repository has re-exports that matter: 4 / 8 / 16 give it 0.809 / 0.818 /
 * 0.851 NDCG@10 under the ranking shipped then, 0.775 without the field); any other field 1.0 with the params'
 * {@code b}.
 * Change them with {@link Builder#fieldWeight(String, double)}, {@link Builder#fieldB(String, double)} and
 * {@link Builder#binaryField(String, boolean)}.
 *
 * <p><b>Filtering.</b> The index keeps no metadata: {@link #search(String, int, Predicate)} takes a predicate over
 * document ids (the caller's store keeps the payloads, as {@link dev.neuraltext.store.InMemoryCaseStore} does) and
 * tests it on every candidate that could enter the top k, before the cut, never on an already cut list: a filter that
 * excludes the best documents still returns {@code limit} results when that many matching documents contain a query
 * term. Equal scores are ordered by when the documents were indexed (the first added, and not replaced since, first),
 * as Lucene orders them by doc id: deterministic for a given sequence of writes, kept by save and load, and one
 * comparison per tie however many documents share a score.
 *
 * <p><b>Layout.</b> This class holds the configuration, the query and document analysis and the lock;
 * the postings and statistics live in {@code InvertedIndex}, the top-k search in {@code Bm25Search}, the formula in
 * {@link Bm25FScorer} and the explanation in {@link Bm25Explanation}.
 *
 * <p><b>Thread safety.</b> Safe for any number of concurrent searches while writers add, replace and delete: reads
 * share a read lock, writes take the write lock briefly (tokenization happens outside it). Several writers are safe
 * too, they simply take turns. Deleted documents are dropped from the postings once they make up half the index.
 */
public final class Bm25Index {

    /** Default field weights, see the class documentation. */
    public static final Map<String, Double> DEFAULT_FIELD_WEIGHTS =
            Map.of(ChunkMetadata.FIELD_NAME, 8.0, ChunkMetadata.FIELD_SIGNATURE, 3.0, ChunkMetadata.FIELD_DOC, 1.0,
                    ChunkMetadata.FIELD_BODY, 1.0, ChunkMetadata.FIELD_EXPORTS, 16.0);

    /** Default per-field length normalisation; fields not listed use {@link Bm25Params#b()}. */
    public static final Map<String, Double> DEFAULT_FIELD_BS = Map.of(ChunkMetadata.FIELD_NAME, 1.0,
            ChunkMetadata.FIELD_EXPORTS, 0.0);

    /** Fields whose term frequencies count once per document by default. */
    public static final Set<String> DEFAULT_BINARY_FIELDS =
            Set.of(ChunkMetadata.FIELD_NAME, ChunkMetadata.FIELD_EXPORTS);

    /** Documents tokenized per lock acquisition in {@link #upsertAll(Collection)}. */
    private static final int WRITE_BATCH = 1024;

    /**
     * One document for {@link #upsertAll(Collection)}.
     *
     * @param id     stable id, non-blank; upserting it again replaces the document
     * @param fields named text fields (see the class documentation for the standard names)
     */
    public record Document(String id, Map<String, String> fields) {
        /** Validates the id and copies the fields. */
        public Document {
            Checks.notBlank(id, "id");
            fields = Checks.stringMap(fields, "fields");
        }
    }

    private final CodeDomainTokenizer tokenizer;
    private final Bm25Params params;
    private final Bm25FScorer scorer;
    private final TreeMap<String, Double> weights;
    private final TreeMap<String, Double> bs;
    private final double compoundWeight;
    private final double partWeight;
    private final TreeSet<String> binaryFields;
    private final String description;

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final InvertedIndex index; // guarded by lock

    private Bm25Index(Builder b) {
        this.tokenizer = b.tokenizer;
        this.params = b.params;
        this.scorer = new Bm25FScorer(params);
        this.weights = new TreeMap<>(b.weights);
        this.bs = new TreeMap<>(b.bs);
        this.compoundWeight = b.compoundWeight;
        this.partWeight = b.partWeight;
        this.binaryFields = new TreeSet<>(b.binaryFields);
        this.index = new InvertedIndex(weights, bs, params.b());
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

    /** The scorer (the BM25F formula with this index's {@code k1}). */
    public Bm25FScorer scorer() {
        return scorer;
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
     * Adds or replaces document {@code id} with its named text fields.
     *
     * @throws IllegalArgumentException if {@code id} is blank or fields are null
     */
    public void upsert(String id, Map<String, String> fields) {
        upsertAll(List.of(new Document(id, fields)));
    }

    /**
     * Adds or replaces many documents at once (one lock acquisition per batch of 1,024); the fast way to (re)build an
     * index. A later document with the same id replaces an earlier one.
     */
    public void upsertAll(Collection<Document> documents) {
        Objects.requireNonNull(documents, "documents");
        List<AnalyzedDocument> batch = new ArrayList<>(Math.min(documents.size(), WRITE_BATCH));
        for (Document d : documents) {
            Objects.requireNonNull(d, "documents must not contain null");
            batch.add(analyze(d));
            if (batch.size() == WRITE_BATCH) {
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
            return index.delete(id);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Whether a document with this id is indexed. */
    public boolean contains(String id) {
        lock.readLock().lock();
        try {
            return index.contains(id);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The number of documents. */
    public int size() {
        lock.readLock().lock();
        try {
            return index.live();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The top {@code limit} documents for {@code query} among those whose id {@code accept} admits, best first (score
     * descending, then indexing order: see the class documentation). Only documents containing at least one query term
     * are returned.
     *
     * @param accept tested inside the search on candidates that could enter the top {@code limit}; {@code null}
     *               admits every document. Called under the index's read lock: it must not write to this index.
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    public List<LegResult> search(String query, int limit, Predicate<String> accept) {
        Objects.requireNonNull(query, "query");
        Checks.positive(limit, "limit");
        LinkedHashMap<String, Double> queryTerms = queryTerms(query);
        if (queryTerms.isEmpty()) {
            return List.of();
        }
        lock.readLock().lock();
        try {
            return Bm25Search.search(index, scorer, queryTerms, limit, accept);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The position of {@code id} in indexing order (its doc ordinal), or -1 when it is not indexed; for tests. */
    int ordinal(String id) {
        lock.readLock().lock();
        try {
            return index.doc(id);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** {@link #search(String, int, Predicate)} without a filter. */
    public List<LegResult> search(String query, int limit) {
        return search(query, limit, null);
    }

    /**
     * How {@code id} scores for {@code query}: per query term its query weight, IDF, per-field term frequencies and
     * lengths, the combined {@code tf~} and its contribution. The score equals the one
     * {@link #search(String, int, Predicate)} gives the document. Empty when the id is not indexed.
     */
    public Optional<Bm25Explanation> explain(String query, String id) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(id, "id");
        LinkedHashMap<String, Double> queryTerms = queryTerms(query);
        lock.readLock().lock();
        try {
            int doc = index.doc(id);
            return doc < 0 ? Optional.empty() : Optional.of(Bm25Explanation.of(index, scorer, queryTerms, doc));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Writes this index's whole state (its {@link #description()}, the postings, term dictionary, field lengths and
     * document table) for {@link #readState}: the embedded store persists it in its index files, which frame, version
     * and checksum it, so that a load does not tokenize every chunk again. The layout is internal to this library and
     * changes with the store's format version. Holds the read lock: searches continue, writers wait.
     *
     * @throws IOException if {@code out} fails
     */
    public void writeState(DataOutput out) throws IOException {
        Objects.requireNonNull(out, "out");
        lock.readLock().lock();
        try {
            out.writeUTF(description);
            index.write(out);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Replaces the state of this empty index by one {@link #writeState} wrote, if it was written with this index's
     * configuration ({@link #description()} equal); otherwise reads only the description and returns false, so that
     * the caller re-indexes the documents instead.
     *
     * @param ids takes each stored document id to the instance to keep (the caller's own, to share it)
     * @return whether the state was read
     * @throws IllegalStateException    if this index holds documents
     * @throws IllegalArgumentException if the data is inconsistent (the caller's checksum should have caught it)
     * @throws IOException              if {@code in} fails or ends early
     */
    public boolean readState(DataInput in, UnaryOperator<String> ids) throws IOException {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(ids, "ids");
        String saved = in.readUTF();
        if (!saved.equals(description)) {
            return false;
        }
        lock.writeLock().lock();
        try {
            index.read(in, ids);
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "Bm25Index[size=" + size() + ", " + description + "]";
    }

    /** Query terms with their weights: occurrences times the compound or part weight. */
    private LinkedHashMap<String, Double> queryTerms(String query) {
        LinkedHashMap<String, Double> queryTerms = new LinkedHashMap<>();
        tokenizer.tokenize(query, (term, kind) -> {
            double w = kind == TermKind.COMPOUND ? compoundWeight : kind == TermKind.PART ? partWeight : 1.0;
            queryTerms.merge(term, w, Double::sum);
        });
        return queryTerms;
    }

    /** Tokenizes a document outside the lock. */
    private AnalyzedDocument analyze(Document d) {
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
        return new AnalyzedDocument(d.id(), fields, terms, tfs, lengths);
    }

    private void write(List<AnalyzedDocument> batch) {
        lock.writeLock().lock();
        try {
            for (AnalyzedDocument p : batch) {
                index.upsert(p);
            }
            index.maybeCompact();
        } finally {
            lock.writeLock().unlock();
        }
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
