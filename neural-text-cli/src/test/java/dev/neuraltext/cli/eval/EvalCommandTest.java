package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.neuraltext.cli.NeuralTextCli;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code neural-text eval} end to end on a 12-document fixture, BM25 and the Lucene peers only (no model). */
class EvalCommandTest {

    @TempDir
    Path out;

    private static Path fixture() throws URISyntaxException {
        return Path.of(EvalCommandTest.class.getResource("/eval/tiny/corpus.jsonl").toURI()).getParent();
    }

    @Test
    void writesReportsWhoseJsonHasTheStableShapeAndHandCheckedValues() throws Exception {
        int code = NeuralTextCli.run("eval", "--dataset", fixture().toString(), "--no-dense", "--quiet",
                "--techniques", "bm25,bm25+adaptive", "--peers=lucene-standard,lucene-wdgf", "--slice-by", "type,shape",
                "--warmup", "2", "--no-cache", "--compare", "lucene-wdgf:lucene-standard", "--out", out.toString());
        assertThat(code).isZero();
        assertThat(out.resolve("report.md")).content().contains("| **bm25** |", "| _lucene-standard_ |");
        assertThat(out.resolve("report.html")).content().contains("<svg", "Latency vs quality", "lucene-wdgf");

        JsonNode root = new ObjectMapper().readTree(Files.readString(out.resolve("report.json")));
        assertThat(root.get("schema").asText()).isEqualTo("neural-text-eval/1");
        JsonNode run = root.get("run");
        assertThat(run.get("dataset").asText()).isEqualTo("tiny");
        assertThat(run.get("documents").asInt()).isEqualTo(12);
        assertThat(run.get("queries").asInt()).isEqualTo(6); // nl-4 has no judgment
        assertThat(run.get("excludedQueries").asInt()).isEqualTo(1);
        assertThat(run.get("judgments").asInt()).isEqualTo(7);
        assertThat(run.get("cores").asInt()).isPositive();
        assertThat(run.get("date").asText()).isNotBlank();
        assertThat(run.has("gitCommit")).isTrue();

        List<String> names = new ArrayList<>();
        root.get("techniques").forEach(t -> names.add(t.get("name").asText()));
        assertThat(names).containsExactly("bm25", "bm25+adaptive", "lucene-standard", "lucene-wdgf");
        for (JsonNode t : root.get("techniques")) {
            assertThat(t.get("overall").size()).isEqualTo(root.get("metrics").size());
            assertThat(t.at("/slices/type/kw/queries").asInt()).isEqualTo(3);
            assertThat(t.at("/slices/type/nl/queries").asInt()).isEqualTo(3);
            assertThat(t.at("/slices/shape/type-name/queries").asInt()).isEqualTo(1);
            assertThat(t.at("/latencyMs/p50").asDouble()).isNotNegative();
            assertThat(t.at("/latencyMs/p99").asDouble()).isGreaterThanOrEqualTo(t.at("/latencyMs/p50").asDouble());
            // "xylophone quartet" matches no document: no technique can score above 5 of 6 queries
            assertThat(t.at("/overall/mrr@10").asDouble()).isLessThanOrEqualTo(5.0 / 6 + 1e-4);
        }
        assertThat(root.at("/techniques/1/adaptive/meanReturned").isNumber()).isTrue();
        assertThat(root.at("/techniques/0/adaptive").isNull()).isTrue();

        // StandardAnalyzer, by hand: every answerable query has exactly one matching document (titles such as
        // "ArrayUtils.reverse" are single tokens), so kw-1 -> [d04] (grades d04=2, d05=1: nDCG 2 / (2 + 1/log2 3)),
        // kw-2, kw-3, nl-1, nl-2 at rank 1, nl-3 nothing.
        JsonNode std = root.at("/techniques/2");
        double kw1 = 2 / (2 + 1 / (Math.log(3) / Math.log(2)));
        assertThat(std.at("/overall/mrr@10").asDouble()).isCloseTo(5.0 / 6, within(1e-4));
        assertThat(std.at("/slices/type/kw/metrics/mrr@10").asDouble()).isEqualTo(1.0);
        assertThat(std.at("/slices/type/nl/metrics/mrr@10").asDouble()).isCloseTo(2.0 / 3, within(1e-4));
        assertThat(std.at("/slices/type/kw/metrics/ndcg@10").asDouble()).isCloseTo((kw1 + 2) / 3, within(1e-4));
        assertThat(std.at("/overall/ndcg@10").asDouble()).isCloseTo((kw1 + 4) / 6, within(1e-4));
        assertThat(std.at("/overall/success@1").asDouble()).isCloseTo(5.0 / 6, within(1e-4));

        JsonNode h2h = root.get("headToHead");
        assertThat(h2h.size()).isEqualTo(4); // three against the baseline bm25, one asked for with --compare
        for (JsonNode h : h2h) {
            assertThat(h.get("wins").asInt() + h.get("losses").asInt() + h.get("draws").asInt()).isEqualTo(6);
        }
        assertThat(h2h.get(0).get("b").asText()).isEqualTo("bm25");
        JsonNode extra = h2h.get(3);
        assertThat(extra.get("a").asText()).isEqualTo("lucene-wdgf");
        assertThat(extra.get("b").asText()).isEqualTo("lucene-standard");
        assertThat(extra.get("meanB").asDouble()).isCloseTo((kw1 + 4) / 6, within(1e-4));
    }

