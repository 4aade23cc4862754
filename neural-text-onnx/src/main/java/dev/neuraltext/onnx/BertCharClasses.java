package dev.neuraltext.onnx;

import java.text.Normalizer;
import java.util.Arrays;

/**
 * What a Hugging Face {@code BertNormalizer} followed by a {@code BertPreTokenizer} does with each code point of the
 * input, worked out once per code point: removed (control and format characters, U+0000, U+FFFD), a word break
 * (white space), a word of its own (punctuation, CJK ideographs), or part of a word, in the normalised form
 * (canonical decomposition without non-spacing marks, lower case). Internal.
 *
 * <p>Character classes follow the Hugging Face definitions: "control" is general category Cc, Cf or Co except tab,
 * newline and carriage return (which are white space); white space is the Unicode {@code White_Space} property;
 * punctuation is every ASCII symbol ({@code !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~}) and general categories Pc, Pd, Ps,
 * Pe, Pi, Pf and Po. General categories are those of Unicode 8.0, the version of the category tables in the native
 * tokenizer (the Rust crate {@code unicode_categories}): the running Java's categories, except for the code points
 * in {@link #NEWER_THAN_UNICODE_8} (unassigned in 8.0, so neither control, punctuation nor mark there) and two
 * whose category changed since. {@code WordPieceTokenizerTest} checks every code point against the native tokenizer.
 *
 * <p>Decomposition is done one code point at a time: canonical reordering of a run of combining marks does not
 * happen, which only matters for marks that survive accent stripping (spacing marks with a combining class, rare).
 *
 * <p>Thread safety: safe for concurrent use; entries are computed on first use and published racily as immutable
 * objects (two threads may compute the same entry; both results are equal).
 */
final class BertCharClasses {

    /** {@link #asciiKind} value: the character is dropped. */
    static final byte REMOVE = 0;
    /** {@link #asciiKind} value: the character ends the current word and is dropped. */
    static final byte BREAK = 1;
    /** {@link #asciiKind} value: the character is a word of its own. */
    static final byte ISOLATED = 2;
    /** {@link #asciiKind} value: the character (in {@link #asciiChar}) continues the current word. */
    static final byte WORD = 3;

    /**
     * The normalised form of one input code point: each output code point with its kind ({@link #BREAK},
     * {@link #ISOLATED} or {@link #WORD}); empty when the code point is removed.
     */
    record Mapping(int[] codePoints, byte[] kinds) {
        static final Mapping REMOVED = new Mapping(new int[0], new byte[0]);
    }

    private final boolean cleanText;
    private final boolean chineseChars;
    private final boolean stripAccents;
    private final boolean lowercase;
    private final byte[] asciiKinds = new byte[128];
    private final char[] asciiChars = new char[128];
    /** Lazily filled mappings of the Basic Multilingual Plane above ASCII. */
    private final Mapping[] bmp = new Mapping[1 << 16];

    BertCharClasses(boolean cleanText, boolean chineseChars, boolean stripAccents, boolean lowercase) {
        this.cleanText = cleanText;
        this.chineseChars = chineseChars;
        this.stripAccents = stripAccents;
        this.lowercase = lowercase;
        for (char c = 0; c < 128; c++) {
            Mapping m = compute(c);
            if (m.codePoints().length == 0) {
                asciiKinds[c] = REMOVE;
            } else {
                // ASCII maps to at most one ASCII character: no decomposition, no CJK.
                asciiKinds[c] = m.kinds()[0];
                asciiChars[c] = (char) m.codePoints()[0];
            }
        }
    }

    /** The kind of an ASCII character {@code c < 128}. */
    byte asciiKind(char c) {
        return asciiKinds[c];
    }

    /** The normalised form of an ASCII character {@code c < 128} of kind {@link #WORD} or {@link #ISOLATED}. */
    char asciiChar(char c) {
        return asciiChars[c];
    }

    /** The normalised form of {@code codePoint} (any code point, including a lone surrogate). */
    Mapping mapping(int codePoint) {
        if (codePoint < bmp.length) {
            Mapping m = bmp[codePoint];
            if (m == null) {
                m = compute(codePoint);
                bmp[codePoint] = m;
            }
            return m;
        }
        return compute(codePoint);
    }

