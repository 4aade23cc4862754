package dev.neuraltext.retrieve;

import dev.neuraltext.search.SearchHit;
import java.util.List;

/** Being written (issue 3). */
public final class AdaptiveExtension {

    private AdaptiveExtension() {
    }

    /** Over-fetch 2x, gap 0.05, default floor. */
    public static AdaptiveExtension defaults() {
        return new AdaptiveExtension();
    }

    /** How many candidates to fetch for a request of {@code limit}. */
    public int fetchSize(int limit) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Cuts or extends {@code ranked} (best first, scores in [0, 1]) for a request of {@code limit}. */
    public Extension apply(List<SearchHit> ranked, int limit) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /**
     * @param hits           the hits to return
     * @param aboveThreshold how many candidates scored at or above the floor
     * @param extended       whether more than the limit are returned
     */
    public record Extension(List<SearchHit> hits, int aboveThreshold, boolean extended) {
        public Extension {
            hits = List.copyOf(hits);
        }
    }
}
