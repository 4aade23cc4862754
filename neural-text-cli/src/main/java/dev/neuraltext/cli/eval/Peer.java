package dev.neuraltext.cli.eval;

import dev.neuraltext.eval.EvalDocument;
import java.util.List;

/** A retrieval system we compare against, run in the same process on the same documents (eval and bench only). */
public interface Peer extends AutoCloseable {

    /** Ranked ids and how long encoding the query took (0 for lexical peers). */
    record Ranking(List<String> ids, long encodingNanos) {
    }

    /** The name the reports give it. */
    String name();

    /** One line on what it is, for the reports. */
    String description();

    /** Indexes the documents ({@code title + "\n" + text}); {@code progress} is told about each document. */
    void index(List<EvalDocument> documents, ProgressBar progress);

    /** The best {@code depth} ids for a query. */
    Ranking search(String query, int depth);

    /** Indexing details for the report (e.g. embeddings served from the cache), or empty. */
    default String indexNote() {
        return "";
    }

    @Override
    default void close() {
    }
}
