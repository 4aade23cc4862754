package dev.neuraltext.retrieve;

import dev.neuraltext.text.CodeDomainTokenizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What {@link RepositoryRanking} matches names and paths against: the query's content words and the words of file
 * and folder names, split and stemmed as BM25 splits and stems them ({@link CodeDomainTokenizer#words},
 * {@link CodeDomainTokenizer#stem}: {@code ZodError} gives {@code zod, error}, {@code args} gives {@code arg}), English
 * stop words dropped from the query's; and the names the query may mention (each token and each of its dotted
 * segments, and runs of up to three adjacent content words joined, all reduced to lower-case letters and digits).
 * Words match when equal or, from four letters on, when they share a stem: a common prefix of at least four letters
 * that leaves at most two letters of the shorter word and at most five of the longer ({@code streams} and
 * {@code streaming}, {@code compose} and {@code composition}). Immutable.
 */
final class QueryTerms {

    private static final int MIN_PREFIX = 4;
    private static final int MAX_ENDING = 5;
    private static final CodeDomainTokenizer TOKENIZER = CodeDomainTokenizer.standard();
    private static final Set<String> STOP_WORDS = CodeDomainTokenizer.englishStopWords();

    private final List<String> words;
    private final Set<String> names;
    /** Per name the query writes as an identifier (an inner capital or an underscore), its spellings as written. */
    private final Map<String, Set<String>> spelled;

    private QueryTerms(List<String> words, Set<String> names, Map<String, Set<String>> spelled) {
        this.words = words;
        this.names = names;
        this.spelled = spelled;
    }

    static QueryTerms of(String query) {
        Set<String> stop = STOP_WORDS;
        List<String> words = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        Map<String, Set<String>> spelled = new HashMap<>();
        for (String token : QueryAnalyzer.tokens(query)) {
            for (String segment : token.split("\\.|#|::|/|\\(\\)")) {
                String n = normal(segment);
                if (n.length() >= 2 && !stop.contains(n)) {
                    names.add(n);
                    String written = spelling(segment);
                    if (isIdentifierShaped(written)) {
                        spelled.computeIfAbsent(n, k -> new HashSet<>()).add(written);
                    }
                }
            }
            for (String w : split(token)) {
                if (!stop.contains(w) && w.length() >= 2 && !words.contains(w)) {
                    words.add(w);
                }
            }
        }
        List<String> content = new ArrayList<>();
        for (String token : QueryAnalyzer.tokens(query)) {
            String n = normal(token);
            if (!n.isEmpty() && !stop.contains(token.toLowerCase(Locale.ROOT))) {
                content.add(n);
            } else {
                content.add(null); // a stop word breaks a run
            }
        }
        for (int i = 0; i < content.size(); i++) {
            StringBuilder run = new StringBuilder();
            for (int j = i; j < Math.min(content.size(), i + 3) && content.get(j) != null; j++) {
                run.append(content.get(j));
                if (j > i) {
                    names.add(run.toString());
                }
            }
        }
        Map<String, Set<String>> spellings = new HashMap<>();
        spelled.forEach((n, w) -> spellings.put(n, Set.copyOf(w)));
        return new QueryTerms(List.copyOf(words), Set.copyOf(names), Map.copyOf(spellings));
    }

    /**
     * Whether {@code symbol}'s last segment (after {@code . # ::}, arguments dropped) is a name the query mentions. A
     * name the query writes as an identifier, with an inner capital or an underscore, must be spelled as written (other
     * characters aside: {@code $ZodError} is {@code ZodError}): the trait {@code FromRequest} is defined by
     * {@code trait FromRequest}, not by a method {@code from_request}; words the query writes in lower case
     * ({@code gsonbuilder}, {@code json reader}) match any spelling.
     */
    boolean namesSymbol(String symbol) {
        if (symbol == null || symbol.isBlank()) {
            return false;
        }
        String s = symbol;
        int paren = s.indexOf('(');
        if (paren > 0) {
            s = s.substring(0, paren);
        }
        String[] parts = s.split("\\.|#|::");
        String written = parts.length == 0 ? "" : parts[parts.length - 1];
        String last = normal(written);
        if (last.length() < 2 || !names.contains(last)) {
            return false;
        }
        Set<String> spellings = spelled.get(last);
        return spellings == null || spellings.contains(spelling(written));
    }

    /** A capital after the first character, or an underscore: {@code FromRequest}, {@code isBlank}, {@code get_x}. */
    private static boolean isIdentifierShaped(String written) {
        for (int i = 0; i < written.length(); i++) {
            char c = written.charAt(i);
            if (c == '_' || i > 0 && Character.isUpperCase(c)) {
                return true;
            }
        }
        return false;
    }

    /** {@code s} with only its letters, digits and underscores, as written. */
    private static String spelling(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_') {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** Whether the file's name without extension, or that less a plural {@code s}, is a name the query mentions. */
    boolean namesFile(String path) {
        String stem = normal(stem(path));
        if (stem.length() < 2) {
            return false;
        }
        return names.contains(stem) || stem.endsWith("s") && names.contains(stem.substring(0, stem.length() - 1))
                || names.contains(stem + "s");
    }

    /**
     * How well the file's name names what the query mentions: 1 when {@link #namesFile} and the name has no other part
     * ({@code SqlMapper.cs}, {@code Transactions.kt} for {@code Transaction}), 0.5 when it has
     * ({@code SqlMapper.Settings.cs}, {@code client.test.ts}), else 0.
     */
    double fileNaming(String path) {
        if (!namesFile(path)) {
            return 0;
        }
        String file = path.substring(path.lastIndexOf('/') + 1);
        int last = file.lastIndexOf('.');
        return last > 0 && file.indexOf('.', 1) < last ? 0.5 : 1;
    }

    /**
     * The query's content words, lower-cased, in order: {@code v3}, {@code compatibility}, {@code zod}, {@code error}
     * for "v3 compatibility ZodError".
     */
    List<String> words() {
        return words;
    }

    /** The share of the query's content words found among the words of the file's name. */
    double shareInFileName(String path) {
        return share(split(stem(path)));
    }

    /** The share of the query's content words found among the words of the file's folders. */
    double shareInFolders(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? 0 : share(split(path.substring(0, slash)));
    }

    /**
     * The share of the words of the file's name found among the query's content words (1: the name says no more). The
     * words a file name adds to say it holds helpers ({@link #GENERIC_NAME_WORDS}: {@code BooleanUtils.java},
     * {@code string_helpers.py}) say nothing of its subject and do not count, unless they are all the name has.
     */
    double fileNameCovered(String path) {
        List<String> name = split(stem(path));
        List<String> subject = new ArrayList<>(name.size());
        for (String w : name) {
            if (!GENERIC_NAME_WORDS.contains(w)) {
                subject.add(w);
            }
        }
        return shareFound(subject.isEmpty() ? name : subject, words);
    }

    /** File-name words that say a file holds helpers, not what they are about. */
    static final Set<String> GENERIC_NAME_WORDS = Set.of("util", "utils", "utility", "utilities", "helper", "helpers",
            "support", "impl");

    private double share(List<String> target) {
        return shareFound(words, target);
    }

    /** The share of {@code wanted} that some word of {@code in} matches; 0 when either is empty. */
    private static double shareFound(List<String> wanted, List<String> in) {
        if (wanted.isEmpty() || in.isEmpty()) {
            return 0;
        }
        int found = 0;
        for (String w : wanted) {
            for (String t : in) {
                if (matches(w, t)) {
                    found++;
                    break;
                }
            }
        }
        return (double) found / wanted.size();
    }

    static boolean matches(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        String shorter = a.length() <= b.length() ? a : b;
        String longer = shorter == a ? b : a;
        if (shorter.length() < MIN_PREFIX) {
            return false;
        }
        int common = 0;
        while (common < shorter.length() && shorter.charAt(common) == longer.charAt(common)) {
            common++;
        }
        // the same stem with different endings: route/routes, stream/streaming/streams, compose/composition
        return common >= Math.max(MIN_PREFIX, shorter.length() - 2) && longer.length() - common <= MAX_ENDING;
    }

    private static String stem(String path) {
        String file = path.substring(path.lastIndexOf('/') + 1);
        int dot = file.indexOf('.', 1);
        return dot < 0 ? file : file.substring(0, dot);
    }

    /**
     * Words of an identifier or path as BM25 has them: {@link CodeDomainTokenizer#words} (the tokenizer's parts, a
     * run of digits kept with the letters before it), each but a stop word stemmed as the tokenizer stems.
     */
    static List<String> split(String text) {
        List<String> words = TOKENIZER.words(text);
        List<String> out = new ArrayList<>(words.size());
        for (String w : words) {
            out.add(STOP_WORDS.contains(w) ? w : TOKENIZER.stem(w));
        }
        return out;
    }

    private static String normal(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                b.append(Character.toLowerCase(c));
            }
        }
        return b.toString();
    }
}
