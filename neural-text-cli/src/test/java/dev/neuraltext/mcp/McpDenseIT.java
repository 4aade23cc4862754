package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static dev.neuraltext.mcp.McpServerIT.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.store.InMemoryCaseStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live index with its dense leg (the default preset): BM25 answers at once, the dense vectors follow in the
 * background with progress in {@code status} and log notifications, a search meanwhile says the dense leg covers only
 * part of the index, and the vectors are saved, so a restart does not embed again.
 */
class McpDenseIT {

    @TempDir
    Path tmp;

    private static McpServerIT.Server client(Path root, List<String> logs,
            List<McpSchema.ProgressNotification> progress) {
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(McpServerIT.javaBin())
                .args("-jar", Path.of(System.getProperty("nt.buildDirectory", "target"), "neural-text.jar")
                        .toAbsolutePath().toString(), "mcp", root.toString(),
                        "--check-interval", "300").build(), io.modelcontextprotocol.json.McpJsonDefaults
                                .getMapper());
        transport.setStdErrorHandler(line -> { });
        return McpServerIT.server(transport, McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(60)).loggingConsumer(n -> logs.add(n.data()))
                .progressConsumer(progress::add));
    }

    @SuppressWarnings("unchecked")
    private static long withDense(Map<String, Object> status) {
        return ((Number) ((Map<String, Object>) status.get("denseCoverage")).get("withDense")).longValue();
    }

    @Test
    void bm25FirstThenDenseVectorsInTheBackgroundSavedForTheNextStart() throws Exception {
        Path root = tmp.resolve("proj");
        McpServerIT.tree(root);
        for (int i = 0; i < 120; i++) {
            McpServerIT.write(root, "src/main/java/com/acme/jobs/Job" + i + ".java", "package com.acme.jobs;\n\n"
                    + "/** Job " + i + " copies the nightly report to the archive and mails its owner. */\n"
                    + "final class Job" + i + " {\n    void run" + i + "() {\n        archive(\"report-" + i
                    + "\");\n    }\n\n    void archive(String name) {\n    }\n}\n");
        }
        List<String> logs = new CopyOnWriteArrayList<>();
        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server server = client(root, logs, progress)) {
            McpSyncClient client = server.client();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            boolean sawPartial = false;
            Map<String, Object> status = Map.of();
            while (System.nanoTime() < deadline) {
                status = structured(call(client, "status", Map.of()));
                long chunks = ((Number) status.get("chunks")).longValue();
                long dense = withDense(status);
                if ("embedding".equals(status.get("phase")) && dense < chunks && !sawPartial) {
                    McpSchema.CallToolResult during = call(client, "search", Map.of("query", "backoffDelay"));
                    assertThat(text(during)).startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java:13-15");
                    if (withDense(structured(call(client, "status", Map.of()))) < chunks) {
                        assertThat(text(during)).contains("Note: dense vectors cover");
                    }
                    sawPartial = true;
                }
                if ("ready".equals(status.get("phase")) && chunks > 0 && dense == chunks) {
                    break;
                }
                Thread.sleep(100);
            }
            assertThat(sawPartial).as("a search while the dense vectors were being embedded").isTrue();
            assertThat(withDense(status)).isEqualTo(((Number) status.get("chunks")).longValue());
            assertThat((List<String>) status.get("legs")).containsExactly("bm25", "dense");
            assertThat(status.get("denseModel").toString()).startsWith(DenseModel.DEFAULT_MODEL + "/");

            // no shared words with the text: the dense leg has to find it
            McpSchema.CallToolResult meaning = call(client, "search", Map.of("query", "pause length before the next try",
                    "limit", 3));
            assertThat(structured(meaning).get("legs")).isEqualTo(List.of("bm25", "dense"));
            assertThat(text(meaning)).doesNotContain("Note: dense vectors cover");

            // reindex reports progress when the client asks for it
            McpServerIT.write(root, "src/main/java/com/acme/jobs/Job0.java", "package com.acme.jobs;\n\nfinal class Job0 {"
                    + "\n    void purgeOldReports() {\n    }\n}\n");
            McpSchema.CallToolResult re = client.callTool(new McpSchema.CallToolRequest("reindex", Map.of(),
                    Map.of("progressToken", "reindex-1")));
            assertThat(structured(re).get("modified")).isEqualTo(List.of("src/main/java/com/acme/jobs/Job0.java"));
            // a notification may arrive just after the tool result: wait for it, bounded
            long progressDeadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (progress.stream().noneMatch(McpDenseIT::reindexDone) && System.nanoTime() < progressDeadline) {
                Thread.sleep(50);
            }
            assertThat(progress).anyMatch(McpDenseIT::reindexDone);
        }
        assertThat(logs).anyMatch(l -> l.startsWith("BM25 index of")).anyMatch(l -> l.startsWith("dense vectors for"));
        assertThat(InMemoryCaseStore.readFingerprint(root.resolve(".neural-text")).denseModel())
                .startsWith(DenseModel.DEFAULT_MODEL + "/");

        // the next start opens the saved vectors and embeds only what lacks them (the file edited last, when the
        // first server stopped before embedding it)
        List<String> again = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server server = client(root, again, new CopyOnWriteArrayList<>())) {
            McpSyncClient client = server.client();
            Map<String, Object> status = structured(call(client, "status", Map.of()));
            long chunks = ((Number) status.get("chunks")).longValue();
            assertThat(withDense(status)).isGreaterThanOrEqualTo(chunks - 2);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (withDense(status) < chunks && System.nanoTime() < deadline) {
                Thread.sleep(100);
                status = structured(call(client, "status", Map.of()));
            }
            assertThat(withDense(status)).isEqualTo(chunks);
        }
        assertThat(again).filteredOn(l -> l.startsWith("embedding dense vectors for "))
                .allMatch(l -> l.matches("embedding dense vectors for [0-2] chunks in the background"));
    }

    private static boolean reindexDone(McpSchema.ProgressNotification p) {
        return "reindex-1".equals(String.valueOf(p.progressToken())) && p.progress() != null && p.progress() == 1.0;
    }
}
