package dev.neuraltext.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The compact text syntax of {@link PayloadFilter}, for command lines and configuration: a parser
 * ({@link PayloadFilter#parse(String)}) and its inverse, a formatter ({@link PayloadFilter#toSyntax()}).
 *
 * <h2>Example</h2>
 * {@code type == 'method' and tags in ['http', 'retry'] and not path ~ 'test'} parses to
 * {@code must(matchKeyword("type", "method"), matchAny("tags", "http", "retry"), mustNot(matchText("path", "test")))}.
 *
 * <h2>Grammar</h2>
 * <pre>
 * filter    := [ or ]                                  (blank input: {@link PayloadFilter#all()})
 * or        := and { 'or' and }                        two or more operands: {@link PayloadFilter.Should}
 * and       := unary { 'and' unary }                   two or more operands: {@link PayloadFilter.Must}
 * unary     := 'not' unary                             {@link PayloadFilter.MustNot} of one child
 *            | '(' or ')' | 'true' | 'false' | condition
 * condition := key '==' value                          {@link PayloadFilter.MatchKeyword}
 *            | key '!=' value                          mustNot(matchKeyword)
 *            | key 'in' list                           {@link PayloadFilter.MatchAny}
 *            | key 'not' 'in' list                     mustNot(matchAny)
 *            | key 'except' list                       {@link PayloadFilter.MatchExcept}
 *            | key '~' string                          {@link PayloadFilter.MatchText} (substring)
 *            | key ( '&lt;' | '&lt;=' | '&gt;' | '&gt;=' ) number       {@link PayloadFilter.Range} with one bound
 *            | number ( '&lt;' | '&lt;=' ) key ( '&lt;' | '&lt;=' ) number  {@link PayloadFilter.Range} with two bounds
 *            | key 'is' [ 'not' ] ( 'empty' | 'null' )    {@link PayloadFilter.IsEmpty} / {@link PayloadFilter.IsNull},
 *                                                        with 'not': mustNot of it
 * list      := '[' [ value { ',' value } [ ',' ] ] ']'
 * value     := string | number                         a number stands for its text: {@code n == 42} is
 *                                                        {@code n == '42'}
 * key       := identifier | string                     quote keys that are keywords or hold other characters
 * </pre>
 * <ul>
 *   <li><b>Precedence</b>: {@code not} binds tighter than {@code and}, which binds tighter than {@code or};
 *       parentheses group. {@code a or b and not c} is {@code should(a, must(b, mustNot(c)))}. Operands of one
 *       {@code and} (or {@code or}) chain form one node; a parenthesised group stays a nested node.</li>
 *   <li><b>Keywords</b> ({@code and or not in except is empty null true false}) are case-insensitive and reserved:
 *       a field with such a name is written quoted ({@code 'in' == 'x'}).</li>
 *   <li><b>Identifiers</b> start with a letter or {@code _} and continue with letters, digits, {@code _}, {@code .}
 *       and {@code -} ({@code symbol-type}, {@code meta.kind}).</li>
 *   <li><b>Strings</b> are quoted with {@code '} or {@code "}; escapes: <code>\\ \' \" \n \r \t &#92;uXXXX</code>.</li>
 *   <li><b>Numbers</b>: {@code -?digits[.digits][e[+-]digits]} (also {@code .5}); range bounds must be finite.</li>
 *   <li><b>Negation</b>: {@code !=}, {@code not in} and {@code is not} are the logical negation of {@code ==},
 *       {@code in} and {@code is}, so they also match chunks without the field. {@code except} is Qdrant's
 *       {@code match: {except}}: the field is present and some value is outside the list.</li>
 *   <li>{@code true} is {@link PayloadFilter#all()} (an empty must); {@code false} is an empty should, which matches
 *       nothing.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * Malformed input throws {@link IllegalArgumentException} whose message starts with the 1-based column (in code
 * points) and says what was expected and what was found, e.g.
 * {@code column 9: expected a value (a quoted string or a number) after '==' but found end of input}. Nothing else is
 * ever thrown for a non-null input; nesting deeper than {@value #MAX_DEPTH} levels is rejected.
 *
 * <h2>Formatting</h2>
 * {@link #format(PayloadFilter)} writes a filter in this syntax. For every filter the parser produces,
 * {@code parse(format(f))} equals {@code f}; for other trees (a must or should of one child, a mustNot of several
 * children, a range with two lower or two upper bounds) it yields an equivalent filter of the parser's shape.
 *
 * <p>Stateless and thread-safe.
 */
public final class PayloadFilterParser {

    /** Deepest nesting of parentheses and {@code not}s accepted. */
    static final int MAX_DEPTH = 200;

    private static final Set<String> KEYWORDS =
            Set.of("and", "or", "not", "in", "except", "is", "empty", "null", "true", "false");

    private PayloadFilterParser() {
    }

    /**
     * Parses {@code text}; see the class documentation for the grammar.
     *
     * @throws IllegalArgumentException with the column and what was expected, if {@code text} is null or malformed
     */
    public static PayloadFilter parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("filter text must not be null");
        }
        return new Parser(text).parseFilter();
    }

    /** Formats {@code filter} in the syntax {@link #parse(String)} reads (see "Formatting" above). */
    public static String format(PayloadFilter filter) {
        if (filter == null) {
            throw new IllegalArgumentException("filter must not be null");
        }
        StringBuilder sb = new StringBuilder();
        formatOr(filter, sb);
        return sb.toString();
    }

    // ---------------------------------------------------------------- lexer

    private enum Kind {
        IDENT, STRING, NUMBER, LPAREN, RPAREN, LBRACK, RBRACK, COMMA, EQ, NE, TILDE, LT, LE, GT, GE, ERROR, EOF
    }

    /**
     * @param text  identifier or number text, decoded string value, or for ERROR a description of the problem
     * @param start index of the first char
     * @param end   index after the last char
     */
    private record Token(Kind kind, String text, int start, int end) {
        boolean isKeyword(String keyword) {
            return kind == Kind.IDENT && text.equalsIgnoreCase(keyword);
        }
    }

    private static final class Lexer {
        private final String s;
        private int pos;

        Lexer(String s) {
            this.s = s;
        }

        List<Token> tokens() {
            List<Token> out = new ArrayList<>();
            while (true) {
                Token t = next();
                out.add(t);
                if (t.kind() == Kind.EOF) {
                    return out;
                }
                if (t.kind() == Kind.ERROR) { // nothing after a lexical error is ever looked at
                    out.add(new Token(Kind.EOF, "", s.length(), s.length()));
                    return out;
                }
            }
        }

        private Token next() {
            while (pos < s.length() && isSpace(s.charAt(pos))) {
                pos++;
            }
            int start = pos;
            if (pos >= s.length()) {
                return new Token(Kind.EOF, "", start, start);
            }
            char c = s.charAt(pos);
            switch (c) {
                case '(':
                    return single(Kind.LPAREN, start);
                case ')':
                    return single(Kind.RPAREN, start);
                case '[':
                    return single(Kind.LBRACK, start);
                case ']':
                    return single(Kind.RBRACK, start);
                case ',':
                    return single(Kind.COMMA, start);
                case '~':
                    return single(Kind.TILDE, start);
                case '=':
                    return pair('=', Kind.EQ, start);
                case '!':
                    return pair('=', Kind.NE, start);
                case '<':
                    return optionalEq(Kind.LT, Kind.LE, start);
                case '>':
                    return optionalEq(Kind.GT, Kind.GE, start);
                case '\'':
                case '"':
                    return string(c, start);
                default:
                    break;
            }
            if (c == '-' || c == '.' || isDigit(c)) {
                return number(start);
            }
            if (Character.isLetter(c) || c == '_') {
                pos++;
                while (pos < s.length() && isIdentPart(s.charAt(pos))) {
                    pos++;
                }
                return new Token(Kind.IDENT, s.substring(start, pos), start, pos);
            }
            pos += Character.charCount(s.codePointAt(start));
            return new Token(Kind.ERROR, "the character " + quote(s.substring(start, pos)), start, pos);
        }

        private Token single(Kind kind, int start) {
            pos++;
            return new Token(kind, s.substring(start, pos), start, pos);
        }

        private Token pair(char second, Kind kind, int start) {
            if (pos + 1 < s.length() && s.charAt(pos + 1) == second) {
                pos += 2;
                return new Token(kind, s.substring(start, pos), start, pos);
            }
            pos++;
            return new Token(Kind.ERROR, "'" + s.charAt(start) + "' (did you mean '" + s.charAt(start) + second + "'?)",
                    start, pos);
        }

        private Token optionalEq(Kind without, Kind with, int start) {
            if (pos + 1 < s.length() && s.charAt(pos + 1) == '=') {
                pos += 2;
                return new Token(with, s.substring(start, pos), start, pos);
            }
            pos++;
            return new Token(without, s.substring(start, pos), start, pos);
        }

        private Token number(int start) {
            int p = pos;
            if (s.charAt(p) == '-') {
                p++;
            }
            int intDigits = digits(p);
            p += intDigits;
            int fracDigits = 0;
            if (p < s.length() && s.charAt(p) == '.') {
                fracDigits = digits(p + 1);
                if (fracDigits > 0 || intDigits > 0) {
                    p += 1 + fracDigits;
                }
            }
            if (intDigits == 0 && fracDigits == 0) {
                pos = Math.max(start + 1, p);
                return new Token(Kind.ERROR, quote(s.substring(start, pos)), start, pos);
            }
            if (p < s.length() && (s.charAt(p) == 'e' || s.charAt(p) == 'E')) {
                int q = p + 1;
                if (q < s.length() && (s.charAt(q) == '+' || s.charAt(q) == '-')) {
                    q++;
                }
                int expDigits = digits(q);
                if (expDigits > 0) {
                    p = q + expDigits;
                }
            }
            pos = p;
            return new Token(Kind.NUMBER, s.substring(start, p), start, p);
        }

        private int digits(int from) {
            int p = from;
            while (p < s.length() && isDigit(s.charAt(p))) {
                p++;
            }
            return p - from;
        }

        private Token string(char quoteChar, int start) {
            StringBuilder value = new StringBuilder();
            int p = start + 1;
            while (p < s.length()) {
                char c = s.charAt(p);
                if (c == quoteChar) {
                    pos = p + 1;
                    return new Token(Kind.STRING, value.toString(), start, pos);
                }
                if (c != '\\') {
                    value.append(c);
                    p++;
                    continue;
                }
                if (p + 1 >= s.length()) {
                    break;
                }
                char e = s.charAt(p + 1);
                switch (e) {
                    case '\\':
                    case '\'':
                    case '"':
                        value.append(e);
                        p += 2;
                        break;
                    case 'n':
                        value.append('\n');
                        p += 2;
                        break;
                    case 'r':
                        value.append('\r');
                        p += 2;
                        break;
                    case 't':
                        value.append('\t');
                        p += 2;
                        break;
                    case 'u':
                        int cp = hex4(p + 2);
                        if (cp < 0) {
                            pos = Math.min(s.length(), p + 2);
                            return new Token(Kind.ERROR, "an invalid escape in a string (\\u needs four hex digits)",
                                    p, pos);
                        }
                        value.append((char) cp);
                        p += 6;
                        break;
                    default:
                        pos = p + 1 + Character.charCount(s.codePointAt(p + 1));
                        return new Token(Kind.ERROR, "an invalid escape " + quote(s.substring(p, pos))
                                + " in a string (use \\\\ \\' \\\" \\n \\r \\t or \\uXXXX)", p, pos);
                }
            }
            pos = s.length();
            return new Token(Kind.ERROR, "an unterminated string (no closing " + quoteChar + ")", start, pos);
        }

        private int hex4(int from) {
            if (from + 4 > s.length()) {
                return -1;
            }
            int v = 0;
            for (int i = from; i < from + 4; i++) {
                int d = Character.digit(s.charAt(i), 16);
                if (d < 0 || s.charAt(i) > 'f') { // Character.digit also accepts non-ASCII digits
                    return -1;
                }
                v = v * 16 + d;
            }
            return v;
        }

        private static boolean isSpace(char c) {
            return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-';
    }

    // ---------------------------------------------------------------- parser

    private static final class Parser {
        private static final String VALUE = "a value (a quoted string or a number)";

        private final String text;
        private final List<Token> tokens;
        private int i;
        private int depth;

        Parser(String text) {
            this.text = text;
            this.tokens = new Lexer(text).tokens();
        }

        PayloadFilter parseFilter() {
            if (peek().kind() == Kind.EOF) {
                return PayloadFilter.all();
            }
            PayloadFilter f = parseOr();
            if (peek().kind() != Kind.EOF) {
                throw error(peek(), peek().kind() == Kind.RPAREN ? "'and', 'or' or end of input (this ')' closes "
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
            Token t = peek();
            if (++depth > MAX_DEPTH) {
                throw new IllegalArgumentException("column " + column(t.start()) + ": filter nested deeper than "
                        + MAX_DEPTH + " levels");
            }
            try {
                if (t.isKeyword("not")) {
                    i++;
                    return new PayloadFilter.MustNot(List.of(parseUnary()));
                }
                if (t.kind() == Kind.LPAREN) {
                    i++;
                    PayloadFilter inner = parseOr();
                    expect(Kind.RPAREN, "')' to close the '(' at column " + column(t.start()) + " (or 'and', 'or')");
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
                if (t.kind() == Kind.NUMBER) {
                    return parseTwoSidedRange();
                }
                return parseCondition();
            } finally {
                depth--;
            }
        }

        private PayloadFilter parseCondition() {
            String key = parseKey("a condition (a field name, 'not', '(', 'true' or 'false')");
            Token op = next();
            switch (op.kind()) {
                case EQ:
                    return new PayloadFilter.MatchKeyword(key, parseValue("after '=='"));
                case NE:
                    return PayloadFilter.mustNot(new PayloadFilter.MatchKeyword(key, parseValue("after '!='")));
                case TILDE:
                    return new PayloadFilter.MatchText(key,
                            expect(Kind.STRING, "a quoted string after '~'").text());
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
                Token in = next();
                if (!in.isKeyword("in")) {
                    throw error(in, "'in' after 'not'");
                }
                return PayloadFilter.mustNot(new PayloadFilter.MatchAny(key, parseList("'not in'")));
            }
            if (op.isKeyword("is")) {
                boolean negated = false;
                Token what = next();
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
            Token loTok = next();
            double lo = bound(loTok);
            Token op1 = next();
            if (op1.kind() != Kind.LT && op1.kind() != Kind.LE) {
                throw error(op1, "'<' or '<=' after the number " + loTok.text() + " (ranges read low <= field < high)");
            }
            String key = parseKey("a field name after " + quote(op1.text()));
            Token op2 = next();
            if (op2.kind() != Kind.LT && op2.kind() != Kind.LE) {
                throw error(op2, "'<' or '<=' after the field " + quote(key));
            }
            double hi = parseBound(quote(op2.text()));
            return range(key, op1.kind() == Kind.LT ? lo : null, op1.kind() == Kind.LE ? lo : null,
                    op2.kind() == Kind.LT ? hi : null, op2.kind() == Kind.LE ? hi : null);
        }

        private static PayloadFilter range(String key, Double gt, Double gte, Double lt, Double lte) {
            return new PayloadFilter.Range(key, gt, gte, lt, lte);
        }

        private String parseKey(String expected) {
            Token t = next();
            if (t.kind() == Kind.IDENT && !KEYWORDS.contains(t.text().toLowerCase(Locale.ROOT))) {
                return t.text();
            }
            if (t.kind() == Kind.STRING) {
                if (t.text().isBlank()) {
                    throw error(t, "a non-blank field name");
                }
                return t.text();
            }
            throw error(t, expected);
        }

        private String parseValue(String where) {
            Token t = next();
            if (t.kind() == Kind.STRING || t.kind() == Kind.NUMBER) {
                return t.text();
            }
            throw error(t, VALUE + " " + where + (t.kind() == Kind.IDENT ? " (quote text values: '" + t.text() + "')"
                    : ""));
        }

        private double parseBound(String op) {
            Token t = next();
            if (t.kind() != Kind.NUMBER) {
                throw error(t, "a number after " + op);
            }
            return bound(t);
        }

        private double bound(Token t) {
            double d = Double.parseDouble(t.text()) + 0.0; // + 0.0 turns -0.0 into 0.0, so "-0" formats back equal
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("column " + column(t.start()) + ": expected a finite number but found "
                        + t.text());
            }
            return d;
        }

        private List<String> parseList(String after) {
            expect(Kind.LBRACK, "'[' after " + after);
            List<String> values = new ArrayList<>();
            if (peek().kind() == Kind.RBRACK) {
                i++;
                return values;
            }
            while (true) {
                values.add(parseValue("in the list"));
                Token t = next();
                if (t.kind() == Kind.RBRACK) {
                    return values;
                }
                if (t.kind() != Kind.COMMA) {
                    throw error(t, "',' or ']' in the list");
                }
                if (peek().kind() == Kind.RBRACK) { // trailing comma
                    i++;
                    return values;
                }
            }
        }

        private Token expect(Kind kind, String expected) {
            Token t = next();
            if (t.kind() != kind) {
                throw error(t, expected);
            }
            return t;
        }

        private Token peek() {
            return tokens.get(i);
        }

        private Token next() {
            Token t = tokens.get(i);
            if (t.kind() != Kind.EOF) {
                i++;
            }
            return t;
        }

        private IllegalArgumentException error(Token found, String expected) {
            String what;
            if (found.kind() == Kind.EOF) {
                what = "end of input";
            } else if (found.kind() == Kind.ERROR) {
                what = found.text();
            } else if (found.kind() == Kind.STRING) { // already quoted in the source
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
    }

    /** {@code 'text'} shortened to 40 chars, for messages. */
    private static String quote(String s) {
        return "'" + (s.length() > 40 ? s.substring(0, 37) + "..." : s) + "'";
    }

    // ---------------------------------------------------------------- formatter

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
                && !KEYWORDS.contains(key.toLowerCase(Locale.ROOT));
        for (int k = 1; plain && k < key.length(); k++) {
            plain = isIdentPart(key.charAt(k));
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
