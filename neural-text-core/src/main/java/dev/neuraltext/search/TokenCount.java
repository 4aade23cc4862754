package dev.neuraltext.search;

import java.util.Objects;

/**
 * The token count every system's answer is measured with: the text's {@code char} count divided by four, rounded
 * up (an empty text costs 0). It is the same rule for our answers and for the peers' (grep hits and the files an
 * assistant would read after them), so the figures compare; it approximates the BPE tokenizers assistants use on
 * source code without depending on any one of them. Stateless and thread-safe.
 */
public final class TokenCount {

    /** Characters counted as one token. */
    public static final int CHARS_PER_TOKEN = 4;

    private TokenCount() {
    }

    /** The tokens in {@code text}: {@code ceil(text.length() / 4)}. */
    public static int of(CharSequence text) {
        Objects.requireNonNull(text, "text");
        return (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }
}
