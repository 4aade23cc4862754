package dev.neuraltext.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.neuraltext.examples.cli.NeuralTextCli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code neural-text eval --semble} end to end on a two-file repository whose indexed folder is a sub-folder of the
 * repository (so chunk paths must gain the prefix the targets have), BM25 only.
 */
class SembleEvalCommandTest {

    @TempDir
    Path tmp;

    @Test
    void indexesTheFolderScoresBySembleRulesAndWritesTheReports() throws Exception {
        Path repo = tmp.resolve("repos/demo");
        Path src = Files.createDirectories(repo.resolve("src"));
        Files.writeString(src.resolve("StreamingReader.java"), """
                package demo;

                /** Reads a stream of tokens. */
                public class StreamingReader {
                    /** Parses the next token of the stream. */
                    public int nextToken() {
                        return 1;
                    }
                }
                """);
        Files.writeString(src.resolve("Unrelated.java"), """
                package demo;

                /** Formats dates. */
                public class Unrelated {
                    public String formatDate() {
                        return "";
                    }
                }
                """);
        Path roots = tmp.resolve("roots.tsv");
        Files.writeString(roots, "demo\tjava\t" + src + "\n");
        Path annotations = Files.createDirectories(tmp.resolve("annotations"));
        Files.writeString(annotations.resolve("demo.json"), """
                [
                  {"query": "StreamingReader", "relevant": ["src/StreamingReader.java"], "secondary": [],
                   "category": "symbol"},
                  {"query": "format dates", "relevant": [{"path": "src/Unrelated.java", "start_line": 900,
                   "end_line": 910}], "secondary": ["src/Missing.java"], "category": "semantic"}
                ]
                """);
        Files.writeString(tmp.resolve("published.tsv"),
                "repo\tlanguage\tqueries\tsemble_chunks\tsemble_ndcg10\tsemble_architecture\tsemble_semantic\t"
                        + "semble_symbol\tcoderankembed_hybrid_ndcg10\tcoderankembed_dense_ndcg10\n"
                        + "demo\tjava\t2\t3\t0.7500\tnan\t0.5\t1.0\t0.6\t0.5\n");
        Path out = tmp.resolve("out");
        int code = NeuralTextCli.run("eval", "--semble", roots.toString(), "--annotations", annotations.toString(),
                "--no-dense", "--peers", "grep", "--out", out.toString());
        assertThat(code).isZero();
        assertThat(out.resolve("semble.md")).content().contains("| demo | java | 2 |", "0.750");
        assertThat(out.resolve("semble.html")).content().contains("<table>", "demo");

        JsonNode root = new ObjectMapper().readTree(out.resolve("semble.json").toFile());
        JsonNode questions = root.at("/repositories/0/questions");
        // the symbol question: the class chunk of src/StreamingReader.java (indexed as StreamingReader.java) first
        assertThat(questions.at("/0/bySystem/default/ndcg").asDouble()).isCloseTo(1.0, within(1e-9));
        // the semantic one: lines 900-910 exist in no chunk and Missing.java in no index: 0 at chunk level; at file
        // level Unrelated.java is found at rank r and the ideal counts two targets: (1/log2(r+1)) / (1 + 1/log2(3))
        assertThat(questions.at("/1/bySystem/default/ndcg").asDouble()).isZero();
        double file = questions.at("/1/bySystem/default/fileNdcg").asDouble();
        assertThat(file).isCloseTo(1 / (1 + Math.log(2) / Math.log(3)), within(1e-9));
        assertThat(root.at("/overall/default/ndcg10").asDouble()).isCloseTo(0.5, within(1e-9));
        assertThat(root.at("/overall/default/symbol").asDouble()).isCloseTo(1.0, within(1e-9));
        assertThat(root.at("/published/demo/semble").asDouble()).isCloseTo(0.75, within(1e-9));
        assertThat(root.at("/overall/grep/ndcg10").isNumber()).isTrue();
    }

    @Test
    void aMissingAnnotationsFolderIsAUsageErrorNamingTheOption() {
        int code = NeuralTextCli.run("eval", "--semble", tmp.resolve("roots.tsv").toString(), "--no-dense");
        assertThat(code).isEqualTo(2);
    }
}