    private Mapping compute(int cp) {
        if (cleanText && (cp == 0 || cp == 0xFFFD || isControl(cp) || isSurrogate(cp))) {
            // A lone surrogate cannot cross into the native tokenizer either: it arrives as U+FFFD, then removed.
            return Mapping.REMOVED;
        }
        if (cleanText && isWhitespace(cp)) {
            return new Mapping(new int[] {' '}, new byte[] {BREAK});
        }
        int[] normalised = normalise(cp);
        if (chineseChars && isChinese(cp)) {
            // Padded with spaces before accent stripping and lower-casing: a word of its own.
            int[] cps = new int[normalised.length + 2];
            byte[] kinds = new byte[cps.length];
            cps[0] = ' ';
            kinds[0] = BREAK;
            for (int i = 0; i < normalised.length; i++) {
                cps[i + 1] = normalised[i];
                kinds[i + 1] = kindAfterNormalising(normalised[i]);
            }
            cps[cps.length - 1] = ' ';
            kinds[kinds.length - 1] = BREAK;
            return new Mapping(cps, kinds);
        }
        byte[] kinds = new byte[normalised.length];
        for (int i = 0; i < normalised.length; i++) {
            kinds[i] = kindAfterNormalising(normalised[i]);
        }
        return new Mapping(normalised, kinds);
    }

    /** The pre-tokenizer's view of a normalised code point. */
    private static byte kindAfterNormalising(int cp) {
        if (isWhitespace(cp)) {
            return BREAK;
        }
        return isPunctuation(cp) ? ISOLATED : WORD;
    }

