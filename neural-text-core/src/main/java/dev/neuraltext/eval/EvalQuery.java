package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.util.Map;

/**
 * One query of an evaluation dataset.
 *
 * @param id       the query id ({@code _id} in BEIR), non-blank
 * @param text     the query text
 * @param metadata scalar metadata values as strings, used for slicing (e.g. {@code type} = {@code nl} or {@code kw})
 */
public record EvalQuery(String id, String text, Map<String, String> metadata) {

    public EvalQuery {
        Checks.notBlank(id, "id");
        Checks.notNull(text, "text (query '" + id + "')");
        metadata = Checks.stringMap(metadata, "metadata");
    }

    /** A query without metadata. */
    public static EvalQuery of(String id, String text) {
        return new EvalQuery(id, text, Map.of());
    }
}
