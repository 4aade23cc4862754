package dev.neuraltext.retrieve;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.CaseStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ranking of an issue text ({@link IssueText}: a bug report with prose, a traceback, snippets, names). Two file
 * orders are fused by reciprocal rank ({@value #RRF_K}, the usual constant, nothing fitted):
 * <ol>
 *   <li>the question ranking ({@link RepositoryRanking}) of the fused candidates, as for any query;</li>
 *   <li>the issue's own evidence ({@link IssueRanking}) over the same candidates plus the chunks of the files the issue
 *       names (by path at any install prefix, a traceback frame, or a dotted module) and of the definitions of the
 *       identifiers it writes as code, each searched by BM25 within the request's filter.</li>
 * </ol>
 * A file found by one order only gets that order's share. The answer holds one chunk per file before any file's second,
 * files by fused score, each file's chunks in {@link IssueRanking}'s order (the chunk holding a line the issue gives
 * first). Stateless and thread-safe.
 */
final class IssueSearch {

    /** Candidates an issue search asks the store for. */
    static final int DEPTH = 100;
    /** Chunks fetched for the files an issue names, and for the definitions of its identifiers, each. */
    static final int NAMED = 50;
    /** The reciprocal-rank constant of the fusion of the two file orders. */
    static final int RRF_K = 60;

    private IssueSearch() {
    }

    /**
     * {@code hits} (the store's answer to {@code query}) ranked for {@code issue}.
     *
     * @param store   the store {@code hits} came from, asked again for the named files and definitions
     * @param ranking the question ranking
     */
    static List<SearchHit> rank(CaseStore store, RepositoryRanking ranking, IssueText issue, HybridQuery query,
            List<SearchHit> hits) {
        if (hits.isEmpty()) {
            return hits;
        }
        List<SearchHit> questionOrder = ranking.isOff() ? hits : ranking.rank(query.text(), hits);
        List<SearchHit> candidates = withNamedCandidates(store, issue, query, hits);
        List<SearchHit> issueOrder = IssueRanking.rank(issue, query.text(), candidates, IssueRanking.DEFAULTS);
        Map<String, Double> fused = new HashMap<>();
        Map<String, Integer> questionRank = addReciprocalRanks(questionOrder, fused);
        addReciprocalRanks(issueOrder, fused);
        Map<String, List<SearchHit>> byFile = new LinkedHashMap<>();
        for (SearchHit h : issueOrder) {
            byFile.computeIfAbsent(IssueRanking.pathOf(h), p -> new ArrayList<>()).add(h);
        }
        List<String> files = new ArrayList<>(byFile.keySet());
        // a tie (first in one order, second in the other) goes to a file the issue names (its path, a frame, its
        // module), then to the question ranking, the one measured on many repositories: the issue's other evidence
        // (words, names) mostly brings in files the question ranking missed
        Set<String> named = new HashSet<>();
        for (SearchHit h : issueOrder) {
            Map<String, Double> signals = h.rankSignals();
            if (signals.getOrDefault("path", 0.0) >= 1 || signals.getOrDefault("frame", 0.0) > 0
                    || signals.getOrDefault("module", 0.0) > 0) {
                named.add(IssueRanking.pathOf(h));
            }
        }
        files.sort(Comparator.comparingDouble((String f) -> -fused.get(f))
                .thenComparing(f -> !named.contains(f))
                .thenComparingInt(f -> questionRank.getOrDefault(f, Integer.MAX_VALUE)));
        return IssueRanking.interleave(files, byFile, (path, h) -> {
            Map<String, Double> signals = new LinkedHashMap<>(h.rankSignals());
            signals.put("issueFused", fused.get(path));
            return signals;
        });
    }

    /**
     * Adds {@code 1 / (RRF_K + r)} for each file at 1-based file rank {@code r} in {@code order}; returns the ranks.
     */
    private static Map<String, Integer> addReciprocalRanks(List<SearchHit> order, Map<String, Double> fused) {
        Map<String, Integer> ranks = new HashMap<>();
        for (SearchHit h : order) {
            String path = IssueRanking.pathOf(h);
            if (ranks.putIfAbsent(path, ranks.size() + 1) == null) {
                fused.merge(path, 1.0 / (RRF_K + ranks.size()), Double::sum);
            }
        }
        return ranks;
    }

    /** {@code hits} followed by the chunks of the files {@code issue} names and of the definitions it writes. */
    static List<SearchHit> withNamedCandidates(CaseStore store, IssueText issue, HybridQuery query,
            List<SearchHit> hits) {
        if (!store.legsWithData().contains(Leg.BM25)) {
            return hits;
        }
        Set<String> paths = new LinkedHashSet<>();
        for (String p : issue.paths()) {
            paths.addAll(IssueText.pathSuffixes(p));
        }
        for (String m : issue.modules()) {
            for (String file : IssueText.moduleFiles(m)) {
                paths.addAll(IssueText.pathSuffixes(file));
            }
        }
        Map<String, SearchHit> all = new LinkedHashMap<>();
        for (SearchHit h : hits) {
            all.put(h.id(), h);
        }
        if (!paths.isEmpty()) {
            PayloadFilter byPath = PayloadFilter.allOf(List.of(query.filter(),
                    PayloadFilter.matchAny(ChunkMetadata.PATH, paths.toArray(String[]::new))));
            for (SearchHit h : store.search(new HybridQuery(query.text(), null, null, EnumSet.of(Leg.BM25), byPath,
                    NAMED, NAMED, query.fusion(), query.explain()))) {
                all.putIfAbsent(h.id(), h);
            }
        }
        if (!issue.identifiers().isEmpty()) {
            PayloadFilter bySymbol = PayloadFilter.allOf(List.of(query.filter(),
                    PayloadFilter.matchAny(ChunkMetadata.SYMBOL, issue.identifiers().toArray(String[]::new))));
            for (SearchHit h : store.search(new HybridQuery(String.join(" ", issue.identifiers()), null, null,
                    EnumSet.of(Leg.BM25), bySymbol, NAMED, NAMED, query.fusion(), query.explain()))) {
                all.putIfAbsent(h.id(), h);
            }
        }
        return List.copyOf(all.values());
    }
}
