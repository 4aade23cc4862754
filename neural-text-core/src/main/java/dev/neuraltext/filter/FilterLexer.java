package dev.neuraltext.filter;

import java.util.ArrayList;
import java.util.List;

/** Splits filter text into {@link FilterToken}s, ending with an {@code EOF} token. */
final class FilterLexer {
    private final String s;
    private int pos;

    FilterLexer(String s) {
        this.s = s;
    }

    List<FilterToken> tokens() {
        List<FilterToken> out = new ArrayList<>();
        while (true) {
            FilterToken t = next();
            out.add(t);
            if (t.kind() == FilterToken.Kind.EOF) {
                return out;
            }
            if (t.kind() == FilterToken.Kind.ERROR) { // nothing after a lexical error is ever looked at
                out.add(new FilterToken(FilterToken.Kind.EOF, "", s.length(), s.length()));
                return out;
            }
        }
    }

    private FilterToken next() {
        while (pos < s.length() && isSpace(s.charAt(pos))) {
            pos++;
        }
        int start = pos;
        if (pos >= s.length()) {
            return new FilterToken(FilterToken.Kind.EOF, "", start, start);
        }
        char c = s.charAt(pos);
        switch (c) {
            case '(':
                return single(FilterToken.Kind.LPAREN, start);
            case ')':
                return single(FilterToken.Kind.RPAREN, start);
            case '[':
                return single(FilterToken.Kind.LBRACK, start);
            case ']':
                return single(FilterToken.Kind.RBRACK, start);
            case ',':
                return single(FilterToken.Kind.COMMA, start);
            case '~':
                return single(FilterToken.Kind.TILDE, start);
            case '=':
                return pair('=', FilterToken.Kind.EQ, start);
            case '!':
                return pair('=', FilterToken.Kind.NE, start);
            case '<':
                return optionalEq(FilterToken.Kind.LT, FilterToken.Kind.LE, start);
            case '>':
                return optionalEq(FilterToken.Kind.GT, FilterToken.Kind.GE, start);
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
            return new FilterToken(FilterToken.Kind.IDENT, s.substring(start, pos), start, pos);
        }
        pos += Character.charCount(s.codePointAt(start));
        return new FilterToken(FilterToken.Kind.ERROR, "the character " + FilterParser.quote(s.substring(start, pos)), start, pos);
    }

    private FilterToken single(FilterToken.Kind kind, int start) {
        pos++;
        return new FilterToken(kind, s.substring(start, pos), start, pos);
    }

    private FilterToken pair(char second, FilterToken.Kind kind, int start) {
        if (pos + 1 < s.length() && s.charAt(pos + 1) == second) {
            pos += 2;
            return new FilterToken(kind, s.substring(start, pos), start, pos);
        }
        pos++;
        return new FilterToken(FilterToken.Kind.ERROR, "'" + s.charAt(start) + "' (did you mean '" + s.charAt(start) + second + "'?)",
                start, pos);
    }

    private FilterToken optionalEq(FilterToken.Kind without, FilterToken.Kind with, int start) {
        if (pos + 1 < s.length() && s.charAt(pos + 1) == '=') {
            pos += 2;
            return new FilterToken(with, s.substring(start, pos), start, pos);
        }
        pos++;
        return new FilterToken(without, s.substring(start, pos), start, pos);
    }

    private FilterToken number(int start) {
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
            return new FilterToken(FilterToken.Kind.ERROR, FilterParser.quote(s.substring(start, pos)), start, pos);
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
        return new FilterToken(FilterToken.Kind.NUMBER, s.substring(start, p), start, p);
    }

    private int digits(int from) {
        int p = from;
        while (p < s.length() && isDigit(s.charAt(p))) {
            p++;
        }
        return p - from;
    }

    private FilterToken string(char quoteChar, int start) {
        StringBuilder value = new StringBuilder();
        int p = start + 1;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == quoteChar) {
                pos = p + 1;
                return new FilterToken(FilterToken.Kind.STRING, value.toString(), start, pos);
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
                        return new FilterToken(FilterToken.Kind.ERROR, "an invalid escape in a string (\\u needs four hex digits)",
                                p, pos);
                    }
                    value.append((char) cp);
                    p += 6;
                    break;
                default:
                    pos = p + 1 + Character.charCount(s.codePointAt(p + 1));
                    return new FilterToken(FilterToken.Kind.ERROR, "an invalid escape " + FilterParser.quote(s.substring(p, pos))
                            + " in a string (use \\\\ \\' \\\" \\n \\r \\t or \\uXXXX)", p, pos);
            }
        }
        pos = s.length();
        return new FilterToken(FilterToken.Kind.ERROR, "an unterminated string (no closing " + quoteChar + ")", start, pos);
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

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-';
    }
}
