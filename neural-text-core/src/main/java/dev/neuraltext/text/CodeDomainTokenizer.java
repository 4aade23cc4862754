package dev.neuraltext.text;

import java.util.List;

/** Being written (issue 2). */
public final class CodeDomainTokenizer {

    /** The default configuration. */
    public static CodeDomainTokenizer standard() {
        return new CodeDomainTokenizer();
    }

    /** Splits {@code text} into lowercase terms: every identifier as its compound and its parts. */
    public List<String> tokenize(String text) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
