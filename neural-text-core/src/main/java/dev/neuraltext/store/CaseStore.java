package dev.neuraltext.store;

import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import java.util.Collection;
import java.util.List;

/**
 * Where indexed chunks live and where the retrieval legs and their fusion run: in this JVM
 * ({@link InMemoryCaseStore}) or in a server (the Qdrant store). {@link dev.neuraltext.retrieve.HybridCaseRetriever}
 * works the same over any implementation.
 *
 * <p>Implementations are safe for concurrent searches while one writer upserts or deletes. Failures of a remote store
 * are reported as {@link dev.neuraltext.NeuralTextException}s saying which operation failed, retriable when repeating
 * may help. {@link #close()} releases what the store owns.
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

    /** Releases resources the store owns. The default does nothing. */
    @Override
    default void close() {
    }
}
