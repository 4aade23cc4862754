package dev.neuraltext.fusion;

import dev.neuraltext.search.FusionMethod;
import dev.neuraltext.search.Leg;
import java.util.List;
import java.util.Map;

/** Fuses the ranked lists of several legs into one. Implementations are immutable and thread-safe. */
public interface Fusion {

    /**
     * Fuses {@code legs} (each list best first; a leg that ran and returned nothing is present with an empty list)
     * and returns at most {@code limit} results, best first, ties broken deterministically.
     */
    List<FusedResult> fuse(Map<Leg, List<LegResult>> legs, int limit);

    /** The implementation of {@code method}. */
    static Fusion of(FusionMethod method) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
