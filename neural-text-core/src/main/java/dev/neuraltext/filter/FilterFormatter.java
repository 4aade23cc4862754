package dev.neuraltext.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link PayloadFilter} in the syntax {@link FilterParser} reads. For every filter the parser produces,
 * {@code parse(format(f))} equals {@code f}; other trees get an equivalent filter of the parser's shape. Stateless and
 * thread-safe.
 */
final class FilterFormatter {

    private FilterFormatter() {
    }

    /** {@code filter} in the filter syntax. */
    static String format(PayloadFilter filter) {
        if (filter == null) {
            throw new NullPointerException("filter must not be null");
        }
        StringBuilder sb = new StringBuilder();
        formatOr(filter, sb);
        return sb.toString();
    }


    private static void formatOr(PayloadFilter f, StringBuilder sb) {
        if (f instanceof PayloadFilter.Should && ((PayloadFilter.Should) f).filters().size() >= 2) {
            List<PayloadFilter> children = ((PayloadFilter.Should) f).filters();
            for (int k = 0; k < children.size(); k++) {
                if (k > 0) {
                    sb.append(" or ");
                }
                PayloadFilter c = children.get(k);
                if (isNary(c, PayloadFilter.Should.class)) {
                    parenthesised(c, sb);
                } else {
                    formatAnd(c, sb);
                }
            }
            return;
        }
        formatAnd(f, sb);
    }

    private static void formatAnd(PayloadFilter f, StringBuilder sb) {
        if (f instanceof PayloadFilter.Must && ((PayloadFilter.Must) f).filters().size() >= 2) {
            List<PayloadFilter> children = ((PayloadFilter.Must) f).filters();
            for (int k = 0; k < children.size(); k++) {
                if (k > 0) {
                    sb.append(" and ");
                }
                formatUnary(children.get(k), sb, true);
            }
            return;
        }
        formatUnary(f, sb, false);
    }

    /** Formats at unary level; {@code inAnd}: an n-ary must here would merge into the enclosing chain. */
    private static void formatUnary(PayloadFilter f, StringBuilder sb, boolean inAnd) {
        if (isNary(f, PayloadFilter.Should.class) || (inAnd && isNary(f, PayloadFilter.Must.class))) {
            parenthesised(f, sb);
        } else if (f instanceof PayloadFilter.Must) {
            List<PayloadFilter> children = ((PayloadFilter.Must) f).filters();
            if (children.isEmpty()) {
                sb.append("true");
            } else if (children.size() == 1) {
                formatUnary(children.get(0), sb, inAnd);
            } else {
                formatAnd(f, sb);
            }
        } else if (f instanceof PayloadFilter.Should) {
            List<PayloadFilter> children = ((PayloadFilter.Should) f).filters();
            if (children.isEmpty()) {
                sb.append("false");
            } else {
                formatUnary(children.get(0), sb, inAnd); // one child: n >= 2 was handled above
            }
        } else if (f instanceof PayloadFilter.MustNot) {
            formatMustNot((PayloadFilter.MustNot) f, sb);
        } else {
            formatCondition(f, sb);
        }
    }

    private static void formatMustNot(PayloadFilter.MustNot f, StringBuilder sb) {
        List<PayloadFilter> children = f.filters();
        if (children.isEmpty()) {
            sb.append("not false");
            return;
        }
        if (children.size() > 1) { // none of them: not (a or b)
            sb.append("not ");
            parenthesised(new PayloadFilter.Should(children), sb);
            return;
        }
        PayloadFilter c = children.get(0);
        if (c instanceof PayloadFilter.MatchKeyword) {
            PayloadFilter.MatchKeyword m = (PayloadFilter.MatchKeyword) c;
            sb.append(key(m.key())).append(" != ").append(string(m.value()));
        } else if (c instanceof PayloadFilter.MatchAny) {
            PayloadFilter.MatchAny m = (PayloadFilter.MatchAny) c;
            sb.append(key(m.key())).append(" not in ").append(list(m.values()));
        } else if (c instanceof PayloadFilter.IsEmpty) {
            sb.append(key(((PayloadFilter.IsEmpty) c).key())).append(" is not empty");
        } else if (c instanceof PayloadFilter.IsNull) {
            sb.append(key(((PayloadFilter.IsNull) c).key())).append(" is not null");
        } else {
            sb.append("not ");
            formatUnary(c, sb, true);
        }
    }

