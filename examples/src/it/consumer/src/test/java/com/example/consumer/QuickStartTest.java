package com.example.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the README's quick start (copied into this project by prebuild.groovy) and checks what the README promises. */
class QuickStartTest {

    @Test
    void theQuickStartRunsFromThePublishedArtifactsAndFindsTheBackoffMethod() throws IOException {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            QuickStart.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        original.print(out);
        List<String> lines = out.lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).contains("BM25=").contains("DENSE=");
        assertThat(lines.subList(0, 3)).anySatisfy(line -> assertThat(line).contains("RetryPolicy.backoffDelay"));
        assertThat(lines.get(3)).matches("3 results, \\d+ above threshold.*");
        assertThat(lines.get(3)).as("the summary the README's comment promises").isEqualTo(promisedSummary());
    }

    private static String promisedSummary() throws IOException {
        try (InputStream in = QuickStartTest.class.getResourceAsStream("/quickstart-summary.txt")) {
            assertThat(in).as("quickstart-summary.txt, written by prebuild.groovy").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
