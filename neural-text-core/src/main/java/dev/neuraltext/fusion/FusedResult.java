package dev.neuraltext.fusion;

import dev.neuraltext.internal.Checks;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * One fused entry.
 *
 * @param id         chunk id
 * @param fusedScore normalised fused score in [0, 1] (see {@link dev.neuraltext.fusion.FusionMethod})
 * @param legs       rank and raw score in each leg that returned the chunk
 */
public record FusedResult(String id, double fusedScore, Map<Leg, LegScore> legs) {
    public FusedResult {
        Checks.notBlank(id, "id");
        Checks.notNull(legs, "legs");
        legs = legs.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(legs));
    }
}
