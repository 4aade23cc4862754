package dev.neuraltext.text;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32;

/**
 * Splits source code and technical text into lowercase terms, emitting every identifier both as its compound and as
 * its parts, so a query matches whichever way a name is written.
 *
 * <ul>
 *   <li>{@code ChatModel} gives {@code chatmodel, chat, model}; {@code HTTPServerConfig} gives
 *       {@code httpserverconfig, http, server, config}.</li>
 *   <li>{@code snake_case} and {@code SCREAMING_CASE} split on underscores; the compound drops them, so
 *       {@code MAX_VALUE}, {@code maxValue} and {@code MaxValue} share the term {@code maxvalue}.</li>
 *   <li>Dots, {@code @}, generics and all other punctuation separate words:
 *       {@code java.util.concurrent.ConcurrentHashMap} gives
 *       {@code java, util, concurrent, concurrenthashmap, concurrent, hash, map}; {@code @DefaultBean} gives
 *       {@code defaultbean, default, bean}, which a query {@code DefaultBean} or {@code default bean} matches.</li>
 *   <li><b>Digits</b> are parts of their own and are also joined to the letters before them:
 *       {@code Base64Encoder} gives {@code base64encoder, base, 64, base64, encoder}; {@code utf8} gives
 *       {@code utf8, utf, 8} (the compound is {@code utf8} already); {@code UTF_8} gives the same compound
 *       {@code utf8}; {@code LangChain4j} gives {@code langchain4j, lang, chain, 4, chain4, j}. So {@code base64},
 *       {@code base 64}, {@code utf8} and {@code UTF_8} all meet, which digit-free splitting alone would not give.</li>
 *   <li>Letters of every script are word characters (code-point aware); letters without case, such as CJK, stay
 *       together; combining marks stay with their letter. Lowercasing uses {@link Locale#ROOT}.</li>
 *   <li>Terms longer than {@link Builder#maxTermLength(int)} (default 255 chars) are dropped; their parts still
 *       count.</li>
 * </ul>
 *
 * <p><b>Stop words</b> (default {@link #englishStopWords()}) are dropped when they stand alone as prose. They are
 * kept as parts and compounds of identifiers ({@code isEmpty} keeps {@code is}, {@code forEach} keeps {@code for}),
 * see {@link Builder#stopWordsOnParts(boolean)}, and when written as code, a member access or call such as
 * {@code Pair.of} or {@code range.is(x)}, see {@link Builder#keepCodeStopWords(boolean)}. Java keywords
 * ({@link #javaKeywords()}) are kept by default, see {@link Builder#dropJavaKeywords(boolean)}. A minimal English
 * plural stemmer ({@link Builder#stemming(boolean)}, default on; Lucene's {@code EnglishMinimalStemmer} rules) maps
 * {@code annotations} and {@code Annotation} to the same term; it applies to words and parts, not to compounds, so
 * {@code getBytes} and {@code getByte} stay apart as names while their parts meet.
 *
 * <p>Each default was chosen by measurement on the commons-lang benchmark (BM25 leg alone, MRR@10, 900 queries):
 * dropping English stop words lifts natural-language queries from 0.41 to 0.51; dropping Java keywords costs 0.07
 * on them ({@code null}, {@code new}, {@code true}, {@code return} are words Javadoc sentences use); the plural
 * stemmer adds 0.09 on them (a Porter stemmer measured 0.01 below it); keeping code stop words lifts type-name
 * queries from 0.947 to 0.963; stop words dropped inside identifiers, and not stemming compounds, each cost up to
 * 0.01 on keyword queries. Digit joins change nothing on that corpus (few digit identifiers) and are kept for
 * {@code base64}/{@code utf8} matching.
 *
 * <p>Instances are immutable, stateless and thread-safe. {@link #tokenize(String)} never throws on a non-null
 * string, whatever it contains (lone surrogates, control characters, megabyte-long identifiers).
 */
public final class CodeDomainTokenizer {

