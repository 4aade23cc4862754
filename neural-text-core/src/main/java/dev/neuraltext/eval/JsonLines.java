package dev.neuraltext.eval;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads one JSON Lines record with Jackson's streaming parser: top-level scalars and one nested object of scalars. */
final class JsonLines {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonLines() {
    }

    /** One parsed line: its top-level scalar fields as strings and the scalars of its {@code metadata} object. */
    record Line(Map<String, String> fields, Map<String, String> metadata) {
    }

    /**
     * Parses one line.
     *
     * @throws IllegalArgumentException with a message saying what is wrong (the caller adds file and line)
     */
    static Line parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        try (JsonParser p = FACTORY.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("expected a JSON object");
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if ("metadata".equals(name) && v == JsonToken.START_OBJECT) {
                    readScalars(p, metadata);
                } else if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                    p.skipChildren();
                } else if (v != JsonToken.VALUE_NULL) {
                    fields.put(name, p.getText());
                }
            }
            if (t != JsonToken.END_OBJECT) {
                throw new IllegalArgumentException("malformed JSON object");
            }
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("unexpected content after the JSON object");
            }
        } catch (JsonParseException e) {
            throw new IllegalArgumentException("malformed JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed JSON: " + e.getMessage(), e);
        }
        return new Line(fields, metadata);
    }

    private static void readScalars(JsonParser p, Map<String, String> into) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                p.skipChildren();
            } else if (v != JsonToken.VALUE_NULL && !name.isBlank()) {
                into.put(name, p.getText());
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new IllegalArgumentException("malformed metadata object");
        }
    }
}
