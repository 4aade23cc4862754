package dev.neuraltext.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Metric means over a group of queries (all of them, or one slice).
 *
 * @param queries how many queries the means are over
 * @param means   metric name to mean value, in {@link MetricSuite#names()} order; all 0 when {@code queries} is 0
 */
public record Summary(int queries, Map<String, Double> means) {

    public Summary {
        if (queries < 0) {
            throw new IllegalArgumentException("queries must be >= 0, got " + queries);
        }
        means = Collections.unmodifiableMap(new LinkedHashMap<>(means));
    }

    /** The mean of a metric; throws when the summary does not have it. */
    public double mean(String metric) {
        Double v = means.get(metric);
        if (v == null) {
            throw new IllegalArgumentException("unknown metric '" + metric + "', expected one of " + means.keySet());
        }
        return v;
    }
}