    private static void formatCondition(PayloadFilter f, StringBuilder sb) {
        if (f instanceof PayloadFilter.MatchKeyword) {
            PayloadFilter.MatchKeyword m = (PayloadFilter.MatchKeyword) f;
            sb.append(key(m.key())).append(" == ").append(string(m.value()));
        } else if (f instanceof PayloadFilter.MatchText) {
            PayloadFilter.MatchText m = (PayloadFilter.MatchText) f;
            sb.append(key(m.key())).append(" ~ ").append(string(m.text()));
        } else if (f instanceof PayloadFilter.MatchAny) {
            PayloadFilter.MatchAny m = (PayloadFilter.MatchAny) f;
            sb.append(key(m.key())).append(" in ").append(list(m.values()));
        } else if (f instanceof PayloadFilter.MatchExcept) {
            PayloadFilter.MatchExcept m = (PayloadFilter.MatchExcept) f;
            sb.append(key(m.key())).append(" except ").append(list(m.values()));
        } else if (f instanceof PayloadFilter.IsEmpty) {
            sb.append(key(((PayloadFilter.IsEmpty) f).key())).append(" is empty");
        } else if (f instanceof PayloadFilter.IsNull) {
            sb.append(key(((PayloadFilter.IsNull) f).key())).append(" is null");
        } else if (f instanceof PayloadFilter.Range) {
            formatRange((PayloadFilter.Range) f, sb);
        } else {
            throw new IllegalArgumentException("cannot format " + f);
        }
    }

    private static void formatRange(PayloadFilter.Range r, StringBuilder sb) {
        String k = key(r.key());
        if ((r.gt() != null && r.gte() != null) || (r.lt() != null && r.lte() != null)) {
            // two lower or two upper bounds have no single-condition form: an equivalent conjunction
            List<String> parts = new ArrayList<>();
            if (r.gt() != null) {
                parts.add(k + " > " + number(r.gt()));
            }
            if (r.gte() != null) {
                parts.add(k + " >= " + number(r.gte()));
            }
            if (r.lt() != null) {
                parts.add(k + " < " + number(r.lt()));
            }
            if (r.lte() != null) {
                parts.add(k + " <= " + number(r.lte()));
            }
            sb.append('(').append(String.join(" and ", parts)).append(')');
            return;
        }
        Double lo = r.gt() != null ? r.gt() : r.gte();
        Double hi = r.lt() != null ? r.lt() : r.lte();
        if (lo != null && hi != null) {
            sb.append(number(lo)).append(r.gt() != null ? " < " : " <= ").append(k)
                    .append(r.lt() != null ? " < " : " <= ").append(number(hi));
        } else if (lo != null) {
            sb.append(k).append(r.gt() != null ? " > " : " >= ").append(number(lo));
        } else {
            sb.append(k).append(r.lt() != null ? " < " : " <= ").append(number(hi));
        }
    }

    private static boolean isNary(PayloadFilter f, Class<?> type) {
        if (!type.isInstance(f)) {
            return false;
        }
        return f instanceof PayloadFilter.Must ? ((PayloadFilter.Must) f).filters().size() >= 2
                : ((PayloadFilter.Should) f).filters().size() >= 2;
    }

    private static void parenthesised(PayloadFilter f, StringBuilder sb) {
        sb.append('(');
        formatOr(f, sb);
        sb.append(')');
    }

    private static String key(String key) {
        boolean plain = !key.isEmpty() && (Character.isLetter(key.charAt(0)) || key.charAt(0) == '_')
                && !FilterParser.KEYWORDS.contains(key.toLowerCase(Locale.ROOT));
        for (int k = 1; plain && k < key.length(); k++) {
            plain = FilterLexer.isIdentPart(key.charAt(k));
        }
        return plain ? key : string(key);
    }

    private static String list(List<String> values) {
        StringBuilder sb = new StringBuilder("[");
        for (int k = 0; k < values.size(); k++) {
            if (k > 0) {
                sb.append(", ");
            }
            sb.append(string(values.get(k)));
        }
        return sb.append(']').toString();
    }

    private static String string(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 2).append('\'');
        for (int k = 0; k < value.length(); k++) {
            char c = value.charAt(k);
            switch (c) {
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\'':
                    sb.append("\\'");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('\'').toString();
    }

    private static String number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }
}
