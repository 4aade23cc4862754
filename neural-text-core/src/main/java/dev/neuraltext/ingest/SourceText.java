package dev.neuraltext.ingest;

import java.util.ArrayList;
import java.util.List;

/** A text split into lines, for cutting out 1-based line/column ranges as parsers report them. Immutable. */
final class SourceText {

    private final List<String> lines;

    SourceText(String text) {
        this.lines = splitLines(text);
    }

    static List<String> splitLines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                out.add(text.substring(start, i));
                if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return out;
    }

    int lineCount() {
        return lines.size();
    }

    /** Line {@code line} (1-based), "" when out of range. */
    String line(int line) {
        return line >= 1 && line <= lines.size() ? lines.get(line - 1) : "";
    }

    /** Lines {@code from..to} (1-based, inclusive) joined with newlines. */
    String lines(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int l = Math.max(1, from); l <= Math.min(to, lines.size()); l++) {
            if (sb.length() > 0 || l > Math.max(1, from)) {
                sb.append('\n');
            }
            sb.append(lines.get(l - 1));
        }
        return sb.toString();
    }

    /** The text from (line, column) to (endLine, endColumn), both inclusive and 1-based. */
    String range(int line, int column, int endLine, int endColumn) {
        if (line > lines.size() || endLine < line) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int l = line; l <= Math.min(endLine, lines.size()); l++) {
            String s = lines.get(l - 1);
            int from = l == line ? Math.min(Math.max(column - 1, 0), s.length()) : 0;
            int to = l == endLine ? Math.min(Math.max(endColumn, from), s.length()) : s.length();
            if (l > line) {
                sb.append('\n');
            }
            sb.append(s, from, to);
        }
        return sb.toString();
    }

    /**
     * Removes the common leading indentation of all non-blank lines after the first (the first line is cut at its
     * start column already), so nested members read naturally.
     */
    static String dedent(String text, int firstLineIndent) {
        List<String> ls = splitLines(text);
        if (ls.size() <= 1) {
            return text;
        }
        int min = firstLineIndent;
        for (int i = 1; i < ls.size(); i++) {
            String s = ls.get(i);
            if (s.isBlank()) {
                continue;
            }
            int ind = 0;
            while (ind < s.length() && (s.charAt(ind) == ' ' || s.charAt(ind) == '\t')) {
                ind++;
            }
            min = Math.min(min, ind);
        }
        if (min == 0) {
            return text;
        }
        StringBuilder sb = new StringBuilder(ls.get(0));
        for (int i = 1; i < ls.size(); i++) {
            String s = ls.get(i);
            sb.append('\n').append(s.isBlank() ? "" : s.substring(Math.min(min, s.length())));
        }
        return sb.toString();
    }
}
