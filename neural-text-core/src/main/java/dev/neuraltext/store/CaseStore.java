package dev.neuraltext.store;

import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Where indexed chunks live and where the retrieval legs and their fusion run: in this JVM
 * ({@link InMemoryCaseStore}) or in a server (the Qdrant store). {@link dev.neuraltext.retrieve.HybridCaseRetriever}
 * works the same over any implementation.
 *
 * <p>Implementations are safe for concurrent searches while one writer upserts or deletes. Failures of a remote store
 * are reported as {@link dev.neuraltext.NeuralTextException}s saying which operation failed, retriable when repeating
 * may help. {@link #close()} releases what the store owns.
 *
 * <p>Besides the five operations, a store declares what it holds and how it was configured
 * ({@link #legsWithData()}, {@link #denseDimension()}, {@link #fingerprint()}), so that the retriever treats every
 * implementation alike. Each has a default that is correct, if less informative, for any store.
 */
public interface CaseStore extends AutoCloseable {

    /**
     * Inserts or replaces (same chunk id) the given cases. A dense vector whose dimension differs from the store's,
     * or a vector kind the store was not set up for, is rejected with an {@link IllegalArgumentException} naming the
     * chunk and both dimensions, before anything is written.
     */
    void upsert(List<IndexedCase> cases);

    /** Deletes the chunks with these ids; unknown ids are ignored. */
    void delete(Collection<String> ids);

    /** Deletes every chunk matching {@code filter}. */
    void deleteWhere(PayloadFilter filter);

    /** The number of chunks matching {@code filter} ({@link PayloadFilter#all()} counts everything). */
    long count(PayloadFilter filter);

    /**
     * Runs the query's legs with its filter evaluated inside each leg, fuses them with its fusion method, and returns
     * at most {@link HybridQuery#limit()} hits, best first, with normalised fused scores (see
     * {@link dev.neuraltext.fusion.FusionMethod}) and the per-leg rank and raw score of each hit.
     */
    List<SearchHit> search(HybridQuery query);

    /**
     * The legs this store can answer from: the retriever runs only these. The default is every leg, for a store that
     * cannot tell cheaply (a leg without data then simply returns no hits). The embedded store reports BM25 when it
     * holds any chunk, and DENSE / SPARSE when any chunk has such a vector.
     */
    default Set<Leg> legsWithData() {
        return Set.copyOf(EnumSet.allOf(Leg.class));
    }

    /**
     * The dense vector dimension this store is fixed to, or empty while it is not fixed (or the store does not say).
     * The retriever checks its embedder against it before indexing anything. The default is empty.
     */
    default OptionalInt denseDimension() {
        return OptionalInt.empty();
    }

    /**
     * The lexical part of this store's indexing configuration (tokenizer, BM25 parameters, field weights), to which the
     * retriever adds its models ({@link IndexFingerprint#withDense}, {@link IndexFingerprint#withSparse}). The default
     * records the store's class name with the default BM25 parameters.
     */
    default IndexFingerprint fingerprint() {
        return IndexFingerprint.lexical("store:" + getClass().getName(), Bm25Params.defaults(), Map.of());
    }

    /** Releases resources the store owns. The default does nothing. */
    @Override
    default void close() {
    }
}
