package dev.neuraltext.qdrant;

import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import io.qdrant.client.grpc.Common.Condition;
import io.qdrant.client.grpc.Common.FieldCondition;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.IsEmptyCondition;
import io.qdrant.client.grpc.Common.IsNullCondition;
import io.qdrant.client.grpc.Common.Match;
import io.qdrant.client.grpc.Common.Range;
import io.qdrant.client.grpc.Common.RepeatedIntegers;
import io.qdrant.client.grpc.Common.RepeatedStrings;
import java.util.ArrayList;
import java.util.List;

/**
 * Translates a {@link PayloadFilter} into Qdrant's {@link Filter}, node for node, so that Qdrant selects exactly the
 * chunks the embedded store's {@link PayloadFilter#test} selects.
 *
 * <p>The store writes metadata values that are canonical integers ({@link Payload#isCanonicalInteger}) as integer
 * payload and every other value as a string, so a value is matched with Qdrant's {@code integer} match when it is a
 * canonical integer and with {@code keyword} otherwise; {@link PayloadFilter.MatchAny} and
 * {@link PayloadFilter.MatchExcept} split their values the same way. Known, documented gaps:
 * <ul>
 *   <li>{@link PayloadFilter.MatchText} never matches integer payload in Qdrant (substring of a number), while the
 *       embedded store matches the decimal string;</li>
 *   <li>{@link PayloadFilter.MatchExcept} whose values mix integers and strings, on a list field whose elements also mix
 *       them, is evaluated per type in Qdrant (both checks must hold, each on some element) rather than per element.</li>
 * </ul>
 * An empty {@link PayloadFilter.Should} matches nothing in our model but everything in Qdrant, so it becomes
 * {@code must_not: [ {} ]} (not everything). Stateless; the methods are pure functions.
 */
final class QdrantFilterConverter {

    private QdrantFilterConverter() {
    }

    /** The Qdrant filter for {@code filter}; {@link PayloadFilter#all()} becomes the empty filter. */
    static Filter toFilter(PayloadFilter filter) {
        return filter.accept(TO_FILTER);
    }

    /** The condition for one node: a nested filter for boolean nodes, a field condition for leaves. */
    static Condition condition(PayloadFilter filter) {
        return filter.accept(TO_CONDITION);
    }

    /** Boolean nodes become a filter of their own; a leaf becomes a filter that must match its condition. */
    private static final PayloadFilter.Visitor<Filter> TO_FILTER = new LeafVisitor<>() {
        @Override
        public Filter must(PayloadFilter.Must f) {
            return Filter.newBuilder().addAllMust(conditions(f.filters())).build();
        }

        @Override
        public Filter should(PayloadFilter.Should f) {
            return f.filters().isEmpty() ? matchNothing()
                    : Filter.newBuilder().addAllShould(conditions(f.filters())).build();
        }

        @Override
        public Filter mustNot(PayloadFilter.MustNot f) {
            return Filter.newBuilder().addAllMustNot(conditions(f.filters())).build();
        }

        @Override
        Filter leaf(Condition condition) {
            return Filter.newBuilder().addMust(condition).build();
        }
    };

    private static final PayloadFilter.Visitor<Condition> TO_CONDITION = new LeafVisitor<>() {
        @Override
        public Condition must(PayloadFilter.Must f) {
            return nested(TO_FILTER.must(f));
        }

        @Override
        public Condition should(PayloadFilter.Should f) {
            return nested(TO_FILTER.should(f));
        }

        @Override
        public Condition mustNot(PayloadFilter.MustNot f) {
            return nested(TO_FILTER.mustNot(f));
        }

        @Override
        Condition leaf(Condition condition) {
            return condition;
        }
    };

    /** The leaves' conditions, shared by both visitors; a subclass says what a leaf's condition becomes. */
    private abstract static class LeafVisitor<R> implements PayloadFilter.Visitor<R> {

        abstract R leaf(Condition condition);

        @Override
        public R matchKeyword(PayloadFilter.MatchKeyword m) {
            return leaf(field(m.key(), matchValue(m.value())));
        }

        @Override
        public R matchText(PayloadFilter.MatchText m) {
            return leaf(field(m.key(), Match.newBuilder().setText(m.text()).build()));
        }

