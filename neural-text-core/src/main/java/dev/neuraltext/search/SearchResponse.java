package dev.neuraltext.search;

import dev.neuraltext.fusion.Leg;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The answer to a {@link SearchRequest}.
 *
 * @param hits                ranked best first
 * @param totalAboveThreshold how many candidates scored above the relevance floor; when larger than
 *                            {@code hits().size()} the caller knows asking for more would return more relevant hits
 * @param extended            whether adaptive extension returned more than the requested limit
 * @param legsRun             the legs that ran (a leg without an encoder, or not requested, is skipped)
 * @param reranked            whether a reranker reordered the shortlist
 * @param timings             where the time went
 */
public record SearchResponse(
        List<SearchHit> hits,
        int totalAboveThreshold,
        boolean extended,
        Set<Leg> legsRun,
        boolean reranked,
        SearchTimings timings) {

    public SearchResponse {
        hits = List.copyOf(hits);
        if (totalAboveThreshold < 0) {
            throw new IllegalArgumentException("totalAboveThreshold must be >= 0, got " + totalAboveThreshold);
        }
        Objects.requireNonNull(legsRun, "legsRun");
        legsRun = legsRun.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(legsRun));
        Objects.requireNonNull(timings, "timings");
    }

    /** A one-line summary such as {@code "8 results, 16 above threshold"}. */
    public String summary() {
        return hits.size() + (hits.size() == 1 ? " result, " : " results, ") + totalAboveThreshold + " above threshold"
                + (extended ? " (extended past the limit)" : "");
    }
}
