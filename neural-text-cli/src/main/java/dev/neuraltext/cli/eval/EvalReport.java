package dev.neuraltext.cli.eval;

import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.HeadToHead;
import dev.neuraltext.eval.MetricSuite;
import java.util.List;
import java.util.Map;

/**
 * Everything one {@code neural-text eval} run produced.
 *
 * @param dataset    the dataset
 * @param settings   what ran
 * @param suite      the metrics
 * @param meta       run metadata (dataset, commit, cores, date, models, ...), in report order
 * @param indexing   indexing time per system
 * @param results    per technique and peer, in run order
 * @param headToHead comparisons with the baseline
 */
record EvalReport(EvalDataset dataset, EvalSettings settings, MetricSuite suite, Map<String, Object> meta,
        List<Indexing> indexing, List<TechniqueResult> results, List<HeadToHead.Result> headToHead) {

    /**
     * Indexing of one system.
     *
     * @param name      neural-text or a peer name
     * @param documents documents indexed
     * @param seconds   wall time
     * @param note      e.g. embeddings served from the cache
     */
    record Indexing(String name, int documents, double seconds, String note) {
        double documentsPerSecond() {
            return seconds <= 0 ? 0 : documents / seconds;
        }
    }

    TechniqueResult result(String name) {
        for (TechniqueResult r : results) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        return null;
    }
}
