package dev.neuraltext.search;

import dev.neuraltext.internal.Checks;
import java.util.List;
import java.util.Locale;

/**
 * A search answer packed into a token budget by {@link AnswerPacker}: the hits an assistant reads, in reading order,
 * each whole or trimmed to the lines that matter, and what was left out. Immutable.
 *
 * @param hits            the packed hits in reading order: the best hit of each file first, then the others, each
 *                        group in rank order
 * @param tokens          the {@link TokenCount} of all packed hits' text, at most {@code budget} unless one hit's
 *                        shortest form alone is longer
 * @param budget          the token budget the answer was packed into
 * @param aboveThreshold  the response's {@link SearchResponse#totalAboveThreshold()}
 * @param notShown        hits not in the answer: the returned ones left out and those above the threshold the
 *                        search did not return
 * @param notShownFetched how many of {@code notShown} the search returned; {@code notShownTokens} is their cost
 * @param notShownTokens  the tokens the returned hits not in the answer would cost in full
 */
public record PackedAnswer(List<PackedHit> hits, int tokens, int budget, int aboveThreshold, int notShown,
        int notShownFetched, int notShownTokens) {

    public PackedAnswer {
        hits = List.copyOf(Checks.notNull(hits, "hits"));
        if (tokens < 0 || budget < 1 || aboveThreshold < 0 || notShown < 0 || notShownFetched < 0
                || notShownTokens < 0 || notShownFetched > notShown) {
            throw new IllegalArgumentException("inconsistent packed answer: tokens " + tokens + ", budget " + budget
                    + ", aboveThreshold " + aboveThreshold + ", notShown " + notShown + ", notShownFetched "
                    + notShownFetched + ", notShownTokens " + notShownTokens);
        }
    }

    /** Every packed hit's text, in reading order, separated by blank lines. */
    public String text() {
        StringBuilder b = new StringBuilder();
        for (PackedHit h : hits) {
            if (b.length() > 0) {
                b.append("\n\n");
            }
            b.append(h.text());
        }
        return b.toString();
    }

    /**
     * One line for the reader: how many hits in how many tokens, how many are above the threshold, and what the rest
     * would cost ({@code 5 results in 1,940 tokens (budget 2,000), 16 above threshold; 11 not shown, the 3 returned
     * would cost 2,400 tokens in full: search again with a larger budget, or read a hit with get}).
     */
    public String summary() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%d %s in %,d tokens (budget %,d), %d above "
                + "threshold", hits.size(), hits.size() == 1 ? "result" : "results", tokens, budget, aboveThreshold));
        long trimmed = hits.stream().filter(PackedHit::trimmed).count();
        if (trimmed > 0) {
            b.append(String.format(Locale.ROOT, ", %d trimmed (elided lines marked)", trimmed));
        }
        if (notShown > 0) {
            b.append(String.format(Locale.ROOT, "; %d not shown", notShown));
            if (notShownFetched > 0) {
                b.append(String.format(Locale.ROOT, ", %s would cost %,d tokens in full",
                        notShownFetched == notShown ? "they" : "the " + notShownFetched + " returned", notShownTokens));
            }
            b.append(": search again with a larger budget or limit, or read a hit with get");
        }
        return b.toString();
    }

    /**
     * One hit as packed.
     *
     * @param rank        the hit's 1-based rank in the search response
     * @param hit         the hit, its full text included
     * @param aboveThreshold whether the hit ranks within the response's {@link SearchResponse#totalAboveThreshold()}
     *                    (its header says {@code [below threshold]} otherwise)
     * @param header      the first line the reader sees: {@code path:startLine-endLine  symbol (kind)  score 0.53},
     *                    then {@code [below threshold]} for such a hit
     * @param excerpts    the kept runs of lines, in order; one run holding every line when nothing was elided
     * @param elidedLines how many of the chunk's lines were left out (0: the hit is whole)
     * @param tokens      the {@link TokenCount} of {@link #text()}
     */
    public record PackedHit(int rank, SearchHit hit, boolean aboveThreshold, String header, List<Excerpt> excerpts, int elidedLines,
            int tokens) {

        public PackedHit {
            if (rank < 1) {
                throw new IllegalArgumentException("rank must be >= 1, got " + rank);
            }
            Checks.notNull(hit, "hit");
            Checks.notNull(header, "header");
            excerpts = List.copyOf(Checks.notNull(excerpts, "excerpts"));
            if (elidedLines < 0 || tokens < 0) {
                throw new IllegalArgumentException("elidedLines and tokens must be >= 0, got " + elidedLines + " and "
                        + tokens);
            }
        }

        /** Whether lines were left out. */
        public boolean trimmed() {
            return elidedLines > 0;
        }

        /**
         * What the reader sees: the header, then the excerpts with a line {@code … lines 70-112 not shown} (or
         * {@code … 12 lines not shown} where the chunk's line numbers are not known) wherever lines were left out.
         */
        public String text() {
            int kept = 0;
            for (Excerpt e : excerpts) {
                kept += e.lines().size();
            }
            return AnswerPacker.render(header, excerpts, kept + elidedLines); // every line is kept or elided
        }
    }

    /**
     * A run of consecutive lines of a hit's chunk.
     *
     * @param startLine the 1-based file line of the first line, 0 when the chunk's lines cannot be placed in its file
     * @param endLine   the file line of the last line, 0 when not known
     * @param firstIndex the index of the first line among the chunk's lines (after its title line)
     * @param lines     the lines, long ones clipped with a mark
     */
    public record Excerpt(int startLine, int endLine, int firstIndex, List<String> lines) {

        public Excerpt {
            lines = List.copyOf(Checks.notNull(lines, "lines"));
            if (lines.isEmpty() || firstIndex < 0 || startLine < 0 || endLine < startLine) {
                throw new IllegalArgumentException("an excerpt needs lines and a valid place, got " + lines.size()
                        + " lines at index " + firstIndex + ", lines " + startLine + "-" + endLine);
            }
        }

        /** The index after the last line among the chunk's lines. */
        public int endIndex() {
            return firstIndex + lines.size();
        }
    }
}