    @Test
    void severalDatasetsGiveOneCombinedTableAndAReportEach() throws Exception {
        Path second = out.resolve("in").resolve("tiny-copy");
        Files.createDirectories(second.resolve("qrels"));
        for (String f : List.of("corpus.jsonl", "queries.jsonl", "qrels/test.tsv")) {
            Files.copy(fixture().resolve(f), second.resolve(f));
        }
        Path reports = out.resolve("reports");
        int code = NeuralTextCli.run("eval", "--dataset", fixture() + "," + second, "--no-dense", "--quiet",
                "--techniques", "bm25", "--peers=grep", "--warmup", "0", "--no-cache", "--out", reports.toString());
        assertThat(code).isZero();
        assertThat(reports.resolve("tiny").resolve("report.json")).exists();
        assertThat(reports.resolve("tiny-copy").resolve("report.json")).exists();
        String combined = Files.readString(reports.resolve("combined.md"));
        assertThat(combined).contains("| technique | tiny mrr@10 | tiny kw | tiny nl | tiny p50 ms | tiny-copy mrr@10 |");
        String bm25 = combined.lines().filter(l -> l.startsWith("| bm25 |")).findFirst().orElseThrow();
        String grep = combined.lines().filter(l -> l.startsWith("| grep |")).findFirst().orElseThrow();
        // the same data twice: the same MRR in both blocks
        String[] b = bm25.split("\\|");
        assertThat(b[2]).isEqualTo(b[6]);
        assertThat(grep.split("\\|")).hasSize(b.length);
        assertThat(NeuralTextCli.run("eval", "--dataset", fixture() + "," + fixture(), "--no-dense", "--quiet",
                "--techniques", "bm25", "--no-cache")).isEqualTo(2);
    }

    @Test
    void badOptionsExitWithUsageErrors() throws Exception {
        assertThat(NeuralTextCli.run("eval", "--dataset", fixture().toString(), "--no-dense", "--quiet",
                "--techniques", "dense", "--no-cache", "--out", out.toString())).isEqualTo(2);
        assertThat(NeuralTextCli.run("eval", "--dataset", fixture().toString(), "--no-dense", "--quiet",
                "--techniques", "bm25+turbo", "--no-cache", "--out", out.toString())).isEqualTo(2);
        assertThat(NeuralTextCli.run("eval", "--dataset", fixture().toString(), "--no-dense", "--quiet",
                "--model", "bert-huge", "--no-cache", "--out", out.toString())).isEqualTo(2);
        assertThat(NeuralTextCli.run("eval", "--dataset", fixture().toString(), "--no-dense", "--quiet",
                "--dense-text", "summary", "--no-cache", "--out", out.toString())).isEqualTo(2);
        // a missing dataset is bad input, as in every command (exit 2)
        assertThat(NeuralTextCli.run("eval", "--dataset", out.resolve("missing").toString(), "--no-dense", "--quiet",
                "--no-cache")).isEqualTo(2);
        assertThat(NeuralTextCli.run("eval", "--dataset", fixture().toString(), "--no-dense", "--quiet",
                "--techniques", "bm25", "--compare", "bm25:dense", "--no-cache", "--out", out.toString())).isEqualTo(2);
    }

    @Test
    void embeddingCacheRoundTripsThroughItsFile() throws IOException {
        int[] calls = {0};
        dev.neuraltext.encode.Embedder fake = new dev.neuraltext.encode.Embedder() {
            @Override
            public int dimension() {
                return 3;
            }

            @Override
            public String modelId() {
                return "fake/model";
            }

            @Override
            public List<float[]> embed(List<String> texts, dev.neuraltext.encode.TextRole role) {
                calls[0] += texts.size();
                List<float[]> v = new ArrayList<>();
                texts.forEach(t -> v.add(new float[] {t.length(), 1, 2}));
                return v;
            }
        };
        EmbeddingCache cache = new EmbeddingCache(fake, out);
        cache.embed(List.of("a", "bb"), dev.neuraltext.encode.TextRole.DOCUMENT);
        cache.flush();
        assertThat(calls[0]).isEqualTo(2);
        EmbeddingCache again = new EmbeddingCache(fake, out);
        List<float[]> v = again.embed(List.of("bb", "ccc"), dev.neuraltext.encode.TextRole.DOCUMENT);
        assertThat(calls[0]).isEqualTo(3); // only "ccc" was computed
        assertThat(v.get(0)).containsExactly(2f, 1f, 2f);
        assertThat(v.get(1)).containsExactly(3f, 1f, 2f);
        assertThat(again.hits()).isEqualTo(1);
        again.embed(List.of("a"), dev.neuraltext.encode.TextRole.QUERY); // queries always go to the model
        assertThat(calls[0]).isEqualTo(4);
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("fake_model.embeddings");
        }
    }
}
