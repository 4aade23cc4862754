package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Graded relevance judgments: for each query id, the judged document ids and their grade. A grade of 1 or more means
 * relevant, {@value #HIGHLY_RELEVANT} or more highly relevant, 0 or less judged not relevant; a document absent from a
 * query's judgments is unjudged. Immutable and thread-safe.
 */
public final class Qrels {

    /** The grade from which a document counts as highly relevant. */
    public static final int HIGHLY_RELEVANT = 2;

    private final Map<String, Map<String, Integer>> judgments;

    private Qrels(Map<String, Map<String, Integer>> judgments) {
        this.judgments = judgments;
    }

    /** Judgments from a map of query id to (document id to grade); copied. */
    public static Qrels of(Map<String, Map<String, Integer>> judgments) {
        Checks.notNull(judgments, "judgments");
        Map<String, Map<String, Integer>> copy = new LinkedHashMap<>();
        judgments.forEach((q, docs) -> {
            Checks.notBlank(q, "query id");
            Checks.notNull(docs, "judgments of query '" + q + "'");
            Map<String, Integer> d = new LinkedHashMap<>();
            docs.forEach((doc, grade) -> {
                Checks.notBlank(doc, "document id (query '" + q + "')");
                Checks.notNull(grade, "grade of '" + doc + "' (query '" + q + "')");
                d.put(doc, grade);
            });
            copy.put(q, Collections.unmodifiableMap(d));
        });
        return new Qrels(Collections.unmodifiableMap(copy));
    }

    /** The judgments of one query (document id to grade), empty when the query has none. */
    public Map<String, Integer> judgments(String queryId) {
        return judgments.getOrDefault(queryId, Map.of());
    }

    /** The grade of a document for a query, or null when unjudged. */
    public Integer grade(String queryId, String documentId) {
        return judgments(queryId).get(documentId);
    }

    /** Whether the query has at least one document graded 1 or more. */
    public boolean hasRelevant(String queryId) {
        for (int g : judgments(queryId).values()) {
            if (g >= 1) {
                return true;
            }
        }
        return false;
    }

    /** The judged query ids. */
    public Set<String> queryIds() {
        return judgments.keySet();
    }

    /** The number of (query, document) judgments. */
    public int size() {
        int n = 0;
        for (Map<String, Integer> m : judgments.values()) {
            n += m.size();
        }
        return n;
    }

    /** All judgments, query id to (document id to grade); unmodifiable. */
    public Map<String, Map<String, Integer>> asMap() {
        return judgments;
    }

    @Override
    public String toString() {
        return "Qrels[" + judgments.size() + " queries, " + size() + " judgments]";
    }
}