    /** What a term is, for callers that weight compounds and parts differently. */
    public enum TermKind {
        /** A word or an identifier with a single part, e.g. {@code model} or {@code URL}. */
        WORD,
        /** The lowercase compound of an identifier with several parts, e.g. {@code chatmodel}. */
        COMPOUND,
        /** One part of an identifier with several parts (or a letters+digits join), e.g. {@code chat}. */
        PART
    }

    /** Receives the terms of one text in order. */
    @FunctionalInterface
    public interface TermSink {
        /** Called once per term, in text order (a compound before its parts). */
        void accept(String term, TermKind kind);
    }

    private static final Set<String> ENGLISH_STOP_WORDS = StopWords.INDEX;

    private static final Set<String> JAVA_KEYWORDS = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
            "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
            "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
            "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
            "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "var");

    private static final CodeDomainTokenizer STANDARD = builder().build();

    private final Set<String> stopWords;
    private final boolean stopWordsOnParts;
    private final boolean keepCodeStopWords;
    private final boolean digitJoins;
    private final boolean stemming;
    private final boolean stemCompounds;
    private final UnaryOperator<String> stemmer;
    private final int maxTermLength;
    private final String id;

    private CodeDomainTokenizer(Builder b) {
        TreeSet<String> stops = new TreeSet<>();
        for (String w : b.stopWords) {
            stops.add(w.toLowerCase(Locale.ROOT));
        }
        if (b.dropJavaKeywords) {
            stops.addAll(JAVA_KEYWORDS);
        }
        this.stopWords = Set.copyOf(stops);
        this.stopWordsOnParts = b.stopWordsOnParts;
        this.keepCodeStopWords = b.keepCodeStopWords;
        this.digitJoins = b.digitJoins;
        this.stemming = b.stemming;
        this.stemCompounds = b.stemCompounds;
        this.stemmer = b.stemmer;
        this.maxTermLength = b.maxTermLength;
        this.id = "code-v2(stop=" + describeStops(stops, b.stopWordsOnParts, b.keepCodeStopWords)
                + ",digits=" + (digitJoins ? "split+join" : "split")
                + ",stem=" + (stemming ? b.stemmerName + (b.stemCompounds ? "" : "-parts") : "none")
                + ",maxTermLength=" + maxTermLength + ")";
    }

    /**
     * The measured default: English stop words dropped from prose only, Java keywords kept, digit joins, minimal
     * plural stemming of words and parts, terms up to 255 chars.
     */
    public static CodeDomainTokenizer standard() {
        return STANDARD;
    }

    /** A builder starting from the {@link #standard()} settings. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Lucene's English stop word list (33 words: a, an, and, ..., with): the words of
     * {@link #englishFunctionWords()} marked {@code index} in the {@code english-stop-words.txt} resource.
     */
    public static Set<String> englishStopWords() {
        return ENGLISH_STOP_WORDS;
    }

    /**
     * English function words (107: {@link #englishStopWords()} and {@code how}, {@code what}, {@code does},
     * {@code which}, {@code should}, ...), the {@code english-stop-words.txt} resource beside this class: words that
     * mark a query as prose. The tokenizer drops only {@link #englishStopWords()}.
     */
    public static Set<String> englishFunctionWords() {
        return StopWords.ALL;
    }

    /** Java keywords and literals ({@code public}, {@code final}, {@code return}, {@code null}, ...). */
    public static Set<String> javaKeywords() {
        return JAVA_KEYWORDS;
    }

    /**
     * A stable description of this configuration, e.g.
     * {@code code-v2(stop=english,digits=split+join,stem=minimal-plural,maxTermLength=255)}; equal descriptions mean
     * equal output, so stores put it in index fingerprints.
     */
    public String id() {
        return id;
    }

    /** The stop words in effect (lowercase, including Java keywords when they are dropped). */
    public Set<String> stopWords() {
        return stopWords;
    }

    /** The terms of {@code text} in order; compounds come before their parts. */
    public List<String> tokenize(String text) {
        List<String> out = new ArrayList<>();
        tokenize(text, (term, kind) -> out.add(term));
        return out;
    }

