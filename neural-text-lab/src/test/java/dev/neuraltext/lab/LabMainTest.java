package dev.neuraltext.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The lab's command line: its commands are there, and bad input names the option. */
class LabMainTest {

    private static String[] run(String... args) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            code = LabMain.run(args);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new String[] {Integer.toString(code), o.toString(StandardCharsets.UTF_8),
            e.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void theHelpListsTheCommandsAndTheFormerSystemPropertiesAsOptions() {
        assertThat(run("--help")[1]).contains("fit-ranking", "fit-fusion", "presets");
        assertThat(run("fit-ranking", "--help")[1]).contains("--semble", "--annotations", "--method", "--min-gain",
                "--bags", "--lambda", "--dump");
        assertThat(run("fit-fusion", "--help")[1]).contains("--dataset", "--dense-windows", "--second-dense");
    }

    @Test
    void missingInputsAreBadInputNamingTheOption() {
        String[] ranking = run("fit-ranking", "--annotations", "x");
        assertThat(ranking[0]).isEqualTo("2");
        assertThat(ranking[2]).contains("--semble");
        String[] presets = run("presets", "--limit", "3");
        assertThat(presets[0]).isEqualTo("2");
        assertThat(presets[2]).contains("--dataset is required");
    }

    @Test
    void aBadFitOptionNamesItsValue() {
        String[] r = run("fit-ranking", "--semble", "roots.tsv", "--annotations", "ann", "--method", "guess");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains("--method must be one of", "'guess'");
    }
}
