package dev.neuraltext.filter;

import dev.neuraltext.internal.Checks;
import java.util.List;
import java.util.Objects;

/**
 * An immutable filter over chunk metadata with Qdrant's semantics, evaluated in Java by the embedded store and
 * translated one to one into Qdrant's {@code Filter} by the Qdrant store.
 *
 * <ul>
 *   <li>{@link Must}: every child matches; {@link Should}: at least one child matches; {@link MustNot}: no child
 *       matches. An empty {@link Must} matches everything ({@link #all()}).</li>
 *   <li>{@link MatchKeyword}, {@link MatchAny}, {@link Range}: a list field matches when any element does; an absent
 *       field never matches.</li>
 *   <li>{@link MatchText}: some value that is not a canonical integer contains the text as a substring (Qdrant
 *       stores canonical integers as numbers, and its text match never matches a number).</li>
 *   <li>{@link MatchExcept}: the field is present and has at least one value outside the given values.</li>
 *   <li>{@link IsEmpty}: the field is absent or an empty list (in Qdrant also a null value). {@link IsNull}: the field
 *       is present with a null value, which chunk metadata cannot hold, so in the embedded store it never matches; it
 *       exists for Qdrant collections written by other tools.</li>
 *   <li>{@link Range} compares canonical integer values only (see {@link Payload}).</li>
 * </ul>
 *
 * <p><b>Empty clauses</b>: an empty {@link Must} matches everything, an empty {@link MustNot} matches everything and an
 * empty {@link Should} matches nothing (as in Qdrant's REST API). Qdrant's gRPC API drops empty clauses, which would
 * turn an empty should into "match everything", so the Qdrant converter must translate an empty {@link Should}
 * explicitly (for example by simplifying the tree: a must containing it matches nothing).
 *
 * <p>Build filters with the static factories, e.g.
 * {@code must(matchKeyword("type", "method"), matchAny("tags", "http", "retry"), mustNot(matchKeyword("path", "test")))},
 * or parse the compact text syntax with {@link #parse(String)} and write it back with {@link #toSyntax()}. Instances are
 * immutable and thread-safe.
 */
public sealed interface PayloadFilter {

    /** Whether {@code payload} satisfies this filter. */
    boolean test(Payload payload);

    /**
     * Calls the method of {@code visitor} for this node's type: the exhaustive dispatch over the filter tree. A new
     * node type adds a method to {@link Visitor}, so every visitor (the Qdrant converter among them) stops compiling
     * until it handles the new node.
     */
    <R> R accept(Visitor<R> visitor);

    /**
     * One method per node type of the filter tree, for translations that must cover every node (to another engine's
     * filter, to text). Implementations are usually stateless.
     *
     * @param <R> what a node translates to
     */
    interface Visitor<R> {
        /** A conjunction. */
        R must(Must filter);

        /** A disjunction. */
        R should(Should filter);

        /** A negated conjunction. */
        R mustNot(MustNot filter);

        /** An exact value. */
        R matchKeyword(MatchKeyword filter);

        /** A substring. */
        R matchText(MatchText filter);

        /** Any of several values. */
        R matchAny(MatchAny filter);

        /** Present with a value outside a list. */
        R matchExcept(MatchExcept filter);

        /** A numeric range. */
        R range(Range filter);

        /** Absent, null or empty. */
        R isEmpty(IsEmpty filter);

        /** Present and null. */
        R isNull(IsNull filter);
    }

