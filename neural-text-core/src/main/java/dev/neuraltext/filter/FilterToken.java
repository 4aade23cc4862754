package dev.neuraltext.filter;

/**
 * One token of the filter syntax (see {@link FilterParser}).
 *
 * @param kind  what the token is
 * @param text  identifier or number text, decoded string value, or for ERROR a description of the problem
 * @param start index of the first char
 * @param end   index after the last char
 */
record FilterToken(Kind kind, String text, int start, int end) {
    enum Kind {
        IDENT, STRING, NUMBER, LPAREN, RPAREN, LBRACK, RBRACK, COMMA, EQ, NE, TILDE, LT, LE, GT, GE, ERROR, EOF
    }

    boolean isKeyword(String keyword) {
        return kind == Kind.IDENT && text.equalsIgnoreCase(keyword);
    }
}
