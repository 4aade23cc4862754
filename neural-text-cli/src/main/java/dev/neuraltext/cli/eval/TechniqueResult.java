package dev.neuraltext.cli.eval;

import dev.neuraltext.eval.EvalRun;

/**
 * The outcome of one technique or peer.
 *
 * @param name          the name in reports
 * @param kind          {@code neural-text} or {@code peer}
 * @param description   what it is
 * @param run           per-query metrics
 * @param totalNanos    per query (dataset order), the whole retrieval call, query encoding included
 * @param encodingNanos per query, the query encoding alone (0 for lexical techniques)
 * @param adaptive      the adaptive extension's report, or null when the technique does not extend
 */
record TechniqueResult(String name, String kind, String description, EvalRun run, long[] totalNanos,
        long[] encodingNanos, AdaptiveStats adaptive) {

    static final String NEURAL_TEXT = "neural-text";
    static final String PEER = "peer";

    double latencyMillis(double percentile) {
        return EvalRun.percentile(totalNanos, percentile) / 1e6;
    }

    double encodingMillis(double percentile) {
        return EvalRun.percentile(encodingNanos, percentile) / 1e6;
    }

    double meanLatencyMillis() {
        long sum = 0;
        for (long n : totalNanos) {
            sum += n;
        }
        return totalNanos.length == 0 ? 0 : sum / 1e6 / totalNanos.length;
    }

    boolean encodes() {
        for (long n : encodingNanos) {
            if (n > 0) {
                return true;
            }
        }
        return false;
    }

    TechniqueResult withAdaptive(AdaptiveStats stats) {
        return new TechniqueResult(name, kind, description, run, totalNanos, encodingNanos, stats);
    }
}
