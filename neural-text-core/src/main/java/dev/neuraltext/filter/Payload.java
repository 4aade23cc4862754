package dev.neuraltext.filter;

import dev.neuraltext.internal.Checks;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The filterable metadata of one chunk: single values and lists of values, as {@link PayloadFilter} sees them.
 *
 * <p>Values are strings. A value that is a canonical integer ({@code -?(0|[1-9][0-9]*)} within the range of a
 * {@code long}, see {@link #isCanonicalInteger(String)}) is also a number: {@link PayloadFilter.Range} conditions
 * compare such values numerically and ignore every other value. Stores keep this rule (the Qdrant store writes
 * canonical integers as integer payload), so a filter means the same thing in every store.
 *
 * @param metadata     single-valued fields
 * @param listMetadata multi-valued fields
 */
public record Payload(Map<String, String> metadata, Map<String, List<String>> listMetadata) {

    private static final Pattern CANONICAL_INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,18})");

    public Payload {
        metadata = Checks.stringMap(metadata, "metadata");
        listMetadata = Checks.listMap(listMetadata, "listMetadata");
    }

    /** A payload with no fields. */
    public static Payload empty() {
        return new Payload(Map.of(), Map.of());
    }

    /**
     * The values of {@code key}: one element for a single-valued field, the list for a list field, empty when the
     * field is absent.
     */
    public List<String> values(String key) {
        String single = metadata.get(key);
        if (single != null) {
            return List.of(single);
        }
        return listMetadata.getOrDefault(key, List.of());
    }

    /** Whether the payload has {@code key} at all (a list field that is empty still counts as present). */
    public boolean has(String key) {
        return metadata.containsKey(key) || listMetadata.containsKey(key);
    }

    /** Whether {@code value} is a canonical integer and therefore also a number for range conditions. */
    public static boolean isCanonicalInteger(String value) {
        if (value == null || !CANONICAL_INTEGER.matcher(value).matches()) {
            return false;
        }
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false; // 19 digits beyond Long.MAX_VALUE
        }
    }
}
