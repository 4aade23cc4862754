package dev.neuraltext.eval;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * NDCG of a ranked list of chunks against file and span targets, by the rules of the semble code-search benchmark
 * (MinishLab/semble {@code benchmarks/}), so that our figures compare with its published ones:
 * <ul>
 *   <li>only the first {@code k} chunks count (the benchmark uses 10); files are not deduplicated;</li>
 *   <li>a target is found at the rank of the <em>first</em> chunk whose path {@link #pathsMatch matches} and, when the
 *       target has a span, whose lines overlap it (a chunk without known lines overlaps nothing); a target without a
 *       span matches any chunk of its file;</li>
 *   <li>every target has gain 1 (relevant and secondary alike); several targets found at the same rank count once;</li>
 *   <li>the ideal DCG is that of {@code min(k, number of targets)} ones; a question without targets scores 0.</li>
 * </ul>
 * {@link #fileLevel} is the benchmark's variant for file-level tools: the chunks turned into their files,
 * deduplicated in order, the first {@code k} files kept, and a target matched on its path only. Stateless.
 */
public final class SpanNdcg {

    /** The benchmark's cut. */
    public static final int K = 10;

    private SpanNdcg() {
    }

    /**
     * Whether a retrieved path and a target path name the same file: equal, or one ends with {@code "/"} followed by
     * the other (paths relative to different roots).
     */
    public static boolean pathsMatch(String retrieved, String target) {
        return retrieved.equals(target) || retrieved.endsWith("/" + target) || target.endsWith("/" + retrieved);
    }

    /** The 1-based ranks (within the first {@code k}) at which targets are found, distinct and ascending. */
    public static List<Integer> foundRanks(List<RetrievedSpan> ranked, List<SpanTarget> targets, int k) {
        Set<Integer> ranks = new TreeSet<>();
        int n = Math.min(k, ranked.size());
        for (SpanTarget t : targets) {
            for (int i = 0; i < n; i++) {
                RetrievedSpan r = ranked.get(i);
                if (matches(r, t)) {
                    ranks.add(i + 1);
                    break;
                }
            }
        }
        return new ArrayList<>(ranks);
    }

    /** NDCG@{@code k} of chunks against targets (chunk level, the benchmark's headline). */
    public static double chunkLevel(List<RetrievedSpan> ranked, List<SpanTarget> targets, int k) {
        checkK(k);
        return ndcg(foundRanks(ranked, targets, k), targets.size(), k);
    }

    /** NDCG@{@code k} of the chunks' files, deduplicated in order, against the targets' paths (file level). */
    public static double fileLevel(List<RetrievedSpan> ranked, List<SpanTarget> targets, int k) {
        checkK(k);
        Set<String> files = new LinkedHashSet<>();
        for (RetrievedSpan r : ranked) {
            if (files.size() == k) {
                break;
            }
            files.add(r.path());
        }
        List<RetrievedSpan> asFiles = new ArrayList<>(files.size());
        for (String f : files) {
            asFiles.add(new RetrievedSpan(f, 0, 0));
        }
        List<SpanTarget> paths = new ArrayList<>(targets.size());
        for (SpanTarget t : targets) {
            paths.add(SpanTarget.file(t.path()));
        }
        return ndcg(foundRanks(asFiles, paths, k), targets.size(), k);
    }

    private static double ndcg(List<Integer> ranks, int targets, int k) {
        if (targets == 0) {
            return 0;
        }
        double dcg = 0;
        for (int r : ranks) {
            dcg += 1 / log2(r + 1);
        }
        double ideal = 0;
        for (int i = 1; i <= Math.min(k, targets); i++) {
            ideal += 1 / log2(i + 1);
        }
        return dcg / ideal;
    }

    /** Whether a retrieved chunk answers a target: same file and, when the target has a span, overlapping lines. */
    static boolean matches(RetrievedSpan r, SpanTarget t) {
        return pathsMatch(r.path(), t.path()) && (!t.hasSpan() || overlaps(r, t));
    }

    private static boolean overlaps(RetrievedSpan r, SpanTarget t) {
        return r.startLine() > 0 && r.endLine() >= r.startLine() && r.startLine() <= t.endLine()
                && t.startLine() <= r.endLine();
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    private static void checkK(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
    }
}
