package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.store.InMemoryCaseStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The issue search end to end, one test per kind of evidence: each issue's prose matches a decoy file best by BM25
 * (so the unranked search puts the decoy first) while the evidence names the file the fix changes.
 */
class IssueSearchTest {

    /** Prose that the decoy file's docstring repeats: BM25 alone prefers the decoy. */
    private static final String PROSE = "The conversion of the matrix result is wrong when the models are combined and "
            + "the output shape of the combined result does not match what the documentation of the conversion says. "
            + "I expected the combined result to keep its shape after the conversion of every model in the matrix.\n";

    private static List<ChunkInput> corpus() {
        List<ChunkInput> chunks = new ArrayList<>();
        chunks.add(chunk("pkg/utils/convert.py", "convert_result", "def convert_result(matrix):\n    \"\"\"The "
                + "conversion of the matrix result when models are combined; the output shape of the combined result "
                + "after the conversion, as the documentation says, for every model in the matrix.\"\"\"\n    return m"));
        chunks.add(chunk("pkg/modeling/separable.py", "_cstack", "def _cstack(left, right):\n    noutp = left + right\n"
                + "    return stack(left, right, noutp)"));
        chunks.add(chunk("pkg/modeling/separable.py", "separability_matrix", "def separability_matrix(transform):\n"
                + "    return _separable(transform)"));
        chunks.add(chunk("pkg/modeling/core.py", "evaluate", "def evaluate(self, *args):\n    return self.call(args)"));
        chunks.add(chunk("pkg/io/units/quantity_helper.py", "helper_multiply", "def helper_multiply(f, unit1, unit2):\n"
                + "    return unit1 * unit2"));
        chunks.add(chunk("pkg/timekit/format.py", "format_duration", "def format_duration(seconds, unit):\n"
                + "    return seconds / unit"));
        chunks.add(chunk("pkg/timekit/utils.py", "round_to", "def round_to(value, step):\n    return value - value % "
                + "step"));
        for (int i = 0; i < 20; i++) { // other files, so that IDF means something
            chunks.add(chunk("pkg/other/module" + i + ".py", "function" + i, "def function" + i + "(x):\n    return x + "
                    + i));
        }
        return chunks;
    }

    private static ChunkInput chunk(String path, String symbol, String text) {
        return ChunkInput.of(path + "#" + symbol, text, Map.of(ChunkMetadata.PATH, path, ChunkMetadata.SYMBOL, symbol,
                ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_FUNCTION, ChunkMetadata.TYPE,
                ChunkMetadata.TYPE_CODE, ChunkMetadata.START_LINE, "1", ChunkMetadata.END_LINE, "3"));
    }

    private static List<String> files(RepositoryRanking ranking, String issue) {
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create()).ranking(ranking).build();
        r.index(corpus());
        List<SearchHit> hits = r.search(SearchRequest.builder(issue).limit(30).adaptive(false).build()).hits();
        return FileGroups.group(hits, 30, 1).stream().map(FileGroups.FileHit::path).toList();
    }

    private static String firstFile(RepositoryRanking ranking, String issue) {
        return files(ranking, issue).get(0);
    }

    private static void assertEvidenceWins(String issue, String expected) {
        assertThat(IssueText.looksLikeIssue(issue)).isTrue();
        assertThat(firstFile(RepositoryRanking.off(), issue)).isEqualTo("pkg/utils/convert.py");
        assertThat(firstFile(RepositoryRanking.wholeRepository(), issue)).isEqualTo(expected);
    }

    @Test
    void tracebackFrameWithAnInstallPrefix() {
        assertEvidenceWins("Wrong matrix result for combined models\n\n" + PROSE + """
                Traceback (most recent call last):
                  File "/home/u/.venv/lib/python3.11/site-packages/pkg/modeling/separable.py", line 42, in _broadcast
                ValueError: operands could not be broadcast
                """, "pkg/modeling/separable.py");
    }

    @Test
    void windowsPath() {
        assertEvidenceWins("Wrong matrix result on Windows\n\n" + PROSE
                + "It fails at C:\\Python311\\Lib\\site-packages\\pkg\\modeling\\separable.py:42 every time.\n",
                "pkg/modeling/separable.py");
    }

    @Test
    void dottedModule() {
        assertEvidenceWins("Wrong matrix result with units\n\n" + PROSE
                + "The multiplication goes through pkg.io.units.quantity_helper when the units differ.\n",
                "pkg/io/units/quantity_helper.py");
    }

    @Test
    void aCodeSpanAloneDoesNotOutrankTheProsesBestMatch() {
        // one identifier against prose that a decoy repeats: the two orders tie, the question ranking's first stays
        // first (a tie goes to a file the issue names, then to the question ranking) and the definition's file second
        String issue = "Wrong matrix result\n\n" + PROSE
                + "Calling `separability_matrix(model)` on the combined model shows it.\n";
        assertThat(IssueText.looksLikeIssue(issue)).isTrue();
        assertThat(files(RepositoryRanking.wholeRepository(), issue).subList(0, 2))
                .containsExactly("pkg/utils/convert.py", "pkg/modeling/separable.py");
    }

    @Test
    void anIssueNamingTheWrongFile() {
        // the reporter blames utils.py; the frame and the function say format.py
        assertEvidenceWins("Wrong rounding, probably in utils.py\n\n" + PROSE + """
                I think utils.py is wrong. Traceback:
                  File "/opt/app/lib/pkg/timekit/format.py", line 10, in format_duration
                ZeroDivisionError: division by zero
                """, "pkg/timekit/format.py");
    }

    @Test
    void theChunkHoldingTheFramesLineComesFirstInItsFile() {
        List<ChunkInput> chunks = new ArrayList<>(corpus());
        chunks.add(ChunkInput.of("pkg/modeling/separable.py#_coord_matrix", "def _coord_matrix(model, pos, noutp):\n"
                + "    return mat", Map.of(ChunkMetadata.PATH, "pkg/modeling/separable.py", ChunkMetadata.SYMBOL,
                "_coord_matrix", ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE, ChunkMetadata.START_LINE, "230",
                ChunkMetadata.END_LINE, "250")));
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create())
                .ranking(RepositoryRanking.wholeRepository()).build();
        r.index(chunks);
        String issue = "Wrong matrix result for combined models\n\n" + PROSE + """
                Traceback (most recent call last):
                  File "/home/u/.venv/lib/python3.11/site-packages/pkg/modeling/separable.py", line 242, in _broadcast
                ValueError: operands could not be broadcast
                """;
        List<SearchHit> hits = r.search(SearchRequest.builder(issue).limit(10).adaptive(false).build()).hits();
        assertThat(hits.get(0).id()).isEqualTo("pkg/modeling/separable.py#_coord_matrix");
    }

    @Test
    void aShortQuestionIsNotReadAsAnIssue() {
        HybridCaseRetriever r = HybridCaseRetriever.builder(InMemoryCaseStore.create())
                .ranking(RepositoryRanking.wholeRepository()).build();
        r.index(corpus());
        List<SearchHit> hits = r.search(SearchRequest.builder("separability matrix").limit(5).build()).hits();
        assertThat(hits.get(0).rankSignals()).doesNotContainKey("issue");
    }
}
