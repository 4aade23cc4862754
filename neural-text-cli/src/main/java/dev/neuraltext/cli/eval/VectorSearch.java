package dev.neuraltext.cli.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/** Exact top-k by dot product over unit vectors (cosine); ties broken by document order. */
final class VectorSearch {

    private VectorSearch() {
    }

    static List<String> topK(float[] query, float[][] vectors, String[] ids, int k) {
        // min-heap of (score, index); on equal scores the later document is the weaker one
        PriorityQueue<double[]> heap = new PriorityQueue<>(k + 1, (a, b) -> a[0] != b[0]
                ? Double.compare(a[0], b[0]) : Double.compare(b[1], a[1]));
        for (int i = 0; i < vectors.length; i++) {
            float[] v = vectors[i];
            double s = 0;
            for (int d = 0; d < v.length; d++) {
                s += query[d] * v[d];
            }
            if (heap.size() < k) {
                heap.add(new double[] {s, i});
            } else if (s > heap.peek()[0]) {
                heap.poll();
                heap.add(new double[] {s, i});
            }
        }
        List<double[]> best = new ArrayList<>(heap);
        best.sort((a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(a[1], b[1]));
        List<String> out = new ArrayList<>(best.size());
        best.forEach(e -> out.add(ids[(int) e[1]]));
        return out;
    }
}
