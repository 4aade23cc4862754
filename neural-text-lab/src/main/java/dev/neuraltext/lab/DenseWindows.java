package dev.neuraltext.lab;

import dev.neuraltext.cli.eval.IndexedChunk;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.fusion.LegResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A dense leg over windows of each chunk, for {@link BeyondWeights} (eval only, measured, not in the library): a chunk's
 * text longer than {@code chars} characters is cut at line ends into windows of at most {@code chars} characters,
 * each window after the first starting with the chunk's first line (its heading path or declaration); a shorter
 * chunk is one window, its text unchanged. A chunk scores the best cosine over its windows ({@code max}) or the
 * cosine with the normalised mean of its window vectors ({@code mean}); both are exhaustive. With one window per chunk
 * (a huge {@code chars}) it is a plain exhaustive dense leg, used for a second model. Not thread-safe.
 */
final class DenseWindows {

    /** The {@code max} and {@code mean} lists of every query, best first, {@link FusionFit#LEG_DEPTH} deep. */
    record Lists(List<List<LegResult>> max, List<List<LegResult>> mean) {
    }

    private DenseWindows() {
    }

    /** {@code text} cut into windows (see the class documentation). */
    static List<String> windows(String text, int chars) {
        if (text.length() <= chars) {
            return List.of(text);
        }
        String[] lines = text.split("\n", -1);
        String head = lines[0];
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : lines) {
            if (current.length() > 0 && current.length() + line.length() + 1 > chars) {
                out.add(current.toString());
                current = new StringBuilder(head).append('\n');
            }
            current.append(line).append('\n');
        }
        if (current.length() > 0) {
            out.add(current.toString());
        }
        return out;
    }

    /** Embeds every window of every chunk and ranks the chunks for every query. */
    static Lists collect(EvalDataset dataset, Embedder embedder, int chars) {
        List<String> ids = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (EvalDocument d : dataset.documents()) {
            ChunkInput c = IndexedChunk.of(d);
            ids.add(c.id());
            for (String w : windows(c.text(), chars)) {
                texts.add(w);
                owner.add(ids.size() - 1);
            }
        }
        List<float[]> vectors = new ArrayList<>();
        for (int from = 0; from < texts.size(); from += 64) {
            vectors.addAll(embedder.embed(texts.subList(from, Math.min(texts.size(), from + 64)), TextRole.DOCUMENT));
        }
        int dim = embedder.dimension();
        float[][] mean = new float[ids.size()][dim];
        for (int j = 0; j < vectors.size(); j++) {
            float[] m = mean[owner.get(j)];
            for (int x = 0; x < dim; x++) {
                m[x] += vectors.get(j)[x];
            }
        }
        for (float[] m : mean) {
            double norm = Math.sqrt(dot(m, m));
            for (int x = 0; x < dim && norm > 0; x++) {
                m[x] /= (float) norm;
            }
        }
        List<List<LegResult>> max = new ArrayList<>();
        List<List<LegResult>> avg = new ArrayList<>();
        for (EvalQuery q : dataset.queries()) {
            float[] qv = embedder.embed(List.of(q.text()), TextRole.QUERY).get(0);
            double[] best = new double[ids.size()];
            Arrays.fill(best, Double.NEGATIVE_INFINITY);
            for (int j = 0; j < vectors.size(); j++) {
                best[owner.get(j)] = Math.max(best[owner.get(j)], dot(qv, vectors.get(j)));
            }
            double[] m = new double[ids.size()];
            for (int i = 0; i < ids.size(); i++) {
                m[i] = dot(qv, mean[i]);
            }
            max.add(top(ids, best));
            avg.add(top(ids, m));
        }
        return new Lists(max, avg);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** The best {@link FusionFit#LEG_DEPTH} ids by score, ties by id. */
    static List<LegResult> top(List<String> ids, double[] score) {
        Integer[] order = new Integer[ids.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> score[a] != score[b] ? Double.compare(score[b], score[a])
                : ids.get(a).compareTo(ids.get(b)));
        List<LegResult> out = new ArrayList<>();
        for (int i = 0; i < Math.min(FusionFit.LEG_DEPTH, order.length); i++) {
            out.add(new LegResult(ids.get(order[i]), score[order[i]]));
        }
        return out;
    }
}
