package dev.neuraltext.lab;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.fusion.FusedResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Query intent as a boost, for measurement ({@link FusionFit}): a query that names a file, a symbol or a type
 * ({@code RetryPolicy.java}, {@code StopWatch.formatSplitTime}, {@code OwnerController}) lifts the fused score of the
 * chunks of that name by {@code beta} times the top fused score, times the strength of the match: 1 for the file, the
 * symbol or the type itself (a Markdown section whose heading path contains the name), {@value #MEMBER} for a member
 * of that simple name, {@value #CLASS_MEMBER} for a member of the named type. A boost, never a filter. It is not in
 * the library: on the dev datasets it showed no gain (README). Stateless.
 */
final class NamedSymbolBoost {

    /** Match strength of a member whose simple name is the named one. */
    static final double MEMBER = 0.5;
    /** Match strength of a member of the named type. */
    static final double CLASS_MEMBER = 0.3;

    private static final String STRIP = "\"'`()[]{},;:?!";
    private static final Pattern CODE_MARK = Pattern.compile(
            "\\p{Ll}\\p{Lu}|\\p{Lu}{2,}\\p{Ll}|\\w[._#$]\\w|::|\\(\\)|^@");

    private NamedSymbolBoost() {
    }

    /** The names a query gives: its code-marked tokens ({@code isBlank}, {@code A.b}, {@code f()}, {@code X.java}). */
    static List<String> names(String query) {
        List<String> out = new ArrayList<>();
        for (String raw : query.trim().split("\\s+")) {
            String token = strip(raw);
            if (!CODE_MARK.matcher(token).find()) {
                continue;
            }
            int paren = token.indexOf('(');
            String name = strip(paren >= 0 ? token.substring(0, paren) : token).replace("#", ".").replace("::", ".");
            if (name.endsWith(".")) {
                name = name.substring(0, name.length() - 1);
            }
            if (name.length() >= 3) {
                out.add(name.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static String strip(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && STRIP.indexOf(s.charAt(a)) >= 0) {
            a++;
        }
        while (b > a && STRIP.indexOf(s.charAt(b - 1)) >= 0) {
            b--;
        }
        return s.substring(a, b);
    }

    /** How strongly {@code chunk} is what one of {@code names} names: 0 (not at all) to 1. */
    static double match(List<String> names, ChunkInput chunk) {
        Map<String, String> m = chunk.metadata();
        String path = m.getOrDefault(ChunkMetadata.PATH, "");
        String file = path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        String symbol = m.getOrDefault(ChunkMetadata.SYMBOL, "").toLowerCase(Locale.ROOT);
        String className = m.getOrDefault(ChunkMetadata.CLASS_NAME, "").toLowerCase(Locale.ROOT);
        String simpleClass = className.substring(className.lastIndexOf('.') + 1);
        String member = symbol.substring(symbol.lastIndexOf('.') + 1);
        String section = m.getOrDefault(ChunkMetadata.SECTION, "").toLowerCase(Locale.ROOT);
        boolean type = ChunkMetadata.SYMBOL_TYPE_TYPE.equals(m.get(ChunkMetadata.SYMBOL_TYPE));
        double best = 0;
        for (String n : names) {
            if (n.equals(file) || n.equals(symbol) || symbol.endsWith("." + n) && n.indexOf('.') > 0
                    || type && n.equals(simpleClass) || !section.isEmpty() && section.contains(n)) {
                return 1;
            }
            if (n.indexOf('.') < 0 && !member.isEmpty() && n.equals(member)) {
                best = Math.max(best, MEMBER);
            } else if (n.equals(simpleClass)) {
                best = Math.max(best, CLASS_MEMBER);
            }
        }
        return best;
    }

    /** The ids of {@code fused} (best first) after the boost; ties keep the fused order. */
    static List<String> apply(String query, List<FusedResult> fused, Map<String, ChunkInput> chunks, double beta) {
        List<String> names = names(query);
        List<String> ids = new ArrayList<>(fused.size());
        fused.forEach(r -> ids.add(r.id()));
        if (names.isEmpty() || fused.isEmpty() || beta == 0) {
            return ids;
        }
        double top = fused.get(0).fusedScore();
        Map<String, Double> score = new HashMap<>();
        for (FusedResult r : fused) {
            ChunkInput c = chunks.get(r.id());
            score.put(r.id(), r.fusedScore() + (c == null ? 0 : beta * top * match(names, c)));
        }
        ids.sort(Comparator.comparingDouble((String id) -> -score.get(id))); // stable: ties keep the fused order
        return ids;
    }
}
