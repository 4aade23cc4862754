package dev.neuraltext.fusion;

import dev.neuraltext.internal.Checks;

/**
 * One entry of a leg's ranked list, before fusion.
 *
 * @param id    chunk id
 * @param score the leg's raw score (higher is better)
 */
public record LegResult(String id, double score) {
    public LegResult {
        Checks.notBlank(id, "id");
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException("score must not be NaN (id '" + id + "')");
        }
    }
}
