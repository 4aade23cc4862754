package dev.neuraltext.search;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.search.PackedAnswer.Excerpt;
import dev.neuraltext.search.PackedAnswer.PackedHit;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Packs a {@link SearchResponse} into a token budget for a reader that pays for every token (an assistant): the best
 * hit of each file first, then the others, each whole when it is short and otherwise trimmed to its documentation, its
 * signature and the lines that share the most words with the query, elisions marked with the lines left out so that
 * the rest can be read with the hit's id or lines. Tokens are {@link TokenCount}s of what the reader sees.
 *
 * <p>Rules, in order:
 * <ol>
 *   <li>Reading order: the first hit of each file, then the rest, each group in rank order; a hit ranked below
 *       {@link SearchResponse#totalAboveThreshold()} is marked {@code [below threshold]} in its header.</li>
 *   <li>A hit is shown whole when it costs at most an eighth of the budget (at least {@value #MIN_PIECE_TOKENS}
 *       tokens) and fits in what is left; otherwise it is trimmed to that size, or to what is left: its leading doc
 *       comment (at most {@value #DOC_LINES} lines), its signature (up to the line that opens the body, at most
 *       {@value #SIGNATURE_LINES} lines), a docstring after the signature, then the lines matching most query words
 *       with a line of context around each, best first; with no matching line, the lines after the signature.</li>
 *   <li>Packing stops at the first hit whose shortest form (header, doc comment and signature) does not fit; the first
 *       hit is always shown, in its shortest form if need be.</li>
 * </ol>
 * A chunk's first line is its title line, as the chunkers write it, and is not shown (the header names the symbol);
 * its other lines are placed in the file by the hit's {@code startLine}/{@code endLine}, lines before the declaration
 * (a doc comment) directly above it. Lines longer than {@value #LINE_CHARS} characters are clipped with a mark.
 *
 * <p>Immutable and thread-safe.
 */
public final class AnswerPacker {

    /** The budget an assistant's answer gets unless it asks otherwise, in tokens (about 8,000 characters). */
    public static final int DEFAULT_BUDGET = 2_000;
    /** The smallest budget accepted: a few headers and signatures. */
    public static final int MIN_BUDGET = 100;
    /** The smallest size a hit is trimmed to, in tokens. */
    static final int MIN_PIECE_TOKENS = 120;
    /** A hit costs at most this fraction of the budget (an eighth: 250 tokens of 2,000). */
    static final int PIECE_SHARE = 8;
    static final int DOC_LINES = 6;
    static final int SIGNATURE_LINES = 4;
    static final int LINE_CHARS = 240;

    /** The start of a package, import or include line, in the languages the chunkers know. */
    private static final Pattern PREAMBLE = Pattern.compile(
            "(package|import|from\\s+\\S+\\s+import|use|using|require|require_relative|include|#include|#import)\\b");
    private static final CodeDomainTokenizer TOKENIZER = CodeDomainTokenizer.standard();

    private final int budget;

    private AnswerPacker(int budget) {
        this.budget = budget;
    }

    /**
     * A packer for answers of at most {@code tokens} tokens.
     *
     * @throws IllegalArgumentException when {@code tokens} is below {@value #MIN_BUDGET}
     */
    public static AnswerPacker ofBudget(int tokens) {
        if (tokens < MIN_BUDGET) {
            throw new IllegalArgumentException("token budget must be at least " + MIN_BUDGET + ", got " + tokens);
        }
        return new AnswerPacker(tokens);
    }

    /** The budget, in tokens. */
    public int budget() {
        return budget;
    }

    /** Packs {@code response}, the answer to {@code query}, into the budget. */
    public PackedAnswer pack(String query, SearchResponse response) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(response, "response");
        List<SearchHit> hits = response.hits();
        int above = response.totalAboveThreshold();
        List<Integer> order = readingOrder(hits, hits.size());
        Set<String> words = words(query);
        int pieceCap = Math.max(MIN_PIECE_TOKENS, budget / PIECE_SHARE);
        List<PackedHit> packed = new ArrayList<>();
        BitSet shown = new BitSet();
        int used = 0;
        for (int i : order) {
            SearchHit hit = hits.get(i);
            Lines lines = Lines.of(hit);
            String header = header(hit, i < above);
            int left = budget - used;
            PackedHit p = piece(i + 1, hit, i < above, header, lines, words, Math.min(pieceCap, left));
            if (p.tokens() > left && !packed.isEmpty()) {
                break;
            }
            packed.add(p);
            shown.set(i);
            used += p.tokens();
        }
        int notShownFetched = hits.size() - packed.size();
        int notShownTokens = 0;
        for (int i = 0; i < hits.size(); i++) {
            if (!shown.get(i)) {
                SearchHit hit = hits.get(i);
                Lines lines = Lines.of(hit);
                notShownTokens += TokenCount.of(render(header(hit, i < above), lines.all(), lines.size()));
            }
        }
        int notShown = notShownFetched + Math.max(0, above - hits.size());
        return new PackedAnswer(packed, used, budget, above, notShown, notShownFetched, notShownTokens);
    }

    /**
     * The hit as the reader sees it untrimmed: its header and every line ({@code rank} 1-based, {@code aboveThreshold}
     * marks it when false).
     */
    public static PackedHit whole(int rank, SearchHit hit, boolean aboveThreshold) {
        Lines lines = Lines.of(hit);
        String header = header(hit, aboveThreshold);
        List<Excerpt> all = lines.all();
        return new PackedHit(rank, hit, aboveThreshold, header, all, 0,
                TokenCount.of(render(header, all, lines.size())));
    }

    /** The first {@code candidates} hits' indexes: the first of each file, then the rest, each in rank order. */
    static List<Integer> readingOrder(List<SearchHit> hits, int candidates) {
        List<Integer> first = new ArrayList<>();
        List<Integer> rest = new ArrayList<>();
        Set<String> files = new HashSet<>();
        for (int i = 0; i < candidates; i++) {
            SearchHit h = hits.get(i);
            (files.add(h.metadata().getOrDefault(ChunkMetadata.PATH, h.id())) ? first : rest).add(i);
        }
        first.addAll(rest);
        return first;
    }

    /** The hit whole when it fits in {@code cap} tokens, otherwise trimmed to fit (or to its shortest form). */
    private static PackedHit piece(int rank, SearchHit hit, boolean above, String header, Lines lines, Set<String> words, int cap) {
        List<Excerpt> whole = lines.all();
        int wholeTokens = TokenCount.of(render(header, whole, lines.size()));
        if (wholeTokens <= cap) {
            return new PackedHit(rank, hit, above, header, whole, 0, wholeTokens);
        }
        BitSet keep = new BitSet();
        int n = lines.size();
        int at = lead(lines, keep);
        at = signature(lines, at, keep);
        docstring(lines, at, keep);
        int tokens = TokenCount.of(render(header, lines.excerpts(keep), n));
        List<Integer> candidates = byMatch(lines, words, keep, at);
        boolean matching = !candidates.isEmpty() && matches(lines.text(candidates.get(0)), words) > 0;
        for (int i : candidates) {
            BitSet tried = (BitSet) keep.clone();
            tried.set(i);
            if (matching) {
                for (int c = Math.max(0, i - 1); c <= Math.min(n - 1, i + 1); c++) {
                    if (!lines.text(c).isBlank()) {
                        tried.set(c);
                    }
                }
            }
            int t = TokenCount.of(render(header, lines.excerpts(tried), n));
            if (t > cap) {
                if (!matching) {
                    break; // in order: the next line would not fit either, or hardly
                }
                continue;
            }
            keep = tried;
            tokens = t;
        }
        return new PackedHit(rank, hit, above, header, lines.excerpts(keep), n - keep.cardinality(), tokens);
    }

    /**
     * Keeps the leading doc comment, annotations and decorators, skipping a file's package and import lines; returns
     * the index of the first other line.
     */
    private static int lead(Lines lines, BitSet keep) {
        int i = 0;
        int doc = 0;
        while (i < lines.size()) {
            String t = lines.text(i).strip();
            if (t.isEmpty()) {
                i++;
                continue;
            }
            if (PREAMBLE.matcher(t).lookingAt()) {
                i++; // a file's package and imports: not what the reader came for
                continue;
            }
            boolean annotation = t.startsWith("@") || t.startsWith("#[");
            boolean comment = t.startsWith("/*") || t.startsWith("*") || t.startsWith("//") || t.startsWith("#")
                    && !t.startsWith("#include") && !t.startsWith("#define") || t.startsWith("--") || t.startsWith(";;");
            if (!annotation && !comment) {
                break;
            }
            if (annotation || doc++ < DOC_LINES) {
                keep.set(i);
            }
            i++;
        }
        return i;
    }

    /** Keeps the signature from {@code from}: up to the line that opens the body; returns the next index. */
    private static int signature(Lines lines, int from, BitSet keep) {
        int i = from;
        for (int k = 0; i < lines.size() && k < SIGNATURE_LINES; i++, k++) {
            keep.set(i);
            String t = lines.text(i).strip();
            if (t.endsWith("{") || t.endsWith(":") || t.endsWith(";") || t.endsWith("=>") || t.endsWith("=")
                    || t.endsWith("->") || t.endsWith(" do") || t.endsWith(" where") || t.endsWith(")")
                    || k == 0 && !t.contains("(")) {
                return i + 1;
            }
        }
        return i;
    }

    /** Keeps a docstring that starts right after the signature (Python, Elixir's {@code @doc} after it is rare). */
    private static void docstring(Lines lines, int at, BitSet keep) {
        if (at >= lines.size()) {
            return;
        }
        String t = lines.text(at).strip();
        String quote = t.startsWith("\"\"\"") || t.startsWith("r\"\"\"") ? "\"\"\"" : t.startsWith("'''") ? "'''"
                : null;
        if (quote == null) {
            return;
        }
        for (int i = at, k = 0; i < lines.size() && k < DOC_LINES; i++, k++) {
            keep.set(i);
            String s = lines.text(i).strip();
            if (i > at && s.contains(quote) || i == at && s.length() > 3 && s.indexOf(quote, 4) >= 0) {
                return;
            }
        }
    }

    /**
     * The lines after the signature not yet kept, most query words first (ties by position); when no line matches a
     * query word, simply in order.
     */
    private static List<Integer> byMatch(Lines lines, Set<String> words, BitSet keep, int from) {
        List<int[]> scored = new ArrayList<>();
        for (int i = from; i < lines.size(); i++) {
            if (!keep.get(i)) {
                scored.add(new int[] {i, words.isEmpty() ? 0 : matches(lines.text(i), words)});
            }
        }
        boolean any = scored.stream().anyMatch(s -> s[1] > 0);
        if (any) {
            scored.removeIf(s -> s[1] == 0);
            scored.sort(Comparator.<int[]>comparingInt(s -> -s[1]).thenComparingInt(s -> s[0]));
        }
        List<Integer> out = new ArrayList<>(scored.size());
        scored.forEach(s -> out.add(s[0]));
        return out;
    }

    /** How many distinct query words {@code line} holds (as BM25 analyses both). */
    static int matches(String line, Set<String> words) {
        int n = 0;
        for (String t : new HashSet<>(TOKENIZER.tokenize(line))) {
            if (words.contains(t)) {
                n++;
            }
        }
        return n;
    }

    /** The query's BM25 terms (identifier parts and compounds, stop words dropped). */
    static Set<String> words(String query) {
        return new LinkedHashSet<>(TOKENIZER.tokenize(query));
    }

    /** {@code path:startLine-endLine  symbol (kind)  score 0.53}, and {@code [below threshold]} for such a hit. */
    static String header(SearchHit hit, boolean aboveThreshold) {
        Map<String, String> m = hit.metadata();
        String path = m.getOrDefault(ChunkMetadata.PATH, hit.id());
        String start = m.get(ChunkMetadata.START_LINE);
        String where = start == null ? path : path + ":" + start + "-" + m.getOrDefault(ChunkMetadata.END_LINE, start);
        String symbol = m.getOrDefault(ChunkMetadata.SYMBOL, "");
        String kind = m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, "");
        return where + (symbol.isEmpty() ? "" : "  " + symbol) + (kind.isEmpty() ? "" : " (" + kind + ")")
                + String.format(Locale.ROOT, "  score %.2f", hit.score())
                + (aboveThreshold ? "" : "  [below threshold]");
    }

    /** The header and the excerpts, a mark wherever lines are left out (before, between and after the excerpts). */
    static String render(String header, List<Excerpt> excerpts, int total) {
        StringBuilder b = new StringBuilder(header);
        int next = 0;
        int nextLine = 0;
        for (Excerpt e : excerpts) {
            if (e.firstIndex() > next) {
                elision(b, e.firstIndex() - next, e.startLine() == 0 ? 0 : e.startLine() - (e.firstIndex() - next),
                        e.startLine() - 1);
            }
            for (String l : e.lines()) {
                b.append('\n').append(l);
            }
            next = e.endIndex();
            nextLine = e.endLine() == 0 ? 0 : e.endLine() + 1;
        }
        if (next < total) {
            elision(b, total - next, nextLine, nextLine == 0 ? 0 : nextLine + (total - next) - 1);
        }
        return b.toString();
    }

    private static void elision(StringBuilder b, int count, int from, int to) {
        b.append('\n');
        if (from > 0 && to >= from) {
            b.append(from == to ? String.format(Locale.ROOT, "… line %d not shown", from)
                    : String.format(Locale.ROOT, "… lines %d-%d not shown", from, to));
        } else {
            b.append(String.format(Locale.ROOT, "… %d %s not shown", count, count == 1 ? "line" : "lines"));
        }
    }

    /** {@code s} when short enough, else its start and a mark with its length. */
    static String clip(String s) {
        if (s.length() <= LINE_CHARS) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(LINE_CHARS - 1)) ? LINE_CHARS - 1 : LINE_CHARS;
        return s.substring(0, end) + String.format(Locale.ROOT, "… [%,d characters]", s.length());
    }

    /** A chunk's lines after its title line, with their file line numbers where they can be placed (0 otherwise). */
    record Lines(List<String> texts, int firstLine) {

        static Lines of(SearchHit hit) {
            String[] all = hit.text().split("\r?\n", -1);
            List<String> body = new ArrayList<>(all.length);
            for (int i = all.length > 1 ? 1 : 0; i < all.length; i++) {
                body.add(all[i]);
            }
            int start = parse(hit.metadata().get(ChunkMetadata.START_LINE));
            int end = parse(hit.metadata().get(ChunkMetadata.END_LINE));
            int first = 0;
            if (start >= 1 && end >= start) {
                int span = end - start + 1;
                int excess = body.size() - span;
                if (excess >= 0 && start - excess >= 1) {
                    first = start - excess;
                }
            }
            while (body.size() > 1 && body.get(body.size() - 1).isBlank()) {
                body.remove(body.size() - 1); // trailing blank lines: nothing to read, and the numbering stays
            }
            return new Lines(body, first);
        }

        int size() {
            return texts.size();
        }

        String text(int i) {
            return texts.get(i);
        }

        /** One excerpt holding every line. */
        List<Excerpt> all() {
            BitSet every = new BitSet();
            every.set(0, size());
            return excerpts(every);
        }

        /** The kept lines as runs of consecutive lines. */
        List<Excerpt> excerpts(BitSet keep) {
            List<Excerpt> out = new ArrayList<>();
            for (int i = keep.nextSetBit(0); i >= 0 && i < size(); ) {
                int j = keep.nextClearBit(i);
                j = Math.min(j, size());
                List<String> run = new ArrayList<>(j - i);
                for (int k = i; k < j; k++) {
                    run.add(clip(texts.get(k)));
                }
                out.add(firstLine == 0 ? new Excerpt(0, 0, i, run)
                        : new Excerpt(firstLine + i, firstLine + j - 1, i, run));
                i = j >= size() ? -1 : keep.nextSetBit(j);
            }
            return out;
        }

        private static int parse(String s) {
            if (s == null) {
                return 0;
            }
            try {
                return Integer.parseInt(s.strip());
            } catch (NumberFormatException e) {
                return 0;
            }
        }
    }
}
