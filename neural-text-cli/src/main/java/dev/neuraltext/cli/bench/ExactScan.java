package dev.neuraltext.cli.bench;

import org.apache.lucene.util.VectorUtil;

/** The exact dense scan of {@link ScaleBenchmark}: the reference of every dense leg's latency and recall. */
final class ExactScan {

    private ExactScan() {
    }

    /** The ordinals of the {@code k} vectors with the highest dot product with {@code q}, best first. */
    static int[] top(float[][] vectors, float[] q, int k) {
        int size = 0;
        int[] heapOrd = new int[k];
        float[] heapScore = new float[k]; // a min-heap of the best k
        for (int o = 0; o < vectors.length; o++) {
            float s = VectorUtil.dotProduct(q, vectors[o]);
            if (size < k) {
                heapOrd[size] = o;
                heapScore[size] = s;
                siftUp(heapOrd, heapScore, size++);
            } else if (s > heapScore[0]) {
                heapOrd[0] = o;
                heapScore[0] = s;
                siftDown(heapOrd, heapScore, size);
            }
        }
        int[] out = new int[size];
        for (int i = size - 1; i >= 0; i--) {
            out[i] = heapOrd[0];
            size--;
            heapOrd[0] = heapOrd[size];
            heapScore[0] = heapScore[size];
            siftDown(heapOrd, heapScore, size);
        }
        return out;
    }

    private static void siftUp(int[] ord, float[] score, int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (score[i] >= score[parent]) {
                return;
            }
            swap(ord, score, i, parent);
            i = parent;
        }
    }

    private static void siftDown(int[] ord, float[] score, int size) {
        int i = 0;
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int least = left + 1 < size && score[left + 1] < score[left] ? left + 1 : left;
            if (score[least] >= score[i]) {
                return;
            }
            swap(ord, score, i, least);
            i = least;
        }
    }

    private static void swap(int[] ord, float[] score, int a, int b) {
        int o = ord[a];
        ord[a] = ord[b];
        ord[b] = o;
        float s = score[a];
        score[a] = score[b];
        score[b] = s;
    }
}
