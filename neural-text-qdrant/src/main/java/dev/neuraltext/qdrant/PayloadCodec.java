package dev.neuraltext.qdrant;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.filter.Payload;
import io.qdrant.client.grpc.JsonWithInt.ListValue;
import io.qdrant.client.grpc.JsonWithInt.Struct;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The payload layout of a point. Metadata keys sit at the top level so filters and payload indexes address them
 * directly; single values are scalars, list metadata are Qdrant list values; canonical integers are integer payload
 * (see {@link Payload}), every other value a string. Three reserved keys hold the chunk itself:
 * {@value #ID} (the chunk id), {@value #TEXT} (the text) and {@value #FIELDS} (the named BM25 fields, an object).
 * Stateless.
 */
final class PayloadCodec {

    static final String ID = "_chunk_id";
    static final String TEXT = "_text";
    static final String FIELDS = "_fields";
    static final Set<String> RESERVED = Set.of(ID, TEXT, FIELDS);

    private PayloadCodec() {
    }

    /** The payload of a chunk; a metadata key equal to a reserved key is rejected. */
    static Map<String, Value> encode(ChunkInput chunk) {
        Map<String, Value> payload = new LinkedHashMap<>();
        payload.put(ID, string(chunk.id()));
        payload.put(TEXT, string(chunk.text()));
        if (!chunk.fields().isEmpty()) {
            Struct.Builder fields = Struct.newBuilder();
            chunk.fields().forEach((k, v) -> fields.putFields(k, string(v)));
            payload.put(FIELDS, Value.newBuilder().setStructValue(fields).build());
        }
        chunk.metadata().forEach((k, v) -> payload.put(checkKey(k, chunk), scalar(v)));
        chunk.listMetadata().forEach((k, vs) -> {
            ListValue.Builder list = ListValue.newBuilder();
            for (String v : vs) {
                list.addValues(scalar(v));
            }
            payload.put(checkKey(k, chunk), Value.newBuilder().setListValue(list).build());
        });
        return payload;
    }

    private static String checkKey(String key, ChunkInput chunk) {
        if (RESERVED.contains(key)) {
            throw new IllegalArgumentException("metadata key '" + key + "' of chunk '" + chunk.id()
                    + "' is reserved by the Qdrant store (reserved: " + RESERVED + ")");
        }
        return key;
    }

    /** A metadata value: integer payload for a canonical integer, a string otherwise. */
    static Value scalar(String v) {
        return Payload.isCanonicalInteger(v) ? Value.newBuilder().setIntegerValue(Long.parseLong(v)).build() : string(v);
    }

    static Value string(String v) {
        return Value.newBuilder().setStringValue(v).build();
    }

    /** The chunk a payload describes (id, text, metadata, list metadata); null when the payload has no chunk id. */
    static Decoded decode(Map<String, Value> payload) {
        Value id = payload.get(ID);
        if (id == null || !id.hasStringValue()) {
            return null;
        }
        Value text = payload.get(TEXT);
        Map<String, String> metadata = new LinkedHashMap<>();
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (Map.Entry<String, Value> e : new java.util.TreeMap<>(payload).entrySet()) {
            if (RESERVED.contains(e.getKey())) {
                continue;
            }
            Value v = e.getValue();
            if (v.hasListValue()) {
                List<String> values = new ArrayList<>();
                for (Value x : v.getListValue().getValuesList()) {
                    String s = text(x);
                    if (s != null) {
                        values.add(s);
                    }
                }
                lists.put(e.getKey(), Collections.unmodifiableList(values));
            } else {
                String s = text(v);
                if (s != null) {
                    metadata.put(e.getKey(), s);
                }
            }
        }
        return new Decoded(id.getStringValue(), text == null ? "" : text.getStringValue(), metadata, lists);
    }

    /** A scalar as the string our metadata model holds; null for null, objects and nested lists. */
    private static String text(Value v) {
        switch (v.getKindCase()) {
            case STRING_VALUE:
                return v.getStringValue();
            case INTEGER_VALUE:
                return Long.toString(v.getIntegerValue());
            case DOUBLE_VALUE:
                return Double.toString(v.getDoubleValue());
            case BOOL_VALUE:
                return Boolean.toString(v.getBoolValue());
            default:
                return null;
        }
    }

    /** A decoded payload. */
    record Decoded(String id, String text, Map<String, String> metadata, Map<String, List<String>> listMetadata) {
    }
}
