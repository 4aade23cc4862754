package dev.neuraltext.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The recursive-descent parser of the filter syntax documented in {@code package-info.java} (the grammar, precedence,
 * keywords, errors with a 1-based column). Nesting deeper than {@value #MAX_DEPTH} levels is rejected. One instance
 * parses one text; {@link #parse(String)} is stateless and thread-safe.
 */
final class FilterParser {

    /** Deepest nesting of parentheses and {@code not}s accepted. */
    static final int MAX_DEPTH = 200;

    /** The reserved words of the syntax, lower case. */
    static final Set<String> KEYWORDS =
            Set.of("and", "or", "not", "in", "except", "is", "empty", "null", "true", "false");

    /**
     * Parses {@code text}; see the class documentation for the grammar.
     *
     * @throws IllegalArgumentException with the column and what was expected, if {@code text} is null or malformed
     */
    static PayloadFilter parse(String text) {
        if (text == null) {
            throw new NullPointerException("filter text must not be null");
        }
        return new FilterParser(text).parseFilter();
    }

    private static final String VALUE = "a value (a quoted string or a number)";

    private final String text;
    private final List<FilterToken> tokens;
    private int i;
    private int depth;

    private FilterParser(String text) {
        this.text = text;
        this.tokens = new FilterLexer(text).tokens();
    }

    PayloadFilter parseFilter() {
        if (peek().kind() == FilterToken.Kind.EOF) {
            return PayloadFilter.all();
        }
        PayloadFilter f = parseOr();
        if (peek().kind() != FilterToken.Kind.EOF) {
            throw error(peek(), peek().kind() == FilterToken.Kind.RPAREN ? "'and', 'or' or end of input (this ')' closes "
                    + "nothing)" : "'and', 'or' or end of input");
        }
        return f;
    }

    private PayloadFilter parseOr() {
        List<PayloadFilter> operands = new ArrayList<>();
        operands.add(parseAnd());
        while (peek().isKeyword("or")) {
            i++;
            operands.add(parseAnd());
        }
        return operands.size() == 1 ? operands.get(0) : new PayloadFilter.Should(operands);
    }

    private PayloadFilter parseAnd() {
        List<PayloadFilter> operands = new ArrayList<>();
        operands.add(parseUnary());
        while (peek().isKeyword("and")) {
            i++;
            operands.add(parseUnary());
        }
        return operands.size() == 1 ? operands.get(0) : new PayloadFilter.Must(operands);
    }

    private PayloadFilter parseUnary() {
        FilterToken t = peek();
        if (++depth > MAX_DEPTH) {
            throw new IllegalArgumentException("column " + column(t.start()) + ": filter nested deeper than "
                    + MAX_DEPTH + " levels");
        }
        try {
            if (t.isKeyword("not")) {
                i++;
                return new PayloadFilter.MustNot(List.of(parseUnary()));
            }
            if (t.kind() == FilterToken.Kind.LPAREN) {
                i++;
                PayloadFilter inner = parseOr();
                expect(FilterToken.Kind.RPAREN, "')' to close the '(' at column " + column(t.start()) + " (or 'and', 'or')");
                return inner;
            }
            if (t.isKeyword("true")) {
                i++;
                return PayloadFilter.all();
            }
            if (t.isKeyword("false")) {
                i++;
                return new PayloadFilter.Should(List.of());
            }
            if (t.kind() == FilterToken.Kind.NUMBER) {
                return parseTwoSidedRange();
            }
            return parseCondition();
        } finally {
            depth--;
        }
    }

    private PayloadFilter parseCondition() {
        String key = parseKey("a condition (a field name, 'not', '(', 'true' or 'false')");
        FilterToken op = next();
        switch (op.kind()) {
            case EQ:
                return new PayloadFilter.MatchKeyword(key, parseValue("after '=='"));
            case NE:
                return PayloadFilter.mustNot(new PayloadFilter.MatchKeyword(key, parseValue("after '!='")));
            case TILDE:
                return new PayloadFilter.MatchText(key,
                        expect(FilterToken.Kind.STRING, "a quoted string after '~'").text());
            case LT:
                return range(key, null, null, parseBound("'<'"), null);
            case LE:
                return range(key, null, null, null, parseBound("'<='"));
            case GT:
                return range(key, parseBound("'>'"), null, null, null);
            case GE:
                return range(key, null, parseBound("'>='"), null, null);
            default:
                break;
        }
        if (op.isKeyword("in")) {
            return new PayloadFilter.MatchAny(key, parseList("'in'"));
        }
        if (op.isKeyword("except")) {
            return new PayloadFilter.MatchExcept(key, parseList("'except'"));
        }
        if (op.isKeyword("not")) {
            FilterToken in = next();
            if (!in.isKeyword("in")) {
                throw error(in, "'in' after 'not'");
            }
            return PayloadFilter.mustNot(new PayloadFilter.MatchAny(key, parseList("'not in'")));
        }
        if (op.isKeyword("is")) {
            boolean negated = false;
            FilterToken what = next();
            if (what.isKeyword("not")) {
                negated = true;
                what = next();
            }
            PayloadFilter f;
            if (what.isKeyword("empty")) {
                f = new PayloadFilter.IsEmpty(key);
            } else if (what.isKeyword("null")) {
                f = new PayloadFilter.IsNull(key);
            } else {
                throw error(what, negated ? "'empty' or 'null' after 'is not'" : "'empty', 'null' or 'not' after 'is'");
            }
            return negated ? PayloadFilter.mustNot(f) : f;
        }
        throw error(op, "an operator after the field " + quote(key)
                + " (==, !=, in, not in, except, ~, <, <=, >, >=, is)");
    }

    /** {@code number ('<' | '<=') key ('<' | '<=') number}. */
    private PayloadFilter parseTwoSidedRange() {
        FilterToken loTok = next();
        double lo = bound(loTok);
        FilterToken op1 = next();
        if (op1.kind() != FilterToken.Kind.LT && op1.kind() != FilterToken.Kind.LE) {
            throw error(op1, "'<' or '<=' after the number " + loTok.text() + " (ranges read low <= field < high)");
        }
        String key = parseKey("a field name after " + quote(op1.text()));
        FilterToken op2 = next();
        if (op2.kind() != FilterToken.Kind.LT && op2.kind() != FilterToken.Kind.LE) {
            throw error(op2, "'<' or '<=' after the field " + quote(key));
        }
        double hi = parseBound(quote(op2.text()));
        return range(key, op1.kind() == FilterToken.Kind.LT ? lo : null, op1.kind() == FilterToken.Kind.LE ? lo : null,
                op2.kind() == FilterToken.Kind.LT ? hi : null, op2.kind() == FilterToken.Kind.LE ? hi : null);
    }

    private static PayloadFilter range(String key, Double gt, Double gte, Double lt, Double lte) {
        return new PayloadFilter.Range(key, gt, gte, lt, lte);
    }

    private String parseKey(String expected) {
        FilterToken t = next();
        if (t.kind() == FilterToken.Kind.IDENT && !KEYWORDS.contains(t.text().toLowerCase(Locale.ROOT))) {
            return t.text();
        }
        if (t.kind() == FilterToken.Kind.STRING) {
            if (t.text().isBlank()) {
                throw error(t, "a non-blank field name");
            }
            return t.text();
        }
        throw error(t, expected);
    }

    private String parseValue(String where) {
        FilterToken t = next();
        if (t.kind() == FilterToken.Kind.STRING || t.kind() == FilterToken.Kind.NUMBER) {
            return t.text();
        }
        throw error(t, VALUE + " " + where + (t.kind() == FilterToken.Kind.IDENT ? " (quote text values: '" + t.text() + "')"
                : ""));
    }

    private double parseBound(String op) {
        FilterToken t = next();
        if (t.kind() != FilterToken.Kind.NUMBER) {
            throw error(t, "a number after " + op);
        }
        return bound(t);
    }

    private double bound(FilterToken t) {
        double d = Double.parseDouble(t.text()) + 0.0; // + 0.0 turns -0.0 into 0.0, so "-0" formats back equal
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("column " + column(t.start()) + ": expected a finite number but found "
                    + t.text());
        }
        return d;
    }

    private List<String> parseList(String after) {
        expect(FilterToken.Kind.LBRACK, "'[' after " + after);
        List<String> values = new ArrayList<>();
        if (peek().kind() == FilterToken.Kind.RBRACK) {
            i++;
            return values;
        }
        while (true) {
            values.add(parseValue("in the list"));
            FilterToken t = next();
            if (t.kind() == FilterToken.Kind.RBRACK) {
                return values;
            }
            if (t.kind() != FilterToken.Kind.COMMA) {
                throw error(t, "',' or ']' in the list");
            }
            if (peek().kind() == FilterToken.Kind.RBRACK) { // trailing comma
                i++;
                return values;
            }
        }
    }

    private FilterToken expect(FilterToken.Kind kind, String expected) {
        FilterToken t = next();
        if (t.kind() != kind) {
            throw error(t, expected);
        }
        return t;
    }

    private FilterToken peek() {
        return tokens.get(i);
    }

    private FilterToken next() {
        FilterToken t = tokens.get(i);
        if (t.kind() != FilterToken.Kind.EOF) {
            i++;
        }
        return t;
    }

    private IllegalArgumentException error(FilterToken found, String expected) {
        String what;
        if (found.kind() == FilterToken.Kind.EOF) {
            what = "end of input";
        } else if (found.kind() == FilterToken.Kind.ERROR) {
            what = found.text();
        } else if (found.kind() == FilterToken.Kind.STRING) { // already quoted in the source
            String raw = text.substring(found.start(), found.end());
            what = raw.length() > 42 ? raw.substring(0, 39) + "..." : raw;
        } else {
            what = quote(text.substring(found.start(), found.end()));
        }
        return new IllegalArgumentException("column " + column(found.start()) + ": expected " + expected
                + " but found " + what);
    }

    private int column(int index) {
        return text.codePointCount(0, Math.min(index, text.length())) + 1;
    }

    /** {@code 'text'} shortened to 40 chars, for messages. */
    static String quote(String s) {
        return "'" + (s.length() > 40 ? s.substring(0, 37) + "..." : s) + "'";
    }
}