    /** Accent stripping (canonical decomposition without non-spacing marks), then lower case. */
    private int[] normalise(int cp) {
        int[] cps = {cp};
        if (stripAccents && cp >= 0x80) {
            String decomposed = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFD);
            cps = decomposed.codePoints().filter(c -> category(c) != Character.NON_SPACING_MARK).toArray();
        }
        if (lowercase) {
            int[] lower = new int[cps.length + 1];
            int n = 0;
            for (int c : cps) {
                if (c == 0x130) {
                    // The one unconditional multi-character lower-case mapping: İ -> i + combining dot above.
                    lower = Arrays.copyOf(lower, lower.length + 1);
                    lower[n++] = 'i';
                    lower[n++] = 0x307;
                } else {
                    lower[n++] = Character.toLowerCase(c);
                }
            }
            cps = Arrays.copyOf(lower, n);
        }
        return cps;
    }

    /**
     * Inclusive ranges of the code points that Java 17 (Unicode 13) puts in a category the BERT normalizer acts on
     * (Cc, Cf, Co, Mn, P*) but that Unicode 8.0 had not assigned yet: the native tokenizer treats them as letters.
     * Found by comparing every code point with the native tokenizer (the test named in the class comment).
     */
    private static final int[] NEWER_THAN_UNICODE_8 = {
        0x7FD, 0x7FD, 0x8D3, 0x8E2, 0x9FD, 0x9FE, 0xA76, 0xA76, 0xAFA, 0xAFF, 0xB55, 0xB55, 0xC04, 0xC04,
        0xC77, 0xC77, 0xC84, 0xC84, 0xD00, 0xD00, 0xD3B, 0xD3C, 0xD81, 0xD81, 0xEBA, 0xEBA, 0x1885, 0x1886,
        0x1ABF, 0x1AC0, 0x1DF6, 0x1DF9, 0x1DFB, 0x1DFB, 0x2E43, 0x2E4F, 0x2E52, 0x2E52, 0xA82C, 0xA82C,
        0xA8C5, 0xA8C5, 0xA8FF, 0xA8FF, 0xA9BD, 0xA9BD, 0x10D24, 0x10D27, 0x10EAB, 0x10EAD, 0x10F46, 0x10F50,
        0x10F55, 0x10F59, 0x110CD, 0x110CD, 0x111CF, 0x111CF, 0x1123E, 0x1123E, 0x1133B, 0x1133B, 0x11438, 0x1143F,
        0x11442, 0x11444, 0x11446, 0x11446, 0x1144B, 0x1144F, 0x1145A, 0x1145B, 0x1145D, 0x1145E, 0x11660, 0x1166C,
        0x1182F, 0x11837, 0x11839, 0x1183B, 0x1193B, 0x1193C, 0x1193E, 0x1193E, 0x11943, 0x11946, 0x119D4, 0x119D7,
        0x119DA, 0x119DB, 0x119E0, 0x119E0, 0x119E2, 0x119E2, 0x11A01, 0x11A0A, 0x11A33, 0x11A38, 0x11A3B, 0x11A47,
        0x11A51, 0x11A56, 0x11A59, 0x11A5B, 0x11A8A, 0x11A96, 0x11A98, 0x11A9C, 0x11A9E, 0x11AA2, 0x11C30, 0x11C36,
        0x11C38, 0x11C3D, 0x11C3F, 0x11C3F, 0x11C41, 0x11C45, 0x11C70, 0x11C71, 0x11C92, 0x11CA7, 0x11CAA, 0x11CB0,
        0x11CB2, 0x11CB3, 0x11CB5, 0x11CB6, 0x11D31, 0x11D36, 0x11D3A, 0x11D3A, 0x11D3C, 0x11D3D, 0x11D3F, 0x11D45,
        0x11D47, 0x11D47, 0x11D90, 0x11D91, 0x11D95, 0x11D95, 0x11D97, 0x11D97, 0x11EF3, 0x11EF4, 0x11EF7, 0x11EF8,
        0x11FFF, 0x11FFF, 0x13430, 0x13438, 0x16E97, 0x16E9A, 0x16F4F, 0x16F4F, 0x16FE2, 0x16FE2, 0x16FE4, 0x16FE4,
        0x1E000, 0x1E006, 0x1E008, 0x1E018, 0x1E01B, 0x1E021, 0x1E023, 0x1E024, 0x1E026, 0x1E02A, 0x1E130, 0x1E136,
        0x1E2EC, 0x1E2EF, 0x1E944, 0x1E94A, 0x1E95E, 0x1E95F,
    };

    /** The general category of {@code cp} in Unicode 8.0, as far as the BERT normalizer looks at it. */
    static int category(int cp) {
        if (cp >= NEWER_THAN_UNICODE_8[0] && cp <= NEWER_THAN_UNICODE_8[NEWER_THAN_UNICODE_8.length - 1]) {
            if (cp == 0x166D || cp == 0x111C9) {
                // CANADIAN SYLLABICS CHI SIGN (So since 12.0), SHARADA SANDHI MARK (Mn since 13.0): Po in 8.0.
                return Character.OTHER_PUNCTUATION;
            }
            int lo = 0;
            int hi = NEWER_THAN_UNICODE_8.length / 2 - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (cp < NEWER_THAN_UNICODE_8[2 * mid]) {
                    hi = mid - 1;
                } else if (cp > NEWER_THAN_UNICODE_8[2 * mid + 1]) {
                    lo = mid + 1;
                } else {
                    return Character.UNASSIGNED;
                }
            }
        }
        return Character.getType(cp);
    }

    /** General category Cc, Cf or Co, except tab, newline and carriage return. */
    static boolean isControl(int cp) {
        if (cp == '\t' || cp == '\n' || cp == '\r') {
            return false;
        }
        int type = category(cp);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.PRIVATE_USE;
    }

    private static boolean isSurrogate(int cp) {
        return cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE;
    }

    /** The Unicode {@code White_Space} property (as Rust's {@code char::is_whitespace}). */
    static boolean isWhitespace(int cp) {
        return switch (cp) {
            case '\t', '\n', 0x0B, 0x0C, '\r', ' ', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000 -> true;
            default -> cp >= 0x2000 && cp <= 0x200A;
        };
    }

    /** ASCII symbols and the Unicode punctuation categories. */
    static boolean isPunctuation(int cp) {
        if (cp < 0x80) {
            return (cp >= 0x21 && cp <= 0x2F) || (cp >= 0x3A && cp <= 0x40) || (cp >= 0x5B && cp <= 0x60)
                    || (cp >= 0x7B && cp <= 0x7E);
        }
        return switch (category(cp)) {
            case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION -> true;
            default -> false;
        };
    }

    /** The CJK ideograph blocks the BERT normalizer pads with spaces. */
    static boolean isChinese(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF)
                || (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F)
                || (cp >= 0x2B920 && cp <= 0x2CEAF) || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0x2F800 && cp <= 0x2FA1F);
    }
}
