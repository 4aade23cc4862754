package dev.neuraltext.cli.eval;

import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What coding agents use today: a case-insensitive literal match ({@code grep -i -F}) of each of the query's non-stop
 * words over the document text ({@code title + "\n" + text}). Documents are ranked by the number of distinct query
 * words they contain, then by the total number of occurrences, then by id; documents matching no word are not
 * returned. Query words are the whitespace tokens with wrapping quotes, brackets and trailing punctuation removed,
 * minus Lucene's English stop words. Searches are thread-safe after indexing.
 */
public final class GrepPeer implements Peer {

    private static final String LEADING = "\"'`([{<";
    private static final String TRAILING = "\"'`,;:?!.]}>";

    private String[] ids;
    private String[] lowerTexts;

    @Override
    public String name() {
        return "grep";
    }

    @Override
    public String description() {
        return "case-insensitive literal match of the query's non-stop words, ranked by distinct words, then "
                + "occurrences";
    }

    @Override
    public void index(List<EvalDocument> documents, ProgressBar progress) {
        ids = new String[documents.size()];
        lowerTexts = new String[documents.size()];
        for (int i = 0; i < documents.size(); i++) {
            EvalDocument d = documents.get(i);
            ids[i] = d.id();
            lowerTexts[i] = (d.title() + "\n" + d.text()).toLowerCase(Locale.ROOT);
            progress.update(i + 1);
        }
    }

    @Override
    public Ranking search(String query, int depth) {
        List<String> words = new ArrayList<>(words(query));
        List<long[]> matches = new ArrayList<>(); // {distinct, occurrences, document}
        for (int d = 0; d < lowerTexts.length; d++) {
            int distinct = 0;
            long occurrences = 0;
            for (String w : words) {
                int n = count(lowerTexts[d], w);
                if (n > 0) {
                    distinct++;
                    occurrences += n;
                }
            }
            if (distinct > 0) {
                matches.add(new long[] {distinct, occurrences, d});
            }
        }
        matches.sort((a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : a[1] != b[1] ? Long.compare(b[1], a[1])
                : ids[(int) a[2]].compareTo(ids[(int) b[2]]));
        List<String> out = new ArrayList<>(Math.min(depth, matches.size()));
        for (int i = 0; i < Math.min(depth, matches.size()); i++) {
            out.add(ids[(int) matches.get(i)[2]]);
        }
        return new Ranking(out, 0);
    }

    /** The distinct lower-cased non-stop words of {@code query}, wrapping punctuation removed. */
    static Set<String> words(String query) {
        Set<String> out = new LinkedHashSet<>();
        Set<String> stop = CodeDomainTokenizer.englishStopWords();
        for (String raw : query.toLowerCase(Locale.ROOT).trim().split("\\s+")) {
            int from = 0;
            int to = raw.length();
            while (from < to && LEADING.indexOf(raw.charAt(from)) >= 0) {
                from++;
            }
            while (to > from && (TRAILING.indexOf(raw.charAt(to - 1)) >= 0
                    || raw.charAt(to - 1) == ')' && raw.lastIndexOf('(', to - 1) < from)) {
                to--;
            }
            String w = raw.substring(from, to);
            if (!w.isEmpty() && !stop.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    private static int count(String text, String word) {
        int n = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length())) {
            n++;
        }
        return n;
    }
}
