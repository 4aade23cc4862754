package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The per-query results of one technique on one dataset, with means overall and per slice of query metadata, and
 * latency percentiles. Immutable and thread-safe.
 */
public final class EvalRun {

    /** The slice value of queries that lack the slicing key. */
    public static final String NO_VALUE = "(none)";

    private final String technique;
    private final String dataset;
    private final MetricSuite suite;
    private final List<QueryResult> results;
    private final Map<String, QueryResult> byQuery;

    /**
     * @param technique a name for reports, e.g. {@code bm25}
     * @param dataset   the dataset name
     * @param suite     the metrics every result carries
     * @param results   one per query
     */
    public EvalRun(String technique, String dataset, MetricSuite suite, List<QueryResult> results) {
        this.technique = Checks.notBlank(technique, "technique");
        this.dataset = Checks.notBlank(dataset, "dataset");
        this.suite = Checks.notNull(suite, "suite");
        this.results = List.copyOf(results);
        Map<String, QueryResult> m = new LinkedHashMap<>();
        for (QueryResult r : this.results) {
            if (m.put(r.query().id(), r) != null) {
                throw new IllegalArgumentException("two results for query '" + r.query().id() + "'");
            }
        }
        this.byQuery = Collections.unmodifiableMap(m);
    }

    public String technique() {
        return technique;
    }

    public String dataset() {
        return dataset;
    }

    public MetricSuite suite() {
        return suite;
    }

    /** One result per query, in dataset order. */
    public List<QueryResult> results() {
        return results;
    }

    /** The result of a query id, or null. */
    public QueryResult result(String queryId) {
        return byQuery.get(queryId);
    }

    /** Means over every query. */
    public Summary overall() {
        return summarize(results);
    }

    /**
     * Means per value of a query metadata key (e.g. {@code type} gives {@code nl} and {@code kw}), sorted by value;
     * queries without the key are grouped under {@value #NO_VALUE}.
     */
    public Map<String, Summary> bySlice(String key) {
        Checks.notBlank(key, "key");
        Map<String, List<QueryResult>> groups = new TreeMap<>();
        for (QueryResult r : results) {
            groups.computeIfAbsent(r.query().metadata().getOrDefault(key, NO_VALUE), v -> new ArrayList<>()).add(r);
        }
        Map<String, Summary> out = new LinkedHashMap<>();
        groups.forEach((v, rs) -> out.put(v, summarize(rs)));
        return out;
    }

    /** Means over the given results (e.g. a custom slice). */
    public Summary summarize(Collection<QueryResult> group) {
        Map<String, Double> sums = new LinkedHashMap<>();
        for (String name : suite.names()) {
            sums.put(name, 0.0);
        }
        for (QueryResult r : group) {
            r.metrics().forEach((name, v) -> sums.merge(name, v, Double::sum));
        }
        int n = group.size();
        sums.replaceAll((name, sum) -> n == 0 ? 0 : sum / n);
        return new Summary(n, sums);
    }

    /** The mean number of results returned per query. */
    public double meanReturned() {
        return results.stream().mapToInt(QueryResult::returned).average().orElse(0);
    }

    /**
     * A latency percentile of the retrieval calls in milliseconds, by nearest rank ({@code p} in (0, 100]); 0 with no
     * results.
     */
    public double latencyMillis(double p) {
        return percentile(results.stream().mapToLong(QueryResult::nanos).toArray(), p) / 1e6;
    }

    /** Nearest-rank percentile of {@code values} ({@code p} in (0, 100]); 0 for no values. */
    public static double percentile(long[] values, double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        }
        if (values.length == 0) {
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    @Override
    public String toString() {
        return "EvalRun[" + technique + " on " + dataset + ", " + results.size() + " queries]";
    }
}
