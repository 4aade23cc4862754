package dev.neuraltext.retrieve;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ranking of candidates for an issue text ({@link IssueText}): files compete, each by evidence gathered over its
 * candidate chunks, and a file's chunks follow it best first, one chunk per file before any file's second, so that
 * grouping the answer by file ({@link FileGroups}) keeps the files' order. A file's score is the weighted sum of
 * <ul>
 *   <li>{@code bm25}: its best chunk's BM25 score relative to the best candidate's (the issue's words, all of them);</li>
 *   <li>{@code dense}: its best dense similarity (the title and first paragraph) scaled between the lowest and the
 *       highest candidate's;</li>
 *   <li>{@code path}: the issue names the file by its path (a path that ends with the file's path, an install prefix
 *       before it), 1; or by a file name alone that other files share, 1 / the number of candidate files of that
 *       name;</li>
 *   <li>{@code frame}: the file is a traceback frame, 1 for the innermost frame inside the repository, halved for each
 *       frame further out;</li>
 *   <li>{@code module}: the issue names the file as a dotted module ({@code pkg.sub.mod}, or an attribute of it);</li>
 *   <li>{@code stem}: the file's name (a package's {@code __init__} or {@code index}: its folder's) occurs as a word of
 *       the issue, {@code log2(1 + occurrences) / 4}, at most 1;</li>
 *   <li>{@code folder}: the share of the file's folders, the top one left out, whose names occur as words;</li>
 *   <li>{@code defines}: the issue's code identifiers its chunks define, {@code log2(1 + n) / log2(1 + all)};</li>
 *   <li>{@code doc}: the file is documentation (prose), not code;</li>
 *   <li>{@code evidence}: its chunks' relative BM25 scores, best first, each halved from the one before
 *       ({@link FileGroups}' evidence), relative to the best file's;</li>
 *   <li>{@code fused}: its best chunk's fused score relative to the best candidate's.</li>
 * </ul>
 * Stateless and thread-safe.
 */
final class IssueRanking {

    /** The signals, in the order {@link Weights} holds them. */
    static final List<String> SIGNALS = List.of("bm25", "dense", "path", "frame", "module", "stem", "folder",
            "defines", "doc", "evidence", "fused");

    /**
     * The weight of each of {@link #SIGNALS}.
     *
     * @param values one weight per signal, in that order
     */
    record Weights(double[] values) {
        Weights {
            if (values.length != SIGNALS.size()) {
                throw new IllegalArgumentException("expected " + SIGNALS.size() + " weights " + SIGNALS + ", got "
                        + values.length);
            }
            values = values.clone();
        }

        double of(int signal) {
            return values[signal];
        }
    }

    /** The shipped weights (see the class documentation of {@link HybridCaseRetriever}'s issue search). */
    static final Weights DEFAULTS = new Weights(new double[] {1.0, 0.5, 1.0, 0.5, 0.5, 0.3, 0.3, 0.5, -1.0, 0, 0});

    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> PACKAGE_FILES = Set.of("__init__", "index", "mod", "lib", "main", "package");

    private IssueRanking() {
    }

    /** The features of each candidate file (in first-appearance order), by signal index. */
    static Map<String, double[]> fileFeatures(IssueText issue, String issueText, List<SearchHit> hits) {
        Map<String, double[]> files = new LinkedHashMap<>();
        LegScoreRange range = LegScoreRange.of(hits);
        double bm25Top = range.bm25Top();
        double denseTop = range.denseTop();
        double denseLow = range.denseLow();
        Map<String, Integer> wordCounts = wordCounts(issueText);
        Set<String> identifiers = new HashSet<>(issue.identifiers());
        Map<String, Set<String>> defined = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            String path = pathOf(h);
            double[] f = files.computeIfAbsent(path, p -> new double[SIGNALS.size()]);
            LegScore b = h.legs().get(Leg.BM25);
            if (b != null && bm25Top > 0) {
                f[0] = Math.max(f[0], b.score() / bm25Top);
            }
            LegScore d = h.legs().get(Leg.DENSE);
            if (d != null) {
                f[1] = Math.max(f[1], denseTop > denseLow ? (d.score() - denseLow) / (denseTop - denseLow) : 1);
            }
            String symbol = h.metadata().get(ChunkMetadata.SYMBOL);
            if (symbol != null && identifiers.contains(symbol)) {
                defined.computeIfAbsent(path, p -> new HashSet<>()).add(symbol);
            }
            if (ChunkMetadata.TYPE_DOC.equals(h.metadata().get(ChunkMetadata.TYPE))) {
                f[8] = 1;
            }
        }
        double fusedTop = hits.isEmpty() ? 1 : Math.max(1e-12, hits.get(0).fusedScore());
        Map<String, List<Double>> bm25ByFile = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            String path = pathOf(h);
            double[] f = files.get(path);
            f[10] = Math.max(f[10], h.fusedScore() / fusedTop);
            LegScore b = h.legs().get(Leg.BM25);
            if (b != null && bm25Top > 0) {
                bm25ByFile.computeIfAbsent(path, p -> new ArrayList<>()).add(b.score() / bm25Top);
            }
        }
        double evidenceTop = 0;
        for (Map.Entry<String, List<Double>> e : bm25ByFile.entrySet()) {
            List<Double> scores = e.getValue();
            scores.sort(java.util.Comparator.reverseOrder());
            double sum = 0;
            double weight = 1;
            for (double v : scores) {
                sum += weight * v;
                weight /= 2;
            }
            files.get(e.getKey())[9] = sum;
            evidenceTop = Math.max(evidenceTop, sum);
        }
        if (evidenceTop > 0) {
            for (double[] f : files.values()) {
                f[9] /= evidenceTop;
            }
        }
        Map<String, Integer> byName = new LinkedHashMap<>();
        for (String path : files.keySet()) {
            byName.merge(fileName(path), 1, Integer::sum);
        }
        double allIds = Math.log(1 + identifiers.size()) / Math.log(2);
        for (Map.Entry<String, double[]> e : files.entrySet()) {
            String path = e.getKey();
            double[] f = e.getValue();
            f[2] = pathMention(issue.paths(), path, byName);
            f[3] = frame(issue, path);
            f[4] = moduleMention(issue.modules(), path);
            f[5] = stemIsTopFolder(path) ? 0
                    : Math.min(1, Math.log(1 + wordCounts.getOrDefault(stem(path), 0)) / Math.log(2) / 4);
            f[6] = folderShare(path, wordCounts);
            int n = defined.getOrDefault(path, Set.of()).size();
            f[7] = allIds <= 0 ? 0 : Math.log(1 + n) / Math.log(2) / allIds;
        }
        return files;
    }

    /**
     * {@code hits} re-ordered for {@code issue}: files by score, one chunk per file before a second, each file's chunks in
     * their fused order; every hit carries its file's signals and {@code score}. The score thresholds act on stays on
     * the fused scale and never rises down the list.
     */
    static List<SearchHit> rank(IssueText issue, String issueText, List<SearchHit> hits, Weights w) {
        if (hits.size() < 2) {
            return hits;
        }
        Map<String, double[]> features = fileFeatures(issue, issueText, hits);
        Map<String, Double> scores = new LinkedHashMap<>();
        features.forEach((path, f) -> {
            double s = 0;
            for (int i = 0; i < f.length; i++) {
                s += w.of(i) * f[i];
            }
            scores.put(path, s);
        });
        List<String> order = new ArrayList<>(scores.keySet());
        order.sort((a, b) -> Double.compare(scores.get(b), scores.get(a))); // stable: first appearance breaks ties
        Map<String, List<SearchHit>> byFile = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            byFile.computeIfAbsent(pathOf(h), p -> new ArrayList<>()).add(h);
        }
        Set<String> identifiers = new HashSet<>(issue.identifiers());
        byFile.forEach((path, chunks) -> {
            Set<Integer> lines = issue.linesOf(path);
            // within a file: the chunk holding a line the issue gives, then one defining a name it writes as code,
            // then the fused order (a stable sort)
            chunks.sort((a, b) -> Integer.compare(chunkEvidence(b, lines, identifiers),
                    chunkEvidence(a, lines, identifiers)));
        });
        return interleave(order, byFile, (path, h) -> {
            Map<String, Double> signals = new LinkedHashMap<>();
            double[] f = features.get(path);
            for (int i = 0; i < f.length; i++) {
                if (f[i] != 0) {
                    signals.put(SIGNALS.get(i), f[i]);
                }
            }
            signals.put("issue", 1.0);
            signals.put("score", scores.get(path));
            return signals;
        });
    }

    /**
     * The chunks of {@code byFile} one per file before any file's second, files in {@code order}; each hit carries
     * {@code signals(path, hit)}, and its shown score never rises down the list (thresholds act on the fused scale).
     */
    static List<SearchHit> interleave(List<String> order, Map<String, List<SearchHit>> byFile,
            BiFunction<String, SearchHit, Map<String, Double>> signals) {
        int total = 0;
        for (List<SearchHit> chunks : byFile.values()) {
            total += chunks.size();
        }
        List<SearchHit> out = new ArrayList<>(total);
        for (int round = 0; out.size() < total; round++) {
            for (String path : order) {
                List<SearchHit> chunks = byFile.get(path);
                if (round < chunks.size()) {
                    SearchHit h = chunks.get(round);
                    double shown = out.isEmpty() ? h.score() : Math.min(h.score(), out.get(out.size() - 1).score());
                    out.add(h.withScore(shown).withRankSignals(signals.apply(path, h)));
                }
            }
        }
        return out;
    }

    /** 2 when the chunk holds one of {@code lines}, 1 when it defines one of {@code identifiers}, else 0. */
    static int chunkEvidence(SearchHit h, Set<Integer> lines, Set<String> identifiers) {
        if (!lines.isEmpty()) {
            try {
                int from = Integer.parseInt(h.metadata().getOrDefault(ChunkMetadata.START_LINE, "-1"));
                int to = Integer.parseInt(h.metadata().getOrDefault(ChunkMetadata.END_LINE, "-1"));
                for (int line : lines) {
                    if (line >= from && line <= to) {
                        return 2;
                    }
                }
            } catch (NumberFormatException e) {
                // no line span: no line evidence
            }
        }
        return identifiers.contains(h.metadata().get(ChunkMetadata.SYMBOL)) ? 1 : 0;
    }

    static String pathOf(SearchHit h) {
        return h.metadata().getOrDefault(ChunkMetadata.PATH, h.id()).replace('\\', '/');
    }

    /** 1 when a mentioned path ends with {@code path} (or {@code path} ends with a mention of two or more parts). */
    static double pathMention(List<String> mentions, String path, Map<String, Integer> byName) {
        double best = 0;
        for (String m : mentions) {
            if (endsWithPath(m, path) || m.indexOf('/') > 0 && endsWithPath(path, m)) {
                return 1;
            }
            if (m.indexOf('/') < 0 && m.equals(fileName(path))) {
                best = Math.max(best, 1.0 / byName.getOrDefault(m, 1));
            }
        }
        return best;
    }

    /** The innermost frame inside the repository 1, each frame further out half of the one inside it. */
    static double frame(IssueText issue, String path) {
        double weight = 1;
        for (int i = issue.frames() - 1; i >= 0; i--) {
            String m = issue.paths().get(i);
            if (endsWithPath(m, path) || m.indexOf('/') > 0 && endsWithPath(path, m)) {
                return weight;
            }
            weight /= 2;
        }
        return 0;
    }

    static double moduleMention(List<String> modules, String path) {
        for (String module : modules) {
            for (String file : IssueText.moduleFiles(module)) {
                if (endsWithPath(file, path) || endsWithPath(path, file)) {
                    return 1;
                }
            }
        }
        return 0;
    }

    /** Whether {@code longer} is {@code shorter} or ends with {@code /shorter}. */
    static boolean endsWithPath(String longer, String shorter) {
        return longer.equals(shorter) || longer.endsWith("/" + shorter);
    }

    static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The file's name up to its first dot, lower-cased; a package file's ({@code __init__.py}) folder name. */
    static String stem(String path) {
        String name = fileName(path);
        int dot = name.indexOf('.');
        String s = (dot <= 0 ? name : name.substring(0, dot)).toLowerCase(Locale.ROOT);
        if (PACKAGE_FILES.contains(s)) {
            String[] parts = path.split("/");
            return parts.length >= 2 ? parts[parts.length - 2].toLowerCase(Locale.ROOT) : s;
        }
        return s;
    }

    /**
     * Whether the file's stem is its top folder's name ({@code sphinx/locale/sr/sphinx.js}): the project's own name,
     * which an issue repeats throughout, says nothing about the file.
     */
    static boolean stemIsTopFolder(String path) {
        int slash = path.indexOf('/');
        return slash > 0 && path.substring(0, slash).toLowerCase(Locale.ROOT).equals(stem(path));
    }

    static double folderShare(String path, Map<String, Integer> words) {
        String[] parts = path.split("/");
        int folders = parts.length - 1;
        if (folders <= 1) {
            return 0;
        }
        int found = 0;
        for (int i = 1; i < folders; i++) {
            if (words.containsKey(parts[i].toLowerCase(Locale.ROOT))) {
                found++;
            }
        }
        return (double) found / (folders - 1);
    }

    /** Each word of {@code text} (identifiers whole, and their parts at underscores), lower-cased, with its count. */
    static Map<String, Integer> wordCounts(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            String w = m.group().toLowerCase(Locale.ROOT);
            counts.merge(w, 1, Integer::sum);
            if (w.indexOf('_') > 0) {
                for (String part : w.split("_+")) {
                    if (part.length() >= 3) {
                        counts.merge(part, 1, Integer::sum);
                    }
                }
            }
        }
        return counts;
    }
}
