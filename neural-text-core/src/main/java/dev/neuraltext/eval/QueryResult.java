package dev.neuraltext.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How one query fared.
 *
 * @param query    the query
 * @param ranked   the ids as scored: mapped to canonical ids, repeats removed, best first
 * @param returned how many results the retrieval function returned (before removing repeats)
 * @param metrics  metric name to value, in {@link MetricSuite#names()} order
 * @param nanos    the wall time of the retrieval call, in nanoseconds (0 when not measured)
 */
public record QueryResult(EvalQuery query, List<String> ranked, int returned, Map<String, Double> metrics,
        long nanos) {

    public QueryResult {
        Objects.requireNonNull(query, "query");
        ranked = List.copyOf(ranked);
        if (returned < 0) {
            throw new IllegalArgumentException("returned must be >= 0, got " + returned);
        }
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        if (nanos < 0) {
            throw new IllegalArgumentException("nanos must be >= 0, got " + nanos);
        }
    }

    /** The value of a metric; throws when this result does not have it. */
    public double metric(String name) {
        Double v = metrics.get(name);
        if (v == null) {
            throw new IllegalArgumentException("unknown metric '" + name + "', expected one of " + metrics.keySet());
        }
        return v;
    }
}
