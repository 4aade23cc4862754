package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static dev.neuraltext.mcp.McpServerIT.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills while the server serves: the index folder is a real 1 MiB tmpfs (mounted by the test, which runs
 * only as root where mounting works). The saved index is written, the disk is filled, a large file is added to the
 * tree: the server re-indexes it, its save fails, and meanwhile it answers from memory (the new file is found) and says
 * in {@code status} and in every search answer that saving fails and how much space it needs. Once space is freed the
 * retried save succeeds, the problem is cleared, and the saved index on disk holds the new file.
 */
class McpDiskFullIT {

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void aFullDiskLeavesTheServerServingSaysSoAndTheSaveCatchesUpWhenSpaceReturns() throws Exception {
        Path mount = tmp.resolve("small-disk");
        Files.createDirectories(mount);
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount.toString()) == 0,
                "mounting a tmpfs needs root (skipped)");
        try {
            Path root = McpServerIT.tree(tmp.resolve("root"));
            Path index = mount.resolve("index");
            List<String> logs = new CopyOnWriteArrayList<>();
            try (McpServerIT.Server server = McpServerIT.client(root, logs, "--index", index.toString())) {
                McpSyncClient client = server.client();
                McpServerIT.awaitReady(client);
                awaitSaved(client);

                // fill the disk, then add a file too large to save beside the index
                Path filler = mount.resolve("filler.bin");
                fill(filler, Files.getFileStore(mount).getUsableSpace() - 8 * 1024);
                StringBuilder big = new StringBuilder("# Zanzibar\n\n");
                for (int i = 0; i < 6_000; i++) {
                    big.append("zanzibar word").append(i).append(" quokka\n");
                }
                McpServerIT.write(root, "docs/zanzibar.md", big.toString());

                McpSchema.CallToolResult found = awaitProblem(client);
                assertThat(text(found)).as("served from memory").contains("docs/zanzibar.md")
                        .contains("Note: saving the index to " + index + " failed")
                        .contains("No space left on device").contains("it needs about");
                Map<String, Object> status = structured(call(client, "status", Map.of()));
                assertThat((String) status.get("saveProblem")).contains("No space left on device")
                        .contains("trying again in");
                try (var entries = Files.list(index)) {
                    assertThat(entries.map(p -> p.getFileName().toString()))
                            .as("no partial generation left behind").noneMatch(n -> n.endsWith(".tmp"));
                }

                // space returns: the retried save succeeds and the problem is gone
                Files.delete(filler);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (structured(call(client, "status", Map.of())).get("saveProblem") != null) {
                    assertThat(System.nanoTime()).as("the save recovered within 90 s").isLessThan(deadline);
                    Thread.sleep(200);
                }
                assertThat(text(call(client, "search", Map.of("query", "zanzibar quokka"))))
                        .doesNotContain("saving the index");
            }
            // the saved index holds the new file: a fresh CLI search of the folder finds it
            Process p = new ProcessBuilder(McpServerIT.javaBin(), "-jar", McpServerIT.JAR.toString(), "search",
                    "--index", index.toString(), "--no-dense", "--json", "zanzibar quokka")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).contains("docs/zanzibar.md");
        } finally {
            assertThat(run("umount", mount.toString())).as("unmounting the test's tmpfs").isZero();
        }
    }

    private static void awaitSaved(McpSyncClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (structured(call(client, "status", Map.of())).get("lastSaved") == null) {
            assertThat(System.nanoTime()).as("the first save within 60 s").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** Searches until an answer holds the new file and the save problem (the re-index and its save are background). */
    private static McpSchema.CallToolResult awaitProblem(McpSyncClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            McpSchema.CallToolResult r = call(client, "search", Map.of("query", "zanzibar quokka"));
            if (text(r).contains("docs/zanzibar.md") && text(r).contains("failed")) {
                return r;
            }
            assertThat(System.nanoTime()).as("a failed save within 60 s; last answer: %s", text(r))
                    .isLessThan(deadline);
            Thread.sleep(300);
        }
    }

    private static void fill(Path file, long bytes) throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written + block.length <= bytes; written += block.length) {
                out.write(block);
            }
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }
}
