package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IgnoreFileTest {

    @TempDir
    Path tmp;

    @Test
    void indexHonoursANeuralTextIgnoreFileAndReindexingAfterItChangesDropsWhatItNowIgnores() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("repo"));
        CliFixture.write(root, ".neural-textignore", "docs/\n");
        String idx = root.resolve(".neural-text").toString();
        CliFixture.Result index = CliFixture.run("index", root.toString(), "--no-dense");
        assertThat(index.exitCode()).as(index.err()).isZero();
        assertThat(CliFixture.run("search", "exponential backoff jitter", "--index", idx, "--json").out())
                .doesNotContain("docs/guide.md").contains("RetryPolicy.java");

        CliFixture.write(root, ".neural-textignore", "*.java\n");
        assertThat(CliFixture.run("index", root.toString(), "--no-dense").exitCode()).isZero();
        String after = CliFixture.run("search", "exponential backoff jitter", "--index", idx, "--json").out();
        assertThat(after).contains("docs/guide.md").doesNotContain("RetryPolicy.java");
    }
}
