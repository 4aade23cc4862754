package dev.neuraltext.cli.eval;

import dev.neuraltext.cli.results.PackedFormatter;
import dev.neuraltext.eval.RetrievedSpan;
import dev.neuraltext.eval.SpanTarget;
import dev.neuraltext.eval.TokensToFirstRelevant;
import dev.neuraltext.eval.TokensToFirstRelevant.AnswerPiece;
import dev.neuraltext.search.AnswerPacker;
import dev.neuraltext.search.PackedAnswer;
import dev.neuraltext.search.PackedAnswer.Excerpt;
import dev.neuraltext.search.PackedAnswer.PackedHit;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.TokenCount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an answer costs its reader before the first relevant code: the {@link TokenCount} tokens read, in order, up to
 * and including the first piece that overlaps a target ({@link TokensToFirstRelevant}), for three ways of reading.
 * <ul>
 *   <li>{@value #CHUNKS}: our hits whole, in rank order, each as {@code 1. path:lines  symbol (kind)  score 0.53}
 *       and its text (what {@code search --json} returns, printed as the packed answers are);</li>
 *   <li>{@value #PACKED}: our hits packed into {@value AnswerPacker#DEFAULT_BUDGET} tokens by {@link AnswerPacker}
 *       (the MCP server's default answer, counted as it prints it); a trimmed hit is relevant when a kept run of lines overlaps a target (a run
 *       whose lines cannot be placed in the file counts as the whole chunk), and costs the whole piece;</li>
 *   <li>{@value #FILES}: an assistant without us: the {@code grep -l} listing of the files the grep peer ranks (one
 *       line per file, paid up front), then each file read whole in that order; a file is relevant when a target lies
 *       in it.</li>
 * </ul>
 * A query whose answer never reaches a target counts as not reached (JSON {@code null}). Not thread-safe for writes of
 * its file-size cache; one harness thread uses it.
 */
final class AnswerTokens {

    static final String CHUNKS = "chunks";
    static final String PACKED = "packed";
    static final String FILES = "files";

    private final Map<Path, Integer> fileTokens = new ConcurrentHashMap<>();

    /** Our answer's costs: {@value #CHUNKS} and {@value #PACKED}; a value is null when no piece is relevant. */
    static Map<String, Integer> ours(String query, SearchResponse response, String prefix, List<SpanTarget> targets) {
        List<AnswerPiece> whole = new ArrayList<>();
        List<SearchHit> hits = response.hits();
        for (int i = 0; i < hits.size(); i++) {
            PackedHit p = AnswerPacker.whole(i + 1, hits.get(i), i < response.totalAboveThreshold());
            whole.add(new AnswerPiece(SembleHarness.span(hits.get(i).metadata(), prefix),
                    TokenCount.of(PackedFormatter.text(p))));
        }
        PackedAnswer packed = AnswerPacker.ofBudget(AnswerPacker.DEFAULT_BUDGET).pack(query, response);
        Map<String, Integer> out = new LinkedHashMap<>();
        out.put(CHUNKS, value(TokensToFirstRelevant.count(whole, targets)));
        out.put(PACKED, value(TokensToFirstRelevant.count(pieces(packed, prefix), targets)));
        return out;
    }

    /** The packed answer as pieces: one per kept run, the first run of a hit carrying the hit's tokens. */
    static List<AnswerPiece> pieces(PackedAnswer packed, String prefix) {
        List<AnswerPiece> out = new ArrayList<>();
        for (PackedHit h : packed.hits()) {
            RetrievedSpan chunk = SembleHarness.span(h.hit().metadata(), prefix);
            boolean first = true;
            for (Excerpt e : h.excerpts()) {
                RetrievedSpan span = e.startLine() == 0 ? chunk
                        : new RetrievedSpan(chunk.path(), e.startLine(), e.endLine());
                out.add(new AnswerPiece(span, first ? TokenCount.of(PackedFormatter.text(h)) : 0));
                first = false;
            }
        }
        return out;
    }

    /**
     * The grep reader's cost: the listing of {@code files} (paths relative to {@code folder}), then each file whole;
     * {@value #FILES} is null when no listed file holds a target.
     */
    Map<String, Integer> grep(List<String> files, Path folder, String prefix, List<SpanTarget> targets) {
        int listing = 0;
        for (String f : files) {
            listing += TokenCount.of(f + "\n");
        }
        List<AnswerPiece> pieces = new ArrayList<>();
        boolean firstFile = true;
        for (String f : files) {
            int tokens = fileTokens.computeIfAbsent(folder.resolve(f), AnswerTokens::tokensOf);
            pieces.add(new AnswerPiece(new RetrievedSpan(prefix.isEmpty() ? f : prefix + "/" + f, 1,
                    Integer.MAX_VALUE), tokens + (firstFile ? listing : 0)));
            firstFile = false;
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        out.put(FILES, value(TokensToFirstRelevant.count(pieces, targets)));
        return out;
    }

    private static int tokensOf(Path file) {
        try {
            return TokenCount.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " to count what reading it costs: "
                    + e.getMessage(), e);
        }
    }

    private static Integer value(OptionalInt c) {
        return c.isPresent() ? c.getAsInt() : null;
    }

    /** The counts as {@link TokensToFirstRelevant} reads them (null: never reached). */
    static List<OptionalInt> optional(List<Integer> counts) {
        List<OptionalInt> out = new ArrayList<>(counts.size());
        for (Integer c : counts) {
            out.add(c == null ? OptionalInt.empty() : OptionalInt.of(c));
        }
        return out;
    }
}