    /** Sends the terms of {@code text} with their kind to {@code sink}, in order. */
    public void tokenize(String text, TermSink sink) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sink, "sink");
        PartBuffer parts = new PartBuffer();
        StringBuilder compound = new StringBuilder();
        forEachWord(text, (start, end) -> emitWord(text, start, end, parts, compound, sink));
    }

    /** Calls {@code visitor} with the bounds of each word of {@code text} (kebab-case names are one word), in order. */
    private static void forEachWord(String text, WordVisitor visitor) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            int cp = text.codePointAt(i);
            if (!IdentifierSplitter.isWordChar(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int end = IdentifierSplitter.kebabWordEnd(text, i);
            visitor.word(i, end);
            i = end;
        }
    }

    private interface WordVisitor {
        void word(int start, int end);
    }

    @Override
    public String toString() {
        return "CodeDomainTokenizer[" + id + "]";
    }

    /**
     * The words of {@code text} as this tokenizer splits identifiers into parts, lower-cased, in order, with each run
     * of digits joined to the letters before it as the digit join does: {@code ZodError} gives {@code zod, error},
     * {@code max-retry-count} gives {@code max, retry, count}, {@code base64Encoder} gives {@code base64, encoder},
     * {@code v3} gives {@code v3}. Every word is a term this tokenizer emits for the text (a part, a join or a
     * two-part compound) before stemming and stop words: neither applies here (see {@link #stem(String)}). For
     * callers that match words rather than index terms, such as a ranking over file names.
     */
    public List<String> words(String text) {
        Objects.requireNonNull(text, "text");
        List<String> out = new ArrayList<>();
        PartBuffer parts = new PartBuffer();
        forEachWord(text, (start, end) -> {
            split(text, start, end, parts);
            for (int k = 0; k < parts.size; k++) {
                String part = lower(text, parts.starts[k], parts.ends[k]);
                boolean join = k > 0 && parts.digits[k] && !parts.digits[k - 1]
                        && parts.segments[k - 1] == parts.segments[k];
                if (join) {
                    out.set(out.size() - 1, out.get(out.size() - 1) + part);
                } else {
                    out.add(part);
                }
            }
        });
        return out;
    }

    /**
     * {@code term} as this tokenizer stems words and parts (the minimal plural stemmer by default: {@code routes}
     * gives {@code route}), or {@code term} itself when stemming is off; give it a word that is not a stop word
     * ({@code this} stems to {@code thi}).
     */
    public String stem(String term) {
        Objects.requireNonNull(term, "term");
        if (!stemming) {
            return term;
        }
        String stemmed = stemmer.apply(term);
        return stemmed == null || stemmed.isEmpty() ? term : stemmed;
    }


    /** The parts of one word, reused across the words of one call (no allocation per part). */
    private static final class PartBuffer implements IdentifierSplitter.PartSink {
        int[] starts = new int[16];
        int[] ends = new int[16];
        boolean[] digits = new boolean[16];
        int[] segments = new int[16];
        int size;
        int segment;

        @Override
        public void part(int start, int end, boolean isDigits) {
            if (size == starts.length) {
                int capacity = size * 2;
                starts = Arrays.copyOf(starts, capacity);
                ends = Arrays.copyOf(ends, capacity);
                digits = Arrays.copyOf(digits, capacity);
                segments = Arrays.copyOf(segments, capacity);
            }
            starts[size] = start;
            ends[size] = end;
            digits[size] = isDigits;
            segments[size] = segment;
            size++;
        }
    }

    /** Splits the word {@code [start, end)} into {@code parts}: segments at {@code _} and {@code -}, then parts. */
    private static void split(String text, int start, int end, PartBuffer parts) {
        parts.size = 0;
        parts.segment = 0;
        int segStart = start;
        for (int i = start; i <= end; i++) {
            if (i == end || text.charAt(i) == '_' || text.charAt(i) == '-') {
                if (i > segStart) {
                    IdentifierSplitter.splitSegment(text, segStart, i, parts);
                    parts.segment++;
                }
                segStart = i + 1;
            }
        }
    }

    private void emitWord(String text, int start, int end, PartBuffer parts, StringBuilder compound, TermSink sink) {
        split(text, start, end, parts);
        int count = parts.size;
        if (count == 0) {
            return;
        }
        if (count == 1) {
            String word = lower(text, parts.starts[0], parts.ends[0]);
            if (!stopWords.contains(word) || (keepCodeStopWords && isCodeContext(text, start, end))) {
                emit(word, TermKind.WORD, sink);
            }
            return;
        }
        compound.setLength(0);
        for (int k = 0; k < count; k++) {
            compound.append(text, parts.starts[k], parts.ends[k]);
        }
        emit(compound.toString().toLowerCase(Locale.ROOT), TermKind.COMPOUND, sink);
        String previous = null;
        for (int k = 0; k < count; k++) {
            String part = lower(text, parts.starts[k], parts.ends[k]);
            if (!stopWordsOnParts || !stopWords.contains(part)) {
                emit(part, TermKind.PART, sink);
            }
            boolean joinable = k > 0 && !parts.digits[k - 1] && parts.segments[k - 1] == parts.segments[k];
            if (digitJoins && parts.digits[k] && joinable && count > 2) { // with 2 parts the join is the compound
                emit(previous + part, TermKind.PART, sink);
            }
            previous = part;
        }
    }

    /**
     * Whether the word at {@code [start, end)} is written as code: a member access ({@code Pair.of},
     * {@code range.is(}) or a call ({@code of(}), where a stop word is a name and not prose.
     */
    static boolean isCodeContext(String text, int start, int end) {
        if (start >= 2 && text.charAt(start - 1) == '.'
                && IdentifierSplitter.isWordChar(text.codePointBefore(start - 1))) {
            return true;
        }
        if (end < text.length()) {
            char next = text.charAt(end);
            if (next == '(') {
                return true;
            }
            return next == '.' && end + 1 < text.length() && IdentifierSplitter.isWordChar(text.codePointAt(end + 1));
        }
        return false;
    }

    private void emit(String term, TermKind kind, TermSink sink) {
        if (term.length() > maxTermLength) {
            return;
        }
        if (stemming && (stemCompounds || kind != TermKind.COMPOUND)) {
            sink.accept(stem(term), kind); // a custom stemmer that gives nothing back leaves the term alone
        } else {
            sink.accept(term, kind);
        }
    }

    private static String lower(String text, int start, int end) {
        return text.substring(start, end).toLowerCase(Locale.ROOT);
    }

    /** Lucene's EnglishMinimalStemmer rules: {@code -ies} to {@code -y}, drop a plural {@code -s} ({@code -es}). */
    static String stemPlural(String s) {
        int len = s.length();
        if (len < 3 || s.charAt(len - 1) != 's') {
            return s;
        }
        char c2 = s.charAt(len - 2);
        if (c2 == 'u' || c2 == 's') {
            return s;
        }
        if (c2 == 'e') {
            char c3 = s.charAt(len - 3);
            if (len > 3 && c3 == 'i') {
                char c4 = s.charAt(len - 4);
                if (c4 != 'a' && c4 != 'e') {
                    return s.substring(0, len - 3) + 'y';
                }
            }
            if (c3 == 'i' || c3 == 'a' || c3 == 'o' || c3 == 'e') {
                return s;
            }
        }
        return s.substring(0, len - 1);
    }

    private static String describeStops(TreeSet<String> stops, boolean onParts, boolean keepCode) {
        String base;
        if (stops.isEmpty()) {
            return "none";
        }
        TreeSet<String> english = new TreeSet<>(ENGLISH_STOP_WORDS);
        TreeSet<String> englishJava = new TreeSet<>(ENGLISH_STOP_WORDS);
        englishJava.addAll(JAVA_KEYWORDS);
        if (stops.equals(english)) {
            base = "english";
        } else if (stops.equals(englishJava)) {
            base = "english+java";
        } else if (stops.equals(new TreeSet<>(JAVA_KEYWORDS))) {
            base = "java";
        } else {
            CRC32 crc = new CRC32();
            crc.update(String.join("\n", stops).getBytes(StandardCharsets.UTF_8));
            base = "custom:" + stops.size() + ":" + Long.toHexString(crc.getValue());
        }
        return base + (onParts ? "+parts" : "") + (keepCode ? "" : "+code");
    }

    /**
     * Builder. Defaults (= {@link #standard()}): stop words {@link #englishStopWords()} on stand-alone prose words
     * only (kept in identifiers and code), Java keywords kept, digit joins on, minimal plural stemming of words and
     * parts (not compounds), {@code maxTermLength} 255. Not thread-safe.
     */
    public static final class Builder {
        private Set<String> stopWords = ENGLISH_STOP_WORDS;
        private boolean dropJavaKeywords = false;
        private boolean stopWordsOnParts = false;
        private boolean keepCodeStopWords = true;
        private boolean digitJoins = true;
        private boolean stemming = true;
        private boolean stemCompounds = false;
        private String stemmerName = "minimal-plural";
        private UnaryOperator<String> stemmer = CodeDomainTokenizer::stemPlural;
        private int maxTermLength = 255;

        private Builder() {
        }

        /**
         * The stop words (case-insensitive); an empty collection keeps every word. Default
         * {@link #englishStopWords()}.
         */
        public Builder stopWords(Collection<String> words) {
            Objects.requireNonNull(words, "words");
            TreeSet<String> copy = new TreeSet<>();
            for (String w : words) {
                if (w == null) {
                    throw new IllegalArgumentException("stopWords must not contain null");
                }
                copy.add(w);
            }
            this.stopWords = copy;
            return this;
        }

        /** Whether Java keywords and literals ({@link #javaKeywords()}) are also stop words. Default {@code false}. */
        public Builder dropJavaKeywords(boolean drop) {
            this.dropJavaKeywords = drop;
            return this;
        }

        /**
         * Whether stop words are also dropped as parts of identifiers ({@code is} in {@code isEmpty}). Default
         * {@code false}.
         */
        public Builder stopWordsOnParts(boolean onParts) {
            this.stopWordsOnParts = onParts;
            return this;
        }

        /**
         * Whether a stop word written as code is kept: a member access or call such as {@code Pair.of},
         * {@code range.is(x)}, {@code of(}. Default {@code true}.
         */
        public Builder keepCodeStopWords(boolean keep) {
            this.keepCodeStopWords = keep;
            return this;
        }

        /**
         * Whether a digit part is also emitted joined to the letters before it ({@code base64}). Default
         * {@code true}.
         */
        public Builder digitJoins(boolean joins) {
            this.digitJoins = joins;
            return this;
        }

        /** Whether terms go through the minimal English plural stemmer. Default {@code true}. */
        public Builder stemming(boolean stem) {
            this.stemming = stem;
            return this;
        }

        /**
         * Replaces the built-in minimal plural stemmer, e.g. with a Porter or Snowball stemmer. {@code name} goes into
         * {@link CodeDomainTokenizer#id()}, so give each distinct stemmer a distinct name; {@code stemmer} must be
         * thread-safe and must not throw (a null or empty result keeps the term). Turns stemming on.
         */
        public Builder stemmer(String name, UnaryOperator<String> stemmer) {
            if (name == null || name.isBlank() || !name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("stemmer name must be non-blank [A-Za-z0-9._-], got '" + name + "'");
            }
            this.stemmer = Objects.requireNonNull(stemmer, "stemmer");
            this.stemmerName = name;
            this.stemming = true;
            return this;
        }

        /**
         * Whether stemming also applies to identifier compounds ({@code getbytes}). Default {@code false}: a compound
         * is an exact name, so {@code getBytes} and {@code getByte} stay apart while their parts meet.
         */
        public Builder stemCompounds(boolean stem) {
            this.stemCompounds = stem;
            return this;
        }

        /** Terms longer than this many chars are dropped; at least 1, default 255. */
        public Builder maxTermLength(int chars) {
            if (chars < 1) {
                throw new IllegalArgumentException("maxTermLength must be >= 1, got " + chars);
            }
            this.maxTermLength = chars;
            return this;
        }

        /** The tokenizer with this configuration. */
        public CodeDomainTokenizer build() {
            return new CodeDomainTokenizer(this);
        }
    }
}
