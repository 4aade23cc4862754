package dev.neuraltext.qdrant;

import io.qdrant.client.grpc.Common.Condition;
import io.qdrant.client.grpc.Common.FieldCondition;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.Match;
import io.qdrant.client.grpc.Common.Range;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.util.List;
import java.util.Map;

/**
 * Qdrant's evaluation of a {@link Filter} over a point's payload, written down from Qdrant's payload condition checker
 * (lib/segment, {@code ValueChecker for Match / Range}): a field condition on a list holds when it holds for some
 * element; a missing field fails every field condition; {@code except_*} holds for values of the other type and fails
 * for null; ranges look at numbers only; an empty {@code should} is no constraint.
 */
final class QdrantSemantics {

    private QdrantSemantics() {
    }

    static boolean test(Filter f, Map<String, Value> payload) {
        for (Condition c : f.getMustList()) {
            if (!test(c, payload)) {
                return false;
            }
        }
        for (Condition c : f.getMustNotList()) {
            if (test(c, payload)) {
                return false;
            }
        }
        if (f.getShouldCount() > 0) {
            for (Condition c : f.getShouldList()) {
                if (test(c, payload)) {
                    return true;
                }
            }
            return false;
        }
        return true;
    }

    static boolean test(Condition c, Map<String, Value> payload) {
        switch (c.getConditionOneOfCase()) {
            case FILTER:
                return test(c.getFilter(), payload);
            case IS_EMPTY: {
                Value v = payload.get(c.getIsEmpty().getKey());
                return v == null || v.hasNullValue() || v.hasListValue() && v.getListValue().getValuesCount() == 0;
            }
            case IS_NULL: {
                Value v = payload.get(c.getIsNull().getKey());
                return v != null && v.hasNullValue();
            }
            case FIELD:
                return field(c.getField(), payload);
            default:
                throw new IllegalArgumentException("not modelled: " + c);
        }
    }

    private static boolean field(FieldCondition fc, Map<String, Value> payload) {
        Value v = payload.get(fc.getKey());
        if (v == null) {
            return false;
        }
        List<Value> values = v.hasListValue() ? v.getListValue().getValuesList() : List.of(v);
        for (Value x : values) {
            if (fc.hasMatch() ? match(fc.getMatch(), x) : fc.hasRange() && range(fc.getRange(), x)) {
                return true;
            }
        }
        return false;
    }

    private static boolean match(Match m, Value x) {
        switch (m.getMatchValueCase()) {
            case KEYWORD:
                return x.hasStringValue() && x.getStringValue().equals(m.getKeyword());
            case INTEGER:
                return x.hasIntegerValue() && x.getIntegerValue() == m.getInteger();
            case TEXT:
                return x.hasStringValue() && x.getStringValue().contains(m.getText());
            case KEYWORDS:
                return x.hasStringValue() && m.getKeywords().getStringsList().contains(x.getStringValue());
            case INTEGERS:
                return x.hasIntegerValue() && m.getIntegers().getIntegersList().contains(x.getIntegerValue());
            case EXCEPT_KEYWORDS:
                if (x.hasNullValue()) {
                    return false;
                }
                return !x.hasStringValue() || !m.getExceptKeywords().getStringsList().contains(x.getStringValue());
            case EXCEPT_INTEGERS:
                if (x.hasNullValue()) {
                    return false;
                }
                return !x.hasIntegerValue() || !m.getExceptIntegers().getIntegersList().contains(x.getIntegerValue());
            default:
                throw new IllegalArgumentException("not modelled: " + m);
        }
    }

    private static boolean range(Range r, Value x) {
        double d;
        if (x.hasIntegerValue()) {
            d = x.getIntegerValue();
        } else if (x.hasDoubleValue()) {
            d = x.getDoubleValue();
        } else {
            return false;
        }
        return (!r.hasGt() || d > r.getGt()) && (!r.hasGte() || d >= r.getGte()) && (!r.hasLt() || d < r.getLt())
                && (!r.hasLte() || d <= r.getLte());
    }
}
