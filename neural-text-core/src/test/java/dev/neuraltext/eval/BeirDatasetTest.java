package dev.neuraltext.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BeirDatasetTest {

    @TempDir
    Path dir;

    private static final String CORPUS = String.join("\n",
            "{\"_id\":\"d1\",\"title\":\"Foo\",\"text\":\"class Foo {}\",\"metadata\":{\"kind\":\"type\",\"startLine\":3,"
                    + "\"tags\":[\"a\"],\"nested\":{\"x\":1},\"gone\":null}}",
            "",
            "{\"_id\":\"d2\",\"text\":\"void bar() {}\",\"extra\":[1,2]}",
            "{\"_id\":\"d3\",\"title\":\"Baz\",\"text\":\"class Baz {}\"}") + "\n";
    private static final String QUERIES = String.join("\n",
            "{\"_id\":\"q1\",\"text\":\"Foo\",\"metadata\":{\"type\":\"kw\",\"shape\":\"type-name\"}}",
            "{\"_id\":\"q2\",\"text\":\"what does bar do\",\"metadata\":{\"type\":\"nl\"}}",
            "{\"_id\":\"q3\",\"text\":\"nobody judged me\"}") + "\n";
    private static final String QRELS = "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t1\nq2\td2\t1\n";

    private void write(String corpus, String queries, String qrels) throws IOException {
        Files.writeString(dir.resolve("corpus.jsonl"), corpus, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("queries.jsonl"), queries, StandardCharsets.UTF_8);
        Files.createDirectories(dir.resolve("qrels"));
        Files.writeString(dir.resolve("qrels/test.tsv"), qrels, StandardCharsets.UTF_8);
    }

    @Test
    void loadsCorpusQueriesAndGradedJudgments() throws IOException {
        write("\uFEFF" + CORPUS, QUERIES, QRELS);
        EvalDataset data = BeirDataset.load(dir);
        assertThat(data.name()).isEqualTo(dir.getFileName().toString());
        assertThat(data.documents()).extracting(EvalDocument::id).containsExactly("d1", "d2", "d3");
        EvalDocument d1 = data.document("d1");
        assertThat(d1.title()).isEqualTo("Foo");
        assertThat(d1.metadata()).containsExactlyInAnyOrderEntriesOf(Map.of("kind", "type", "startLine", "3"));
        assertThat(data.document("d2").title()).isEmpty();
        assertThat(data.queries()).extracting(EvalQuery::id).containsExactly("q1", "q2");
        assertThat(data.queries().get(0).metadata()).containsEntry("shape", "type-name");
        assertThat(data.excludedQueries()).extracting(EvalQuery::id).containsExactly("q3");
        assertThat(data.qrels().judgments("q1")).containsExactlyInAnyOrderEntriesOf(Map.of("d1", 2, "d2", 1));
        assertThat(data.warnings()).containsExactly("1 queries without a relevant judgment excluded (q3)");
        assertThat(BeirDataset.splits(dir)).containsExactly("test");
    }

    @Test
    void aSymbolicLinkCheckedOutAsATextFileIsFollowed() throws IOException {
        Path shared = dir.resolve("shared");
        Files.createDirectories(shared);
        Files.writeString(shared.resolve("corpus.jsonl"), CORPUS, StandardCharsets.UTF_8);
        Path set = dir.resolve("commits");
        Files.createDirectories(set.resolve("qrels"));
        Files.writeString(set.resolve("corpus.jsonl"), "../shared/corpus.jsonl", StandardCharsets.UTF_8);
        Files.writeString(set.resolve("queries.jsonl"), QUERIES, StandardCharsets.UTF_8);
        Files.writeString(set.resolve("qrels/test.tsv"), QRELS, StandardCharsets.UTF_8);
        assertThat(BeirDataset.load(set).documents()).extracting(EvalDocument::id).containsExactly("d1", "d2", "d3");
        // a one-line file naming nothing that exists is read as JSON and reported as such
        Files.writeString(set.resolve("corpus.jsonl"), "../missing/corpus.jsonl", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> BeirDataset.load(set)).isInstanceOf(DatasetFormatException.class)
                .hasMessageContaining("corpus.jsonl:1");
    }

    @Test
    void malformedJsonNamesFileAndLine() throws IOException {
        write(CORPUS + "{\"_id\":\"d4\",\"text\": \n", QUERIES, QRELS);
        assertThatThrownBy(() -> BeirDataset.load(dir)).isInstanceOf(DatasetFormatException.class)
                .hasMessageContaining("corpus.jsonl:5: malformed JSON")
                .satisfies(e -> assertThat(((DatasetFormatException) e).line()).isEqualTo(5));
    }

    @Test
    void missingFieldsAndDuplicatesNameFileAndLine() throws IOException {
        write(CORPUS, QUERIES + "{\"_id\":\"q9\"}\n", QRELS);
        assertThatThrownBy(() -> BeirDataset.load(dir)).hasMessageContaining("queries.jsonl:4: missing \"text\"");
        write(CORPUS + "{\"_id\":\"d1\",\"text\":\"again\"}\n", QUERIES, QRELS);
        assertThatThrownBy(() -> BeirDataset.load(dir))
                .hasMessageContaining("corpus.jsonl:5: duplicate _id 'd1' (first on line 1)");
        write(CORPUS, QUERIES, QRELS + "q2\td3\thigh\n");
        assertThatThrownBy(() -> BeirDataset.load(dir))
                .hasMessageContaining("test.tsv:5: score must be an integer, got 'high'");
        write(CORPUS, QUERIES, QRELS + "q2 d3\n");
        assertThatThrownBy(() -> BeirDataset.load(dir)).hasMessageContaining("test.tsv:5: expected 3");
        write("[1,2]\n", QUERIES, QRELS);
        assertThatThrownBy(() -> BeirDataset.load(dir)).hasMessageContaining("corpus.jsonl:1: expected a JSON object");
    }

    @Test
    void missingFilesAreReported() throws IOException {
        write(CORPUS, QUERIES, QRELS);
        assertThatThrownBy(() -> BeirDataset.loader(dir).split("dev").load())
                .isInstanceOf(DatasetFormatException.class).hasMessageContaining("dev.tsv: qrels file not found");
        Files.delete(dir.resolve("queries.jsonl"));
        assertThatThrownBy(() -> BeirDataset.load(dir)).hasMessageContaining("queries.jsonl: file not found");
    }

    @Test
    void judgmentsNamingUnknownIdsAreDroppedAndCountedOrRejectedWhenStrict() throws IOException {
        write(CORPUS, QUERIES, QRELS + "q2\tnope\t1\nq7\td1\t1\nq2\tnope2\t1\n");
        EvalDataset data = BeirDataset.load(dir);
        assertThat(data.qrels().size()).isEqualTo(3);
        assertThat(data.warnings()).contains(
                "1 judgments dropped: unknown query id (test.tsv:6 query-id 'q7' is not in queries.jsonl)",
                "2 judgments dropped: unknown corpus id (test.tsv:5 corpus-id 'nope' is not in corpus.jsonl; "
                        + "test.tsv:7 corpus-id 'nope2' is not in corpus.jsonl)");
        assertThatThrownBy(() -> BeirDataset.loader(dir).strict(true).load())
                .hasMessageContaining("test.tsv:5: corpus-id 'nope' is not in corpus.jsonl");
    }

    @Test
    void aliasFileIsPickedUpAndMergesJudgments() throws IOException {
        write(CORPUS, QUERIES, QRELS + "q2\td3\t2\n");
        Files.writeString(dir.resolve("aliases.tsv"), "alias\tcanonical\nd3\td2\n");
        EvalDataset data = BeirDataset.load(dir);
        assertThat(data.aliases()).containsExactlyEntriesOf(Map.of("d3", "d2"));
        assertThat(data.qrels().judgments("q2")).containsExactlyEntriesOf(Map.of("d2", 2));
        assertThat(data.canonicalId("d3")).isEqualTo("d2");
        EvalDataset noAlias = BeirDataset.loader(dir).aliases(Map.of()).load();
        assertThat(noAlias.qrels().judgments("q2")).containsExactlyInAnyOrderEntriesOf(Map.of("d2", 1, "d3", 2));
        Files.writeString(dir.resolve("aliases.tsv"), "d3\td9\n");
        assertThatThrownBy(() -> BeirDataset.load(dir)).hasMessageContaining("aliases.tsv:1: id 'd9' is not in");
    }
}
