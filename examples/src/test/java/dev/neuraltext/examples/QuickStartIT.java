package dev.neuraltext.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's quick start promises in a comment what {@link QuickStart} prints: this keeps the two in step. */
class QuickStartIT {

    private static final Pattern SUMMARY_COMMENT = Pattern.compile("response\\.summary\\(\\)\\);\\s*// \"([^\"]+)\"");

    @Test
    void theQuickStartPrintsTheSummaryTheReadmePromises() throws IOException {
        Matcher promised = SUMMARY_COMMENT.matcher(Files.readString(Path.of("..", "README.md")));
        assertThat(promised.find()).as("the README quick start has a comment after response.summary()").isTrue();

        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            QuickStart.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(lines.size() - 1)).isEqualTo(promised.group(1));
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("RetryPolicy.backoffDelay"));
    }
}
