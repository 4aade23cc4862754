package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Evaluates a retrieval function (query to ranked document ids, best first) on a dataset: calls it once per query,
 * maps the returned ids to canonical ids, scores them with the {@link MetricSuite} and times each call.
 *
 * <pre>{@code
 * EvalDataset data = BeirDataset.load(Path.of("datasets/commons-lang"));
 * EvalRun run = EvalRunner.defaults().run("bm25", data, q -> myIndex.search(q.text(), 100));
 * double mrr = run.overall().mean("mrr@10");
 * Map<String, Summary> byType = run.bySlice("type");
 * }</pre>
 *
 * <p>Defaults: {@link MetricSuite#defaults()}, no warm-up. Immutable and thread-safe; queries run one at a time on the
 * calling thread, so latencies are not disturbed by each other.
 */
public final class EvalRunner {

    /** Told after every query; for progress bars. */
    @FunctionalInterface
    public interface ProgressListener {
        /** {@code done} of {@code total} queries have run. */
        void onProgress(int done, int total);
    }

    private final MetricSuite suite;
    private final int warmup;

    private EvalRunner(MetricSuite suite, int warmup) {
        this.suite = suite;
        this.warmup = warmup;
    }

    /** The default runner. */
    public static EvalRunner defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The metrics this runner computes. */
    public MetricSuite suite() {
        return suite;
    }

    /** Runs every query of the dataset. */
    public EvalRun run(String technique, EvalDataset dataset, Function<EvalQuery, List<String>> retrieval) {
        return run(technique, dataset, retrieval, (done, total) -> { });
    }

    /**
     * Runs every query of the dataset, after calling the function on the first {@code warmup} queries unscored.
     *
     * @throws IllegalStateException when the function returns null for a query
     */
    public EvalRun run(String technique, EvalDataset dataset, Function<EvalQuery, List<String>> retrieval,
            ProgressListener progress) {
        Checks.notBlank(technique, "technique");
        Checks.notNull(dataset, "dataset");
        Checks.notNull(retrieval, "retrieval");
        Checks.notNull(progress, "progress");
        List<EvalQuery> queries = dataset.queries();
        for (int i = 0; i < Math.min(warmup, queries.size()); i++) {
            retrieval.apply(queries.get(i));
        }
        List<QueryResult> results = new ArrayList<>(queries.size());
        for (EvalQuery q : queries) {
            long start = System.nanoTime();
            List<String> ranked = retrieval.apply(q);
            long nanos = System.nanoTime() - start;
            if (ranked == null) {
                throw new IllegalStateException("retrieval '" + technique + "' returned null for query '" + q.id()
                        + "'");
            }
            results.add(score(dataset, q, ranked, nanos));
            progress.onProgress(results.size(), queries.size());
        }
        return new EvalRun(technique, dataset.name(), suite, results);
    }

    /** Scores one ranking of one query: for harnesses that call the retrieval themselves. */
    public QueryResult score(EvalDataset dataset, EvalQuery query, List<String> ranked, long nanos) {
        List<String> canonical = new ArrayList<>(ranked.size());
        Set<String> seen = new HashSet<>();
        for (String id : ranked) {
            String c = dataset.canonicalId(Checks.notNull(id, "retrieved id (query '" + query.id() + "')"));
            if (seen.add(c)) {
                canonical.add(c);
            }
        }
        Map<String, Integer> grades = dataset.judgments(query);
        return new QueryResult(query, canonical, ranked.size(), suite.score(canonical, grades), nanos);
    }

    /** Builder; defaults: {@link MetricSuite#defaults()}, warm-up 0 queries. */
    public static final class Builder {
        private MetricSuite suite = MetricSuite.defaults();
        private int warmup;

        private Builder() {
        }

        public Builder metrics(MetricSuite suite) {
            this.suite = Checks.notNull(suite, "suite");
            return this;
        }

        /** How many queries to run unscored first, so latencies are measured warm; default 0. */
        public Builder warmup(int queries) {
            if (queries < 0) {
                throw new IllegalArgumentException("warmup must be >= 0, got " + queries);
            }
            this.warmup = queries;
            return this;
        }

        public EvalRunner build() {
            return new EvalRunner(suite, warmup);
        }
    }
}
