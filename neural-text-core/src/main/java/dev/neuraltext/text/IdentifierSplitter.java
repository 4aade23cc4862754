package dev.neuraltext.text;

/**
 * The word and part boundaries shared by {@link CodeDomainTokenizer} and {@link CamelCaseExpander}, so both split an
 * identifier at exactly the same places.
 *
 * <p>A <em>word</em> is a maximal run of letters, digits, combining marks and underscores (code-point aware; a lone
 * surrogate is a separator). Inside a word, underscores separate <em>segments</em>, and a segment splits into
 * <em>parts</em> where the case or the character class changes: {@code lower|Upper}, {@code UPPER|Upper lower}
 * ({@code HTTP|Server}), {@code letter|digit} and {@code digit|letter}. Letters without case (CJK, modifier letters)
 * count as lowercase; combining marks never start a part.
 */
final class IdentifierSplitter {

    static final int LOWER = 0;
    static final int UPPER = 1;
    static final int DIGIT = 2;
    static final int MARK = 3;

    private IdentifierSplitter() {
    }

    /** Receives one part {@code [start, end)} of a segment; {@code digits} when the part is a run of digits. */
    interface PartSink {
        void part(int start, int end, boolean digits);
    }

    static boolean isWordChar(int cp) {
        return cp == '_' || Character.isLetterOrDigit(cp) || isMark(cp);
    }

    static boolean isMark(int cp) {
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    static int classOf(int cp) {
        if (Character.isDigit(cp)) {
            return DIGIT;
        }
        if (Character.isUpperCase(cp) || Character.isTitleCase(cp)) {
            return UPPER;
        }
        if (isMark(cp)) {
            return MARK;
        }
        return LOWER;
    }

    /** The end (exclusive) of the word starting at {@code start}, which must be a word character. */
    static int wordEnd(CharSequence text, int start) {
        int i = start;
        int n = text.length();
        while (i < n) {
            int cp = Character.codePointAt(text, i);
            if (!isWordChar(cp)) {
                break;
            }
            i += Character.charCount(cp);
        }
        return i;
    }

    /**
     * As {@link #wordEnd}, but a word also runs on across a single hyphen between a letter or digit and a letter
     * ({@code max-retry-count}, {@code set-car!}): kebab-case names are one word with hyphen-separated segments, as
     * snake_case names are with underscores. A hyphen before a digit ({@code x-1}), doubled ({@code a--b}) or at either
     * end does not join.
     */
    static int kebabWordEnd(CharSequence text, int start) {
        int i = wordEnd(text, start);
        int n = text.length();
        while (i + 1 < n && text.charAt(i) == '-' && i > start && Character.isLetterOrDigit(text.charAt(i - 1))
                && Character.isLetter(text.charAt(i + 1))) {
            i = wordEnd(text, i + 1);
        }
        return i;
    }

    /**
     * Splits the segment {@code [start, end)} (no underscores inside) into parts, in order. Never emits an empty part.
     */
    static void splitSegment(CharSequence text, int start, int end, PartSink sink) {
        if (start >= end) {
            return;
        }
        int partStart = start;
        int prevClass = -1; // class of the previous non-mark code point
        int prevStart = start; // index of the previous non-mark code point
        int prevPrevClass = -1;
        int i = start;
        while (i < end) {
            int cp = Character.codePointAt(text, i);
            int len = Character.charCount(cp);
            int cls = classOf(cp);
            if (cls == MARK) {
                i += len; // marks stay with the character they modify
                continue;
            }
            if (prevClass >= 0) {
                int boundary = -1;
                if (prevClass == LOWER && cls == UPPER) {
                    boundary = i;
                } else if ((prevClass == DIGIT) != (cls == DIGIT)) {
                    boundary = i;
                } else if (prevClass == UPPER && cls == LOWER && prevPrevClass == UPPER && prevStart > partStart) {
                    boundary = prevStart; // HTTPServer: the S starts the next part
                }
                if (boundary > partStart) {
                    sink.part(partStart, boundary, prevClassOfRange(text, partStart, boundary));
                    partStart = boundary;
                }
            }
            prevPrevClass = prevClass;
            prevClass = cls;
            prevStart = i;
            i += len;
        }
        sink.part(partStart, end, prevClassOfRange(text, partStart, end));
    }

    /** Whether the range is digits (parts are homogeneous, so the first non-mark code point decides). */
    private static boolean prevClassOfRange(CharSequence text, int start, int end) {
        int i = start;
        while (i < end) {
            int cp = Character.codePointAt(text, i);
            int cls = classOf(cp);
            if (cls != MARK) {
                return cls == DIGIT;
            }
            i += Character.charCount(cp);
        }
        return false;
    }
}
