package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static dev.neuraltext.mcp.McpServerIT.text;
import static dev.neuraltext.mcp.McpServerIT.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several roots, {@code find_related}, the ignore file and {@code --include}, through the SDK's client and a real
 * server process ({@code java -jar target/neural-text.jar mcp}, BM25 only).
 */
class McpRootsIT {

    @TempDir
    Path tmp;

    /** A library root: a definition, its caller, its test, its page, and files the ignore rules leave out. */
    private Path library() throws IOException {
        Path root = McpServerIT.tree(tmp.resolve("lib"));
        write(root, "src/main/java/com/acme/http/Resender.java", """
                package com.acme.http;

                import com.acme.retry.RetryPolicy;

                final class Resender {
                    private final RetryPolicy policy = new RetryPolicy(100);

                    long pause(int attempt) {
                        return policy.backoffDelay(attempt);
                    }
                }
                """);
        write(root, "src/test/java/com/acme/retry/RetryPolicyTest.java", """
                package com.acme.retry;

                class RetryPolicyTest {
                    void doubles() {
                        new RetryPolicy(1).backoffDelay(3);
                    }
                }
                """);
        write(root, "generated/Stub.java", "class Stub { long backoffDelay() { return 0; } }\n");
        write(root, ".neural-textignore", "generated/\n");
        return root;
    }

    /** A second root with a file of the same relative path as the library's, and its own use of the name. */
    private Path app() throws IOException {
        Path root = tmp.resolve("app");
        write(root, "src/main/java/com/acme/retry/RetryPolicy.java", """
                package com.acme.retry;

                /** The application's own retry policy: how long to wait between attempts of a backoffDelay. */
                public final class RetryPolicy {
                    public long backoffDelay(int attempt) {
                        return 42;
                    }
                }
                """);
        write(root, "notes/todo.txt", "backoffDelay is tuned in the app\n");
        return root;
    }

    @Test
    @SuppressWarnings("unchecked")
    void twoRootsAnswerInOneRankingWithTheRootInEveryHitAndFindRelatedFindsTheCallers() throws Exception {
        Path lib = library();
        Path app = app();
        List<String> logs = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server server = McpServerIT.client(lib, logs, "--root", app.toString(), "--with-tests",
                "--exclude", "*.txt")) {
            McpSyncClient client = server.client();
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).contains("find_related");
            McpServerIT.awaitReady(client);
            // each root has its own index folder (and lock)
            assertThat(lib.resolve(".neural-text")).isDirectory();
            assertThat(app.resolve(".neural-text")).isDirectory();
            Map<String, Object> status = structured(call(client, "status", Map.of()));
            assertThat((List<Map<String, Object>>) status.get("roots")).extracting(r -> r.get("name"))
                    .containsExactly("lib", "app");

            // one ranking over both roots, every hit qualified by its root
            McpSchema.CallToolResult found = call(client, "search", Map.of("query", "backoffDelay", "limit", 10));
            assertThat(found.isError()).as(text(found)).isFalse();
            List<Map<String, Object>> hits = (List<Map<String, Object>>) structured(found).get("hits");
            assertThat(hits).extracting(h -> (String) h.get("path"))
                    .contains("lib/src/main/java/com/acme/retry/RetryPolicy.java",
                            "app/src/main/java/com/acme/retry/RetryPolicy.java")
                    .allMatch(p -> p.startsWith("lib/") || p.startsWith("app/"))
                    // the ignore file and --exclude are honoured
                    .noneMatch(p -> p.contains("generated/") || p.endsWith(".txt"));
            assertThat(hits).allSatisfy(h -> assertThat(((String) h.get("path"))).startsWith(h.get("root") + "/"));
            List<Double> scores = hits.stream().map(h -> ((Number) h.get("score")).doubleValue()).toList();
            assertThat(scores.subList(0, 2)).isSortedAccordingTo(java.util.Comparator.reverseOrder());

            // get takes the qualified path and reads that root's file
            McpSchema.CallToolResult lines = call(client, "get", Map.of("path",
                    "app/src/main/java/com/acme/retry/RetryPolicy.java", "startLine", 6, "endLine", 6));
            assertThat(text(lines)).contains("return 42;");
            String appId = hits.stream().filter(h -> ((String) h.get("path")).startsWith("app/")).findFirst()
                    .map(h -> (String) h.get("id")).orElseThrow();
            assertThat(text(call(client, "get", Map.of("id", appId)))).contains("app/src/main/java");
            McpSchema.CallToolResult unqualified = call(client, "get", Map.of("path",
                    "src/main/java/com/acme/retry/RetryPolicy.java"));
            assertThat(unqualified.isError()).isTrue();
            assertThat(text(unqualified)).contains("names no root").contains("[lib, app]");

            // find_related on a known definition: its caller's file, its test, its page; the root named
            McpSchema.CallToolResult related = call(client, "find_related", Map.of("path",
                    "lib/src/main/java/com/acme/retry/RetryPolicy.java", "symbol", "backoffDelay"));
            assertThat(related.isError()).as(text(related)).isFalse();
            List<Map<String, Object>> rel = (List<Map<String, Object>>) structured(related).get("hits");
            assertThat(rel).extracting(h -> (String) h.get("path"))
                    .contains("lib/src/main/java/com/acme/http/Resender.java",
                            "lib/src/test/java/com/acme/retry/RetryPolicyTest.java")
                    .doesNotContain("lib/src/main/java/com/acme/retry/RetryPolicy.java", "lib/generated/Stub.java");
            Map<String, Object> caller = rel.stream().filter(h -> h.get("path").toString().endsWith("Resender.java"))
                    .findFirst().orElseThrow();
            assertThat(caller).containsEntry("relation", "used-by").containsEntry("root", "lib");
            assertThat((List<String>) caller.get("names")).containsExactly("backoffDelay");
            // the caller's lines are correct: get returns the line that calls it
            int start = (Integer) caller.get("startLine");
            int end = (Integer) caller.get("endLine");
            assertThat(text(call(client, "get", Map.of("path", caller.get("path"), "startLine", start, "endLine",
                    end)))).contains("policy.backoffDelay(attempt)");
            assertThat(text(related)).contains("[used-by: backoffDelay]").contains("[test: backoffDelay]");
            // packed into 2,000 tokens by default, as search is: the caller's code is in the answer itself
            assertThat(text(related)).contains("policy.backoffDelay(attempt)").contains(" tokens (budget 2,000)");
            assertThat((Map<String, Object>) structured(related).get("budget")).containsEntry("tokens", 2000);
            McpSchema.CallToolResult oneLine = call(client, "find_related", Map.of("path",
                    "lib/src/main/java/com/acme/retry/RetryPolicy.java", "symbol", "backoffDelay", "budget", 0));
            assertThat(structured(oneLine)).doesNotContainKey("budget");
            assertThat((List<Map<String, Object>>) structured(oneLine).get("hits")).extracting(h -> h.get("path"))
                    .containsExactlyInAnyOrderElementsOf(rel.stream().map(h -> h.get("path")).toList());

            McpSchema.CallToolResult bad = call(client, "find_related", Map.of("path",
                    "lib/src/main/java/com/acme/retry/RetryPolicy.java", "symbol", "nope"));
            assertThat(bad.isError()).isTrue();
            assertThat(text(bad)).contains("defines no symbol 'nope'");
        }
    }
}