    /** Every child must match. */
    record Must(List<PayloadFilter> filters) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.must(this);
        }

        public Must {
            filters = copyChildren(filters, "must");
        }

        @Override
        public boolean test(Payload payload) {
            for (PayloadFilter f : filters) {
                if (!f.test(payload)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** At least one child must match (an empty list matches nothing). */
    record Should(List<PayloadFilter> filters) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.should(this);
        }

        public Should {
            filters = copyChildren(filters, "should");
        }

        @Override
        public boolean test(Payload payload) {
            for (PayloadFilter f : filters) {
                if (f.test(payload)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** No child may match. */
    record MustNot(List<PayloadFilter> filters) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.mustNot(this);
        }

        public MustNot {
            filters = copyChildren(filters, "mustNot");
        }

        @Override
        public boolean test(Payload payload) {
            for (PayloadFilter f : filters) {
                if (f.test(payload)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The field has exactly this value (a list field: some element does). */
    record MatchKeyword(String key, String value) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.matchKeyword(this);
        }

        public MatchKeyword {
            Checks.notBlank(key, "key");
            Checks.notNull(value, "value");
        }

        @Override
        public boolean test(Payload payload) {
            return payload.values(key).contains(value);
        }
    }

    /**
     * The field contains {@code text} as a substring (a list field: some element does). Translated to Qdrant's
     * {@code match: {text}}, which is a substring match on fields without a full-text index, so the stores agree
     * as long as no full-text index is created on the field. Canonical integer values are numbers in Qdrant, where a
     * text match never matches them, so they never match here either.
     */
    record MatchText(String key, String text) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.matchText(this);
        }

        public MatchText {
            Checks.notBlank(key, "key");
            Checks.notNull(text, "text");
        }

        @Override
        public boolean test(Payload payload) {
            for (String v : payload.values(key)) {
                if (v.contains(text) && !Payload.isCanonicalInteger(v)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The field has one of these values (a list field: some element does). */
    record MatchAny(String key, List<String> values) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.matchAny(this);
        }

        public MatchAny {
            Checks.notBlank(key, "key");
            values = copyValues(values, "values");
        }

        @Override
        public boolean test(Payload payload) {
            for (String v : payload.values(key)) {
                if (values.contains(v)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The field is present and has a value that is none of these (a list field: some element is none of them). */
    record MatchExcept(String key, List<String> values) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.matchExcept(this);
        }

        public MatchExcept {
            Checks.notBlank(key, "key");
            values = copyValues(values, "values");
        }

        @Override
        public boolean test(Payload payload) {
            for (String v : payload.values(key)) {
                if (!values.contains(v)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * The field holds a canonical integer within the bounds; a null bound is open. A list field matches when some
     * element does.
     */
    record Range(String key, Double gt, Double gte, Double lt, Double lte) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.range(this);
        }

        public Range {
            Checks.notBlank(key, "key");
            if (gt == null && gte == null && lt == null && lte == null) {
                throw new IllegalArgumentException("range on '" + key + "' needs at least one bound");
            }
            for (Double d : new Double[] {gt, gte, lt, lte}) {
                if (d != null && d.isNaN()) {
                    throw new IllegalArgumentException("range bound on '" + key + "' must not be NaN");
                }
            }
        }

        @Override
        public boolean test(Payload payload) {
            for (String v : payload.values(key)) {
                if (Payload.isCanonicalInteger(v) && inRange(Long.parseLong(v))) {
                    return true;
                }
            }
            return false;
        }

        private boolean inRange(double x) {
            return (gt == null || x > gt) && (gte == null || x >= gte) && (lt == null || x < lt)
                    && (lte == null || x <= lte);
        }
    }

    /** The field is absent or an empty list. */
    record IsEmpty(String key) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.isEmpty(this);
        }

        public IsEmpty {
            Checks.notBlank(key, "key");
        }

        @Override
        public boolean test(Payload payload) {
            return payload.values(key).isEmpty();
        }
    }

    /** The field is present with a null value; chunk metadata cannot hold null, so the embedded store never matches. */
    record IsNull(String key) implements PayloadFilter {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.isNull(this);
        }

        public IsNull {
            Checks.notBlank(key, "key");
        }

        @Override
        public boolean test(Payload payload) {
            return false;
        }
    }

    // ---- factories, meant for static import ----

    /** The filter that matches everything. */
    static PayloadFilter all() {
        return new Must(List.of());
    }

    /** Whether this filter is {@link #all()} (an empty {@link Must}). */
    default boolean matchesAll() {
        return this instanceof Must m && m.filters().isEmpty();
    }

    static PayloadFilter must(PayloadFilter... filters) {
        return new Must(List.of(filters));
    }

    /**
     * The conjunction of {@code filters}, leaving out those that match everything: {@link #all()} when none is left,
     * the one left as is, else a {@link #must} of them. What combining a fixed filter with a per-query one needs.
     */
    static PayloadFilter allOf(List<PayloadFilter> filters) {
        List<PayloadFilter> kept = new java.util.ArrayList<>(filters.size());
        for (PayloadFilter f : filters) {
            if (!java.util.Objects.requireNonNull(f, "filter").matchesAll()) {
                kept.add(f);
            }
        }
        return kept.isEmpty() ? all() : kept.size() == 1 ? kept.get(0) : new Must(List.copyOf(kept));
    }

    static PayloadFilter should(PayloadFilter... filters) {
        return new Should(List.of(filters));
    }

    static PayloadFilter mustNot(PayloadFilter... filters) {
        return new MustNot(List.of(filters));
    }

    static PayloadFilter matchKeyword(String key, String value) {
        return new MatchKeyword(key, value);
    }

    static PayloadFilter matchText(String key, String text) {
        return new MatchText(key, text);
    }

    static PayloadFilter matchAny(String key, String... values) {
        return new MatchAny(key, List.of(values));
    }

    static PayloadFilter matchExcept(String key, String... values) {
        return new MatchExcept(key, List.of(values));
    }

    /** {@code gte <= value <= lte}; either bound may be null. */
    static PayloadFilter between(String key, Double gte, Double lte) {
        return new Range(key, null, gte, null, lte);
    }

    static PayloadFilter range(String key, Double gt, Double gte, Double lt, Double lte) {
        return new Range(key, gt, gte, lt, lte);
    }

    static PayloadFilter isEmpty(String key) {
        return new IsEmpty(key);
    }

    static PayloadFilter isNull(String key) {
        return new IsNull(key);
    }

    /**
     * Parses the compact text syntax, e.g. {@code type == 'method' and tags in ['http','retry'] and not path ~ 'test'}.
     * The grammar is in the {@linkplain dev.neuraltext.filter package documentation}.
     *
     * @throws IllegalArgumentException with the column and what was expected, if {@code text} is malformed
     */
    static PayloadFilter parse(String text) {
        return FilterParser.parse(text);
    }

    /**
     * This filter in the compact text syntax of {@link #parse(String)}; parsing the result gives back an equivalent
     * filter (an equal one for every filter the parser produces).
     */
    default String toSyntax() {
        return FilterFormatter.format(this);
    }

    private static List<PayloadFilter> copyChildren(List<PayloadFilter> filters, String field) {
        Objects.requireNonNull(filters, field);
        for (int i = 0; i < filters.size(); i++) {
            if (filters.get(i) == null) {
                throw new NullPointerException(field + "[" + i + "] must not be null");
            }
        }
        return List.copyOf(filters);
    }

    private static List<String> copyValues(List<String> values, String field) {
        Checks.notNull(values, field);
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                throw new NullPointerException(field + "[" + i + "] must not be null");
            }
        }
        return List.copyOf(values);
    }
}
