package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.cli.NeuralTextCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eval}'s options are a user's: the ranking stage and the latency repeats are documented options, and the
 * fitting the lab does ({@code neural-text-lab}) is not among them.
 */
class EvalOptionsTest {

    @TempDir
    Path out;

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            code = NeuralTextCli.run(args);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theHelpDocumentsTheRankingAndTheLatencyRepeatsAndNoFit() {
        Run help = run("eval", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("--ranking", "whole-repository", "--latency-repeats")
                .doesNotContain("--fit-ranking", "--fit-fusion");
    }

    @Test
    void anUnknownRankingIsABadInputNamingTheOptionAndTheValue() throws Exception {
        Path tiny = Path.of(EvalOptionsTest.class.getResource("/eval/tiny/corpus.jsonl").toURI()).getParent();
        Run r = run("eval", "--dataset", tiny.toString(), "--no-dense", "--quiet", "--no-cache", "--techniques", "bm25",
                "--ranking", "bogus", "--out", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--ranking must be off or whole-repository, got 'bogus'");
    }

    @Test
    void theWholeRepositoryRankingRunsOnABeirDataset() throws Exception {
        Path tiny = Path.of(EvalOptionsTest.class.getResource("/eval/tiny/corpus.jsonl").toURI()).getParent();
        Run r = run("eval", "--dataset", tiny.toString(), "--no-dense", "--quiet", "--no-cache", "--techniques", "bm25",
                "--warmup", "0", "--ranking", "whole-repository", "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("| **bm25** |");
    }

    @Test
    void theFitOptionsAreGone() {
        for (String gone : new String[] {"--fit-fusion", "--fit-ranking"}) {
            Run r = run("eval", gone);
            assertThat(r.code()).as(gone).isEqualTo(2); // bad input, as the command line documents
            assertThat(r.err()).contains("Unknown option: '" + gone + "'");
        }
        assertThat(run("bench", "presets").code()).isEqualTo(2);
    }
}
