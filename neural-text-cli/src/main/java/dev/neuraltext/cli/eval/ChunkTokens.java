package dev.neuraltext.cli.eval;

import dev.neuraltext.cli.results.PackedFormatter;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.QueryResult;
import dev.neuraltext.search.AnswerPacker;
import dev.neuraltext.search.PackedAnswer;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.SearchTimings;
import dev.neuraltext.search.TokenCount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The token figures of a chunk-level run ({@link TokenTable}): per technique and query, the {@link TokenCount}
 * tokens read in the top {@code k} documents, in rank order, up to and including the first judged relevant
 * ({@value AnswerTokens#CHUNKS}: each document whole as a packed answer prints a hit, the same for our techniques and
 * the peers);
 * and for our techniques the same documents packed into {@value AnswerPacker#DEFAULT_BUDGET} tokens by
 * {@link AnswerPacker} ({@value AnswerTokens#PACKED}; a packed document counts as relevant whole, its lines not being
 * judged). A row's category is the query's value of the first slicing key, its language the dataset. Stateless.
 */
final class ChunkTokens {

    private ChunkTokens() {
    }

    static List<TokenTable.Row> rows(EvalReport report) {
        EvalDataset dataset = report.dataset();
        int k = report.settings().k();
        List<String> sliceBy = report.settings().sliceBy();
        String key = sliceBy.isEmpty() ? null : sliceBy.get(0);
        List<TokenTable.Row> rows = new ArrayList<>();
        for (TechniqueResult t : report.results()) {
            boolean ours = TechniqueResult.NEURAL_TEXT.equals(t.kind());
            for (QueryResult q : t.run().results()) {
                Map<String, Integer> grades = dataset.judgments(q.query());
                List<SearchHit> top = hits(dataset, q.ranked().subList(0, Math.min(k, q.ranked().size())));
                Map<String, Integer> tokens = new LinkedHashMap<>();
                tokens.put(AnswerTokens.CHUNKS, wholeCount(top, grades));
                if (ours) {
                    tokens.put(AnswerTokens.PACKED, packedCount(q.query().text(), top, grades));
                }
                String category = key == null ? "all" : q.query().metadata().getOrDefault(key, "(none)");
                rows.add(new TokenTable.Row(t.name(), category, dataset.name(), tokens));
            }
        }
        return rows;
    }

    private static boolean relevant(Map<String, Integer> grades, String id) {
        Integer g = grades.get(id);
        return g != null && g > 0;
    }

    /**
     * Tokens of the documents whole, printed as packed hits are ({@code 1. id  score} then the text), up to and
     * including the first relevant one; null when none is.
     */
    static Integer wholeCount(List<SearchHit> hits, Map<String, Integer> grades) {
        int read = 0;
        for (int i = 0; i < hits.size(); i++) {
            read += TokenCount.of(PackedFormatter.text(AnswerPacker.whole(i + 1, hits.get(i), true)));
            if (relevant(grades, hits.get(i).id())) {
                return read;
            }
        }
        return null;
    }

    /** The documents as hits of score 1, their title as the first line (as the chunkers write a chunk's text). */
    private static List<SearchHit> hits(EvalDataset dataset, List<String> top) {
        List<SearchHit> hits = new ArrayList<>(top.size());
        for (String id : top) {
            EvalDocument d = dataset.document(id);
            if (d != null) {
                hits.add(new SearchHit(id, d.title() + "\n" + d.text(), d.metadata(), Map.of(), 1, 1, Map.of()));
            }
        }
        return hits;
    }

    /** Tokens of the packed answer up to and including the first relevant hit; null when none is shown. */
    static Integer packedCount(String query, List<SearchHit> hits, Map<String, Integer> grades) {
        PackedAnswer packed = AnswerPacker.ofBudget(AnswerPacker.DEFAULT_BUDGET).pack(query,
                new SearchResponse(hits, hits.size(), false, Set.of(), false, SearchTimings.zero()));
        int read = 0;
        for (PackedAnswer.PackedHit h : packed.hits()) {
            read += TokenCount.of(PackedFormatter.text(h));
            if (relevant(grades, h.hit().id())) {
                return read;
            }
        }
        return null;
    }
}
