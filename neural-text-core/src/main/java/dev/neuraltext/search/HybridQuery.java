package dev.neuraltext.search;

import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.internal.Checks;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What {@link dev.neuraltext.retrieve.HybridCaseRetriever} hands a {@link dev.neuraltext.store.CaseStore}: the analysed
 * query for every leg to run, the filter, and how many fused candidates to return.
 *
 * @param text     the query text; the store analyses it for its BM25 leg (code-aware terms in the embedded store,
 *                 CamelCase-expanded text or client-side term vectors in Qdrant)
 * @param dense    the query embedding, or null when the dense leg does not run
 * @param sparse   the sparse query vector, or null when the sparse leg does not run
 * @param legs     the legs to run; {@link Leg#DENSE} requires {@code dense}, {@link Leg#SPARSE} requires {@code sparse}
 * @param filter   evaluated inside every leg, before its top-k cut
 * @param legLimit how many candidates each leg contributes to the fusion, at least {@code limit}
 * @param limit    how many fused candidates to return
 * @param fusion   how the legs are fused
 * @param explain  whether every returned hit must carry every leg's rank and raw score; stores that fuse remotely
 *                 (Qdrant) then run extra queries, stores that fuse locally always fill them
 */
public record HybridQuery(
        String text,
        float[] dense,
        SparseVector sparse,
        Set<Leg> legs,
        PayloadFilter filter,
        int legLimit,
        int limit,
        FusionMethod fusion,
        boolean explain) {

    public HybridQuery {
        Checks.notNull(text, "text");
        Objects.requireNonNull(legs, "legs");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(fusion, "fusion");
        Checks.positive(limit, "limit");
        if (legLimit < limit) {
            throw new IllegalArgumentException("legLimit must be >= limit (" + limit + "), got " + legLimit);
        }
        legs = legs.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(legs));
        if (legs.contains(Leg.DENSE)) {
            if (dense == null) {
                throw new IllegalArgumentException("dense leg requested but the dense query vector is null");
            }
            dense = Checks.finite(dense, "dense").clone();
        }
        if (legs.contains(Leg.SPARSE) && sparse == null) {
            throw new IllegalArgumentException("sparse leg requested but the sparse query vector is null");
        }
        if (legs.contains(Leg.BM25) && text.isBlank()) {
            throw new IllegalArgumentException("bm25 leg requested but the query text is blank");
        }
    }

    /** A copy of the dense vector, or null. */
    @Override
    public float[] dense() {
        return dense == null ? null : dense.clone();
    }
}
