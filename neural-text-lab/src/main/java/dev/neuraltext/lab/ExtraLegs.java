package dev.neuraltext.lab;

import dev.neuraltext.cli.eval.IndexedChunk;
import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.fusion.LegResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Extra lexical lists for {@link BeyondWeights} (eval only, measured, not in the library):
 * <ul>
 *   <li>a <b>file-level BM25</b>: every chunk of a file concatenated into one document (field {@code body}, the file
 *       name in {@code name}), ranked by the library's {@link Bm25Index} with its default settings; and</li>
 *   <li>a <b>pseudo-relevance-feedback BM25</b> (RM3-style): the query plus the {@code terms} terms that weigh most in
 *       its top {@code fbDocs} chunks, a term weighing {@code sum over those chunks of p(chunk) * tf / length * idf}
 *       with {@code p(chunk)} the chunk's share of their BM25 scores (letters only, at least three characters, not
 *       already a query term), searched over the chunks' own BM25 fields.</li>
 * </ul>
 * A chunk's file is its metadata {@code path}, else its id before {@code #} ({@link #fileOf}). Not thread-safe.
 */
final class ExtraLegs {

    /** The depth of every list, as {@link FusionFit#LEG_DEPTH}. */
    static final int DEPTH = FusionFit.LEG_DEPTH;

    private final Bm25Index chunks = Bm25Index.builder().build();
    private final Bm25Index files = Bm25Index.builder().build();
    private final Map<String, Map<String, Integer>> tf = new HashMap<>();
    private final Map<String, Integer> length = new HashMap<>();
    private final Map<String, Integer> df = new HashMap<>();
    private final Map<String, String> fileOf = new HashMap<>();

    ExtraLegs(EvalDataset dataset) {
        Map<String, StringBuilder> fileBody = new LinkedHashMap<>();
        List<Bm25Index.Document> docs = new ArrayList<>();
        for (EvalDocument d : dataset.documents()) {
            ChunkInput c = IndexedChunk.of(d);
            String file = fileOf(c);
            fileOf.put(c.id(), file);
            docs.add(new Bm25Index.Document(c.id(), c.bm25Fields()));
            fileBody.computeIfAbsent(file, f -> new StringBuilder()).append(c.text()).append('\n');
            Map<String, Integer> counts = new HashMap<>();
            int n = 0;
            for (String t : chunks.tokenizer().tokenize(String.join("\n", c.bm25Fields().values()))) {
                counts.merge(t, 1, Integer::sum);
                n++;
            }
            tf.put(c.id(), counts);
            length.put(c.id(), Math.max(1, n));
            counts.keySet().forEach(t -> df.merge(t, 1, Integer::sum));
        }
        chunks.upsertAll(docs);
        List<Bm25Index.Document> fileDocs = new ArrayList<>();
        for (Map.Entry<String, StringBuilder> e : fileBody.entrySet()) {
            String name = e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
            fileDocs.add(new Bm25Index.Document(e.getKey(), Map.of(ChunkMetadata.FIELD_NAME, name,
                    ChunkMetadata.FIELD_BODY, e.getValue().toString())));
        }
        files.upsertAll(fileDocs);
    }

    /** A chunk's file: its metadata {@code path}, else its id before the first {@code #}. */
    static String fileOf(ChunkInput c) {
        String path = c.metadata().get(ChunkMetadata.PATH);
        if (path != null && !path.isBlank()) {
            return path;
        }
        return IndexedChunk.idPath(c.id());
    }

    /** Each chunk id's file ({@link #fileOf(ChunkInput)}). */
    Map<String, String> files() {
        return fileOf;
    }

    /** The files ranked by file-level BM25 (ids are file keys). */
    List<LegResult> fileBm25(String query) {
        return files.search(query, DEPTH);
    }

    /** The chunks ranked by BM25 for {@link #expanded}{@code (query, fbDocs, terms)}. */
    List<LegResult> feedbackBm25(String query, int fbDocs, int terms) {
        return chunks.search(expanded(query, fbDocs, terms), DEPTH);
    }

    /** The query plus its {@code terms} best feedback terms from its top {@code fbDocs} BM25 chunks. */
    String expanded(String query, int fbDocs, int terms) {
        List<LegResult> top = chunks.search(query, fbDocs);
        Set<String> own = new HashSet<>(chunks.tokenizer().tokenize(query));
        double total = 0;
        for (LegResult r : top) {
            total += r.score();
        }
        int n = tf.size();
        Map<String, Double> weight = new HashMap<>();
        for (LegResult r : top) {
            double p = total == 0 ? 1.0 / top.size() : r.score() / total;
            int len = length.get(r.id());
            for (Map.Entry<String, Integer> e : tf.get(r.id()).entrySet()) {
                String t = e.getKey();
                if (own.contains(t) || t.length() < 3 || !t.chars().allMatch(Character::isLetter)) {
                    continue;
                }
                weight.merge(t, p * e.getValue() / len * Math.log((double) n / df.get(t)), Double::sum);
            }
        }
        StringBuilder sb = new StringBuilder(query);
        weight.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(terms).forEach(e -> sb.append(' ').append(e.getKey()));
        return sb.toString();
    }
}
