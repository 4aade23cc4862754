package dev.neuraltext.search;

import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.internal.Checks;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One result, explaining itself.
 *
 * @param id           the chunk id
 * @param text         the chunk text
 * @param metadata     the chunk's single-valued metadata
 * @param listMetadata the chunk's list metadata
 * @param score        the score relevance thresholds act on, in [0, 1]: the reranker's score when the list was
 *                     reranked, otherwise {@link #fusedScore()}
 * @param fusedScore   the normalised fusion score in [0, 1] (see {@link FusionMethod} for the scale)
 * @param legs         for each leg that returned this chunk, its rank and raw score; legs that missed it are absent
 * @param rankSignals  what the ranking stage ({@code dev.neuraltext.retrieve.RepositoryRanking}) weighed for this hit,
 *                     by signal name (its feature values, and {@code score} its ranking score); empty when no ranking
 *                     stage ran
 */
public record SearchHit(
        String id,
        String text,
        Map<String, String> metadata,
        Map<String, List<String>> listMetadata,
        double score,
        double fusedScore,
        Map<Leg, LegScore> legs,
        Map<String, Double> rankSignals) {

    /** A hit no ranking stage has seen (no {@link #rankSignals()}). */
    public SearchHit(String id, String text, Map<String, String> metadata, Map<String, List<String>> listMetadata,
            double score, double fusedScore, Map<Leg, LegScore> legs) {
        this(id, text, metadata, listMetadata, score, fusedScore, legs, Map.of());
    }

    public SearchHit {
        Checks.notBlank(id, "id");
        Checks.notNull(text, "text");
        metadata = Checks.stringMap(metadata, "metadata");
        listMetadata = Checks.listMap(listMetadata, "listMetadata");
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException("score must not be NaN (hit '" + id + "')");
        }
        if (Double.isNaN(fusedScore)) {
            throw new IllegalArgumentException("fusedScore must not be NaN (hit '" + id + "')");
        }
        Checks.notNull(legs, "legs");
        legs = legs.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(legs));
        Checks.notNull(rankSignals, "rankSignals");
        rankSignals = rankSignals.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(rankSignals));
    }

    /** A copy with a new final score (e.g. after reranking); the fused score and leg details stay. */
    public SearchHit withScore(double newScore) {
        return new SearchHit(id, text, metadata, listMetadata, newScore, fusedScore, legs, rankSignals);
    }

    /** A copy carrying the ranking stage's signals; scores and leg details stay. */
    public SearchHit withRankSignals(Map<String, Double> signals) {
        return new SearchHit(id, text, metadata, listMetadata, score, fusedScore, legs, signals);
    }
}
