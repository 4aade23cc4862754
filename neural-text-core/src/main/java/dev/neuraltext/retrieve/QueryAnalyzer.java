package dev.neuraltext.retrieve;

import dev.neuraltext.internal.Checks;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Classifies a query as {@link QueryShape#IDENTIFIER identifier-shaped} ({@code ChatModel}, {@code @DefaultBean},
 * {@code java.util.concurrent.ConcurrentHashMap}, {@code StringUtils isBlank}) or {@link QueryShape#NATURAL_LANGUAGE
 * natural language} ({@code how are fused scores normalised}), so that {@link HybridCaseRetriever} can weight the
 * lexical leg up for identifier queries, where exact-token BM25 is far better than a dense model trained on English.
 *
 * <h2>Rules</h2>
 * The query is split on whitespace; wrapping quotes, backticks, brackets and trailing {@code , ; : ? !} and a
 * sentence-final {@code .} are stripped from each token. The query is identifier-shaped when
 * <ol>
 *   <li>no token is an English function word ({@link CodeDomainTokenizer#englishFunctionWords()}, 107 words:
 *       {@code a}, {@code the}, {@code is}, {@code how}, {@code of}, ...), and</li>
 *   <li>every token looks like an identifier (letters, digits, {@code _ $ . # :}, an optional leading {@code @}, an
 *       optional trailing {@code ()}), and</li>
 *   <li>either every token is <em>code-marked</em> (an inner case change as in {@code isBlank} or {@code TzInfo}, an
 *       {@code _}, {@code .}, {@code #}, {@code ::} or {@code $} between word characters, letters mixed with digits,
 *       a leading {@code @}, a trailing {@code ()}, or an all-capitals word of two or more letters), or the query has
 *       at most {@value #MAX_SHORT_KEYWORD_TOKENS} tokens (a short keyword query such as {@code Pair apply}).</li>
 * </ol>
 * Everything else, including an English sentence that mentions an identifier ({@code Checks if a CharSequence is
 * empty}), is natural language. The rules are deliberately simple and language-agnostic beyond the English stop
 * words; they look only at the shape of the text, never at a particular corpus.
 *
 * <p>Stateless; all methods are static and thread-safe.
 */
final class QueryAnalyzer {

    /** Queries of at most this many identifier-like tokens (and no stop words) count as keyword queries. */
    public static final int MAX_SHORT_KEYWORD_TOKENS = 3;

    /** The shape of a query. */
    public enum QueryShape {
        /** Code identifiers or a short keyword query: lexical matching is the reliable signal. */
        IDENTIFIER,
        /** A phrase or sentence in English: semantic matching helps. */
        NATURAL_LANGUAGE
    }

    private static final Set<String> STOP_WORDS = CodeDomainTokenizer.englishFunctionWords();

    private static final Pattern IDENTIFIER_LIKE = Pattern.compile("@?[\\p{L}_$][\\p{L}\\p{N}_$.#:]*(\\(\\))?");
    private static final Pattern CASE_CHANGE = Pattern.compile("\\p{Ll}\\p{Lu}|\\p{Lu}\\p{Lu}\\p{Ll}");
    private static final Pattern JOINER = Pattern.compile("[\\p{L}\\p{N}](_|\\.|#|::|\\$)[\\p{L}\\p{N}_$]");
    private static final Pattern LETTER_DIGIT = Pattern.compile("\\p{L}\\p{N}|\\p{N}\\p{L}");
    private static final Pattern ALL_CAPS = Pattern.compile("\\p{Lu}[\\p{Lu}\\p{N}]+");
    private static final String WRAPPERS = "\"'`([{<>}])";
    private static final String TRAILING = ",;:?!";

    private QueryAnalyzer() {
    }

    /**
     * The shape of {@code query}; see the class documentation for the rules. A blank query is natural language.
     *
     * @throws IllegalArgumentException if {@code query} is null
     */
    public static QueryShape classify(String query) {
        Checks.notNull(query, "query");
        List<String> tokens = tokens(query);
        if (tokens.isEmpty()) {
            return QueryShape.NATURAL_LANGUAGE;
        }
        boolean allMarked = true;
        for (String t : tokens) {
            if (STOP_WORDS.contains(t.toLowerCase(Locale.ROOT)) || !IDENTIFIER_LIKE.matcher(t).matches()) {
                return QueryShape.NATURAL_LANGUAGE;
            }
            allMarked &= isCodeMarked(t);
        }
        return allMarked || tokens.size() <= MAX_SHORT_KEYWORD_TOKENS
                ? QueryShape.IDENTIFIER : QueryShape.NATURAL_LANGUAGE;
    }

    /**
     * The graded features {@link GradedFusion} weights the legs by.
     *
     * @param tokens           whitespace tokens after stripping wrapping punctuation
     * @param codeShare        the share of tokens that are {@link #isCodeMarked code-marked} (0 for a blank query)
     * @param stopWordShare    the share of tokens that are English function words
     * @param identifierShaped whether {@link #classify} says {@link QueryShape#IDENTIFIER}
     */
    record Features(int tokens, double codeShare, double stopWordShare, boolean identifierShaped) {
    }

    /** The features of {@code query}; see {@link Features}. */
    static Features features(String query) {
        Checks.notNull(query, "query");
        List<String> tokens = tokens(query);
        if (tokens.isEmpty()) {
            return new Features(0, 0, 0, false);
        }
        int code = 0;
        int stop = 0;
        for (String t : tokens) {
            if (STOP_WORDS.contains(t.toLowerCase(Locale.ROOT))) {
                stop++;
            } else if (isCodeMarked(t)) {
                code++;
            }
        }
        return new Features(tokens.size(), (double) code / tokens.size(), (double) stop / tokens.size(),
                classify(query) == QueryShape.IDENTIFIER);
    }

    /** Whether {@code token} carries a mark of code: case change, joiner, letter-digit mix, {@code @}, {@code ()}, caps. */
    static boolean isCodeMarked(String token) {
        return token.startsWith("@") || token.endsWith("()") || CASE_CHANGE.matcher(token).find()
                || JOINER.matcher(token).find() || LETTER_DIGIT.matcher(token).find()
                || ALL_CAPS.matcher(token).matches();
    }

    /** Whitespace tokens with wrapping punctuation stripped; tokens that strip to nothing are dropped. */
    static List<String> tokens(String query) {
        List<String> out = new ArrayList<>();
        for (String raw : query.trim().split("\\s+")) {
            String t = raw;
            boolean changed = true;
            while (changed && !t.isEmpty()) {
                changed = false;
                char first = t.charAt(0);
                char last = t.charAt(t.length() - 1);
                if (WRAPPERS.indexOf(first) >= 0) {
                    t = t.substring(1);
                    changed = true;
                } else if (t.endsWith("()")) {
                    break;
                } else if (WRAPPERS.indexOf(last) >= 0 || TRAILING.indexOf(last) >= 0 || last == '.') {
                    t = t.substring(0, t.length() - 1);
                    changed = true;
                }
            }
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }
}
