package dev.neuraltext.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.EvalQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleBenchmarkTest {

    @Test
    void copiesRenameIdentifiersAndKeepWordsAndKeywords() {
        assertThat(SyntheticCorpus.rename("public static boolean isBlank(CharSequence cs) { TO_STRING x1 a1 }", 1))
                .isEqualTo("public static boolean isBlankZab(CharSequenceZab cs) { TO_STRINGZab x1 a1 }");
        assertThat(SyntheticCorpus.rename("isBlank", 0)).isEqualTo("isBlank");
        assertThat(SyntheticCorpus.rename("isBlank", 27)).isEqualTo("isBlankZbb");
        assertThat(SyntheticCorpus.letters(0)).isEqualTo("aa");
        assertThat(SyntheticCorpus.letters(26 * 26)).isEqualTo("baa");
        assertThat(SyntheticCorpus.isIdentifier("Returns")).isFalse();
        assertThat(SyntheticCorpus.isIdentifier("utf8")).isTrue();
    }

    @Test
    void theCorpusReplicatesTheBaseWithOwnIdsAndUnitVectors() {
        SyntheticCorpus corpus = new SyntheticCorpus(
                List.of(new EvalDocument("A", "StringUtils", "isBlank checks", Map.of()),
                        new EvalDocument("B", "Other", "text only", Map.of())),
                List.of(new EvalQuery("q", "StringUtils isBlank", Map.of())), 5, 8, 1);
        assertThat(corpus.copies()).isEqualTo(3);
        assertThat(corpus.document(0).id()).isEqualTo("A");
        assertThat(corpus.document(2).id()).isEqualTo("A~1");
        assertThat(corpus.document(2).title()).isEqualTo("StringUtilsZab");
        assertThat(corpus.document(4).text()).isEqualTo("isBlankZac checks");
        assertThat(corpus.query(0)).isEqualTo("StringUtils isBlank");
        assertThat(corpus.query(2)).isEqualTo("StringUtilsZac isBlankZac");
        float[] v = corpus.documentVector(3);
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(corpus.documentVector(3)).isEqualTo(v);
        assertThat(corpus.documentVector(4)).isNotEqualTo(v);
        assertThatThrownBy(() -> corpus.document(5)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void clusteredVectorsPutCopiesNearTheirBaseAndQueriesNearTheirRelevantDocument() {
        List<EvalDocument> base = List.of(new EvalDocument("A", "a", "a", Map.of()),
                new EvalDocument("B", "b", "b", Map.of()));
        List<EvalQuery> queries = List.of(new EvalQuery("q0", "b", Map.of()), new EvalQuery("q1", "x", Map.of()));
        SyntheticCorpus corpus = new SyntheticCorpus(base, queries, new int[] {1, -1}, 400, 384, 3,
                SyntheticCorpus.Vectors.CLUSTERED);
        double copies = 0;
        double strangers = 0;
        for (int copy = 1; copy < 200; copy++) {
            copies += dot(corpus.documentVector(2 * copy + 1), corpus.documentVector(1));
            strangers += Math.abs(dot(corpus.documentVector(2 * copy + 1), corpus.documentVector(0)));
        }
        assertThat(copies / 199).isCloseTo(SyntheticCorpus.COPY_COSINE, org.assertj.core.data.Offset.offset(0.01));
        assertThat(strangers / 199).isLessThan(0.1);
        assertThat(dot(corpus.queryVector(0), corpus.documentVector(1)))
                .isCloseTo((float) SyntheticCorpus.QUERY_COSINE, org.assertj.core.data.Offset.offset(0.03f));
        // a query without a relevant document gets a random vector: near nothing
        assertThat(Math.abs(dot(corpus.queryVector(1), corpus.documentVector(1)))).isLessThan(0.2f);
        assertThat(corpus.documentVector(5)).isEqualTo(corpus.documentVector(5));
        assertThatThrownBy(() -> new SyntheticCorpus(base, queries, new int[] {2, -1}, 4, 8, 1,
                SyntheticCorpus.Vectors.CLUSTERED)).hasMessageContaining("2");
        assertThatThrownBy(() -> ScaleOptions.parse("--vectors", "gaussian")).hasMessage(
                "--vectors must be clustered or random, got 'gaussian'");
        assertThatThrownBy(() -> ScaleOptions.parse("--dense-search", "fast")).hasMessageContaining("'fast'");
    }

    @Test
    void theExactScanReturnsTheBestDotProductsBestFirst() {
        Random random = new Random(5);
        float[][] vectors = new float[300][16];
        for (float[] v : vectors) {
            for (int k = 0; k < v.length; k++) {
                v[k] = (float) random.nextGaussian();
            }
        }
        float[] q = vectors[17].clone();
        int[] top = ExactScan.top(vectors, q, 10);
        Integer[] all = new Integer[vectors.length];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        Arrays.sort(all, (a, b) -> Float.compare(dot(q, vectors[b]), dot(q, vectors[a])));
        assertThat(top).containsExactly(Arrays.stream(all, 0, 10).mapToInt(Integer::intValue).toArray());
    }

    private static float dot(float[] a, float[] b) {
        return org.apache.lucene.util.VectorUtil.dotProduct(a, b);
    }

    @Test
    void optionsAreCheckedAndTheRunWritesJson(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> ScaleOptions.parse("--docs", "0")).hasMessageContaining("--docs").hasMessageContaining("0");
        assertThatThrownBy(() -> ScaleOptions.parse("--limit", "50", "--leg-limit", "20"))
                .hasMessageContaining("--leg-limit");
        Files.writeString(dir.resolve("corpus.jsonl"), String.join("\n",
                "{\"_id\": \"a\", \"title\": \"StringUtils\", \"text\": \"isBlank widget\"}",
                "{\"_id\": \"b\", \"title\": \"\", \"text\": \"alpha widget\"}",
                "{\"_id\": \"c\", \"title\": \"\", \"text\": \"gamma other\"}") + "\n");
        Files.writeString(dir.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"widget isBlank\"}\n");
        Files.createDirectories(dir.resolve("qrels"));
        Files.writeString(dir.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\tb\t1\n");
        Path json = dir.resolve("out/scale.json");
        int code = ScaleBenchmark.run("--dataset", dir.toString(), "--docs", "40", "--queries", "5", "--dim", "8",
                "--limit", "3", "--leg-limit", "5", "--warmup", "0", "--passes", "1", "--dense-search", "ann",
                "--ef-sweep", "5,40", "--json", json.toString());
        assertThat(code).isZero();
        String written = Files.readString(json);
        assertThat(written).contains("\"engine\": \"neural-text\"", "\"engine\": \"lucene-hnsw-int8\"",
                "\"engine\": \"neural-text-hits\", \"leg\": \"bm25\", \"metric\": \"p50_ratio_to_lucene-bm25\"",
                "\"metric\": \"recall_at_10\"", "\"metric\": \"p50_ratio_to_lucene-bm25\"", "\"docs\": 40");
        // the exact dense leg of the embedded store finds exactly what the exact scan finds
        assertThat(written).containsPattern("\"engine\": \"neural-text\", \"leg\": \"dense\", \"metric\": \"recall_at_10\","
                + " \"value\": 1.0}");
        // the sweep reloads the saved graph with each efSearch; a beam over all 40 vectors is exact too
        assertThat(written).contains("\"engine\": \"neural-text-ef5\", \"leg\": \"hybrid\", \"metric\": \"p50_ms\"");
        assertThat(written).containsPattern("\"engine\": \"neural-text-ef40\", \"leg\": \"dense\", "
                + "\"metric\": \"recall_at_10\", \"value\": 1.0}");
        assertThatThrownBy(() -> ScaleOptions.parse("--ef-sweep", "100,x")).hasMessageContaining("--ef-sweep");
        assertThatThrownBy(() -> ScaleOptions.parse("--ef-sweep", "20000")).hasMessageContaining("20000");
    }
}
