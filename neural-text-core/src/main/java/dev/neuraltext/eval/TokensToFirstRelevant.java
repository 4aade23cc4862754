package dev.neuraltext.eval;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Tokens an assistant reads in an answer, in order, up to and including the first piece that overlaps a target
 * (matched as {@link SpanNdcg} matches chunks), and the figures over many queries: the median and the share of
 * queries whose first relevant piece ends inside a budget. Counts are {@link dev.neuraltext.search.TokenCount}s. Stateless.
 */
public final class TokensToFirstRelevant {

    /** The budgets recall is reported at. */
    public static final List<Integer> BUDGETS = List.of(500, 1_000, 2_000);

    private TokensToFirstRelevant() {
    }

    /**
     * One piece of an answer as printed: where it is and what it costs.
     *
     * @param span   the file and lines the piece shows
     * @param tokens the piece's {@link dev.neuraltext.search.TokenCount} as printed (header and text), at least 0
     */
    public record AnswerPiece(RetrievedSpan span, int tokens) {

        public AnswerPiece {
            Objects.requireNonNull(span, "span");
            if (tokens < 0) {
                throw new IllegalArgumentException("tokens must be >= 0, got " + tokens);
            }
        }
    }

    /** The tokens read up to and including the first relevant piece, or empty when no piece is relevant. */
    public static OptionalInt count(List<AnswerPiece> answer, List<SpanTarget> targets) {
        long read = 0;
        for (AnswerPiece piece : answer) {
            read += piece.tokens();
            RetrievedSpan r = piece.span();
            for (SpanTarget t : targets) {
                if (SpanNdcg.matches(r, t)) {
                    return OptionalInt.of((int) Math.min(Integer.MAX_VALUE, read));
                }
            }
        }
        return OptionalInt.empty();
    }

    /** The share of queries (empty = never reached) whose count is at most {@code budget}; 0 for no queries. */
    public static double recallWithin(List<OptionalInt> perQuery, int budget) {
        if (perQuery.isEmpty()) {
            return 0;
        }
        long within = perQuery.stream().filter(c -> c.isPresent() && c.getAsInt() <= budget).count();
        return (double) within / perQuery.size();
    }

    /**
     * The median count, a query never reached counting as infinite; empty when more than half are never reached or
     * there are no queries.
     */
    public static OptionalInt median(List<OptionalInt> perQuery) {
        int n = perQuery.size();
        if (n == 0) {
            return OptionalInt.empty();
        }
        long[] sorted = perQuery.stream().mapToLong(c -> c.isPresent() ? c.getAsInt() : Long.MAX_VALUE).toArray();
        Arrays.sort(sorted);
        long lo = sorted[(n - 1) / 2];
        long hi = sorted[n / 2];
        if (hi == Long.MAX_VALUE) {
            return OptionalInt.empty();
        }
        return OptionalInt.of((int) ((lo + hi + 1) / 2));
    }
}
