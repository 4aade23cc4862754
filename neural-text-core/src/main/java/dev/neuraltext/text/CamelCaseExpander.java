package dev.neuraltext.text;

import java.util.Objects;

/**
 * Rewrites text so that a plain word tokenizer sees identifier parts as words: {@code ChatModel is a LangChain4j
 * interface} becomes {@code Chat Model is a Lang Chain 4 j interface}. Meant for engines whose tokenizer we cannot
 * change, such as Qdrant's server-side BM25; apply it to documents and queries alike.
 *
 * <p>Identifiers split exactly where {@link CodeDomainTokenizer} splits them into parts: {@code lower|Upper},
 * {@code HTTP|Server}, letters|digits. Underscores between two word characters become one space
 * ({@code MAX_VALUE} becomes {@code MAX VALUE}); leading and trailing underscores stay. Everything else (plain words,
 * punctuation, whitespace, case) is left untouched, and {@code expand(expand(s)).equals(expand(s))} for every
 * string. Stateless and thread-safe; never throws on a non-null string.
 */
public final class CamelCaseExpander {

    private CamelCaseExpander() {
    }

    /** {@code ChatModel is a LangChain4j interface} becomes {@code Chat Model is a Lang Chain 4 j interface}. */
    public static String expand(String text) {
        Objects.requireNonNull(text, "text");
        int n = text.length();
        StringBuilder out = null; // allocated on the first change
        int copied = 0;
        int i = 0;
        while (i < n) {
            int cp = text.codePointAt(i);
            if (!IdentifierSplitter.isWordChar(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int end = IdentifierSplitter.wordEnd(text, i);
            // segments separated by underscore runs; a run between two segments becomes one space
            int segStart = i;
            int lastSegEnd = -1;
            for (int j = i; j <= end; j++) {
                if (j < end && text.charAt(j) != '_') {
                    continue;
                }
                if (j > segStart) {
                    if (lastSegEnd >= 0) {
                        if (out == null) {
                            out = new StringBuilder(n + 16);
                        }
                        out.append(text, copied, lastSegEnd).append(' ');
                        copied = segStart;
                    }
                    final StringBuilder[] holder = {out};
                    final int[] copiedRef = {copied};
                    final int segmentStart = segStart;
                    IdentifierSplitter.splitSegment(text, segStart, j, (s, e, digits) -> {
                        if (s > segmentStart) {
                            if (holder[0] == null) {
                                holder[0] = new StringBuilder(n + 16);
                            }
                            holder[0].append(text, copiedRef[0], s).append(' ');
                            copiedRef[0] = s;
                        }
                    });
                    out = holder[0];
                    copied = copiedRef[0];
                    lastSegEnd = j;
                }
                segStart = j + 1;
            }
            i = end;
        }
        if (out == null) {
            return text;
        }
        out.append(text, copied, n);
        return out.toString();
    }
}
