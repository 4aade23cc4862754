package dev.neuraltext.treesitter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A text's lines, for mapping character offsets to 1-based lines and cutting out whole lines. Line breaks are
 * {@code \n}, {@code \r\n} and a lone {@code \r}, as core's chunkers count them. Immutable.
 */
final class SourceLines {

    private final String text;
    private final int[] starts;

    SourceLines(String text) {
        this.text = text;
        List<Integer> s = new ArrayList<>();
        s.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                s.add(i + 1);
            }
        }
        this.starts = s.stream().mapToInt(Integer::intValue).toArray();
    }

    int count() {
        return starts.length;
    }

    /** The 1-based line of the character at {@code offset}. */
    int lineOf(int offset) {
        int idx = Arrays.binarySearch(starts, Math.max(0, Math.min(offset, text.length())));
        return idx >= 0 ? idx + 1 : -idx - 1;
    }

    /** The 1-based line of the last character of the range ending (exclusive) at {@code endOffset}. */
    int lastLineOf(int startOffset, int endOffset) {
        return lineOf(Math.max(startOffset, endOffset - 1));
    }

    /** Line {@code line} (1-based) without its line break; "" when out of range. */
    String line(int line) {
        if (line < 1 || line > starts.length) {
            return "";
        }
        int from = starts[line - 1];
        int to = line < starts.length ? starts[line] : text.length();
        while (to > from && (text.charAt(to - 1) == '\n' || text.charAt(to - 1) == '\r')) {
            to--;
        }
        return text.substring(from, to);
    }

    /** The longest line's length in characters. */
    int longestLine() {
        int max = 0;
        for (int i = 0; i < starts.length; i++) {
            int end = i + 1 < starts.length ? starts[i + 1] : text.length();
            max = Math.max(max, end - starts[i]);
        }
        return max;
    }
}
