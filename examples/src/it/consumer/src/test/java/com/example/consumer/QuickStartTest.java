package com.example.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuickStartTest {

    @Test
    void theQuickStartRunsFromThePublishedArtifactsAndFindsTheBackoffMethod() {
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
    }
}