        @Override
        public R matchAny(PayloadFilter.MatchAny m) {
            return leaf(QdrantFilterConverter.matchAny(m.key(), m.values()));
        }

        @Override
        public R matchExcept(PayloadFilter.MatchExcept m) {
            return leaf(QdrantFilterConverter.matchExcept(m.key(), m.values()));
        }

        @Override
        public R range(PayloadFilter.Range r) {
            Range.Builder range = Range.newBuilder();
            if (r.gt() != null) {
                range.setGt(r.gt());
            }
            if (r.gte() != null) {
                range.setGte(r.gte());
            }
            if (r.lt() != null) {
                range.setLt(r.lt());
            }
            if (r.lte() != null) {
                range.setLte(r.lte());
            }
            return leaf(Condition.newBuilder()
                    .setField(FieldCondition.newBuilder().setKey(r.key()).setRange(range)).build());
        }

        @Override
        public R isEmpty(PayloadFilter.IsEmpty f) {
            return leaf(Condition.newBuilder().setIsEmpty(IsEmptyCondition.newBuilder().setKey(f.key())).build());
        }

        @Override
        public R isNull(PayloadFilter.IsNull f) {
            return leaf(Condition.newBuilder().setIsNull(IsNullCondition.newBuilder().setKey(f.key())).build());
        }
    }

    /** {@code must_not: [ {} ]}: the empty filter matches every point, so its negation matches none. */
    static Filter matchNothing() {
        return Filter.newBuilder().addMustNot(nested(Filter.getDefaultInstance())).build();
    }

    private static List<Condition> conditions(List<PayloadFilter> filters) {
        List<Condition> out = new ArrayList<>(filters.size());
        for (PayloadFilter f : filters) {
            out.add(condition(f));
        }
        return out;
    }

    private static Match matchValue(String value) {
        return Payload.isCanonicalInteger(value)
                ? Match.newBuilder().setInteger(Long.parseLong(value)).build()
                : Match.newBuilder().setKeyword(value).build();
    }

    private static Condition matchAny(String key, List<String> values) {
        if (values.isEmpty()) {
            return nested(matchNothing()); // our empty "any" matches nothing; Qdrant may reject an empty list
        }
        List<String> keywords = new ArrayList<>();
        List<Long> integers = new ArrayList<>();
        split(values, keywords, integers);
        Condition kw = field(key, Match.newBuilder().setKeywords(RepeatedStrings.newBuilder().addAllStrings(keywords))
                .build());
        Condition in = field(key, Match.newBuilder().setIntegers(RepeatedIntegers.newBuilder().addAllIntegers(integers))
                .build());
        if (integers.isEmpty()) {
            return kw;
        }
        if (keywords.isEmpty()) {
            return in;
        }
        return nested(Filter.newBuilder().addShould(kw).addShould(in).build());
    }

    private static Condition matchExcept(String key, List<String> values) {
        List<String> keywords = new ArrayList<>();
        List<Long> integers = new ArrayList<>();
        split(values, keywords, integers);
        Condition kw = field(key, Match.newBuilder()
                .setExceptKeywords(RepeatedStrings.newBuilder().addAllStrings(keywords)).build());
        Condition in = field(key, Match.newBuilder()
                .setExceptIntegers(RepeatedIntegers.newBuilder().addAllIntegers(integers)).build());
        if (integers.isEmpty()) {
            return kw; // the empty list: any present value matches, as in the embedded store
        }
        if (keywords.isEmpty()) {
            return in;
        }
        // A string value passes except_integers and an integer value passes except_keywords, so requiring both keeps
        // exactly the values outside the list (per element for single values and single-typed lists).
        return nested(Filter.newBuilder().addMust(kw).addMust(in).build());
    }

    private static void split(List<String> values, List<String> keywords, List<Long> integers) {
        for (String v : values) {
            if (Payload.isCanonicalInteger(v)) {
                integers.add(Long.parseLong(v));
            } else {
                keywords.add(v);
            }
        }
    }

    private static Condition field(String key, Match match) {
        return Condition.newBuilder().setField(FieldCondition.newBuilder().setKey(key).setMatch(match)).build();
    }

    private static Condition nested(Filter filter) {
        return Condition.newBuilder().setFilter(filter).build();
    }
}
