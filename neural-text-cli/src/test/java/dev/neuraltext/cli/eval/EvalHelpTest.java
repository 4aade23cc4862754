package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.cli.NeuralTextCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code eval --help} names every technique the harness accepts, the default {@code hybrid} among them. */
class EvalHelpTest {

    @Test
    void evalHelpListsEveryTechnique() {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = NeuralTextCli.run("eval", "--help");
        } finally {
            System.setOut(original);
        }
        assertThat(code).isZero();
        String text = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        for (String base : Technique.BASES) {
            assertThat(text).as("eval --help names %s", base).containsPattern("[ :,(]" + base + "[,( ]");
        }
        assertThat(text).contains("+rerank").contains("+adaptive");
    }
}
