package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code neural-text mcp} end to end: the SDK's own client spawns {@code java -jar target/neural-text.jar mcp} as a
 * separate process (so this runs after {@code package}, under Failsafe). BM25 only ({@code --no-dense}) where the
 * model is not the point.
 */
class McpServerIT {

    static final Path JAR =
            Path.of(System.getProperty("nt.buildDirectory", "target"), "neural-text.jar").toAbsolutePath();
    private static final io.modelcontextprotocol.json.McpJsonMapper JSON =
            io.modelcontextprotocol.json.McpJsonDefaults.getMapper();

    @TempDir
    Path tmp;

    static Path write(Path root, String rel, String content) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    static Path tree(Path root) throws IOException {
        write(root, "src/main/java/com/acme/retry/RetryPolicy.java", """
                package com.acme.retry;

                /** Decides how long to wait between attempts of a failed call. */
                public final class RetryPolicy {

                    private final long baseMillis;

                    public RetryPolicy(long baseMillis) {
                        this.baseMillis = baseMillis;
                    }

                    /** Exponential backoff: the delay doubles with every attempt. */
                    public long backoffDelay(int attempt) {
                        return baseMillis << attempt;
                    }
                }
                """);
        write(root, "docs/guide.md", """
                # Guide

                ## Retries

                Failed calls are retried with exponential backoff, so a flaky network does not fail the whole job.
                """);
        write(root, "scripts/release", "#!/usr/bin/env bash\nset -euo pipefail\necho publishing the artifacts\n");
        write(root, "Dockerfile", "FROM eclipse-temurin:17\nCOPY target/app.jar /app.jar\n");
        return root;
    }

    /** {@code n} small Java files {@code Service<i>} with a method {@code handle<i>}, in {@code packages} packages. */
    static Path services(Path root, int n, int packages) throws IOException {
        for (int i = 0; i < n; i++) {
            write(root, "src/main/java/big/p" + (i % packages) + "/Service" + i + ".java", "package big.p"
                    + (i % packages) + ";\n\n/** Service number " + i + ". */\nclass Service" + i + " {\n    int handle"
                    + i + "(int request) {\n        return request + " + i + ";\n    }\n}\n");
        }
        return root;
    }

    /**
     * A client whose close also waits for the server process to exit, so that no save of the server's races with the
     * removal of the temporary folders.
     */
    record Server(McpSyncClient client, StdioClientTransport transport) implements AutoCloseable {
        @Override
        public void close() {
            client.close();
            transport.awaitForExit();
        }
    }

    static Server server(StdioClientTransport transport, McpClient.SyncSpec spec) {
        McpSyncClient client = spec.build();
        client.initialize();
        return new Server(client, transport);
    }

    static Server client(Path root, List<String> logs, String... extra) {
        List<String> args = new ArrayList<>(List.of("-jar", JAR.toString(), "mcp", root.toString(), "--no-dense",
                "--check-interval", "300"));
        args.addAll(List.of(extra));
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(javaBin()).args(args).build(),
                JSON);
        transport.setStdErrorHandler(line -> { });
        return server(transport, McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).loggingConsumer(n -> logs.add(n.data())));
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        for (McpSchema.Content c : r.content()) {
            sb.append(((McpSchema.TextContent) c).text()).append('\n');
        }
        return sb.toString();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> structured(McpSchema.CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    static void awaitReady(McpSyncClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Map<String, Object> s = structured(call(client, "status", Map.of()));
            if ("ready".equals(s.get("phase")) && s.get("lastUpdated") != null) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the index was not ready within 120 s");
    }

    @Test
    void toolsSearchGetRefusalsLiveUpdatesAndToolErrorsThroughARealClient() throws Exception {
        Path root = tree(tmp.resolve("proj"));
        Path outside = write(tmp, "secret/keys.txt", "secret\n");
        Files.createSymbolicLink(root.resolve("docs/keys.txt"), outside);
        List<String> logs = new CopyOnWriteArrayList<>();
        try (Server server = client(root, logs)) {
            McpSyncClient client = server.client();
            // the tools and their schemas (the SDK validated the schemas against JSON Schema 2020-12 at server start)
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools).extracting(McpSchema.Tool::name).containsExactly("search", "get", "status", "reindex",
                    "find_related");
            McpSchema.Tool search = tools.get(0);
            assertThat(search.inputSchema()).containsEntry("type", "object");
            assertThat((List<String>) search.inputSchema().get("required")).containsExactly("query");
            assertThat(((Map<String, Object>) search.inputSchema().get("properties")).keySet())
                    .containsExactly("query", "limit", "filter", "path", "kind", "legs", "groupBy", "ranking", "budget");
            assertThat(search.outputSchema()).containsKey("properties");
            assertThat(search.description()).contains("above the relevance threshold");
            awaitReady(client);

            // an identifier
            McpSchema.CallToolResult byName = call(client, "search", Map.of("query", "backoffDelay"));
            assertThat(byName.isError()).isFalse();
            assertThat(text(byName)).startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java:13-15  "
                    + "RetryPolicy.backoffDelay (method)  score ").contains(" above threshold");
            Map<String, Object> s = structured(byName);
            Map<String, Object> top = ((List<Map<String, Object>>) s.get("hits")).get(0);
            assertThat(top).containsEntry("path", "src/main/java/com/acme/retry/RetryPolicy.java")
                    .containsEntry("startLine", 13).containsEntry("endLine", 15).containsEntry("kind", "method")
                    .containsEntry("aboveThreshold", true);
            assertThat(s).containsEntry("indexComplete", true);

            // a sentence; and an extensionless script is indexed
            McpSchema.CallToolResult bySentence = call(client, "search",
                    Map.of("query", "how does a flaky network not fail the job", "kind", "doc"));
            assertThat(text(bySentence)).startsWith("1. docs/guide.md:3-5  Retries (section)");
            assertThat(text(call(client, "search", Map.of("query", "publishing the artifacts", "limit", 1))))
                    .startsWith("1. scripts/release:1-3");

            // get: a line range, exactly; a chunk by id
            McpSchema.CallToolResult lines = call(client, "get",
                    Map.of("path", "src/main/java/com/acme/retry/RetryPolicy.java", "startLine", 13, "endLine", 14));
            assertThat(lines.isError()).isFalse();
            assertThat(((McpSchema.TextContent) lines.content().get(1)).text()).isEqualTo(
                    "    public long backoffDelay(int attempt) {\n        return baseMillis << attempt;");
            McpSchema.CallToolResult chunk = call(client, "get", Map.of("id", top.get("id")));
            assertThat(text(chunk)).contains("return baseMillis << attempt;");

            // refused: ../ and a symlink that escapes the root
            McpSchema.CallToolResult up = call(client, "get", Map.of("path", "../secret/keys.txt", "startLine", 1,
                    "endLine", 1));
            assertThat(up.isError()).isTrue();
            assertThat(text(up)).contains("outside the indexed folder");
            McpSchema.CallToolResult link = call(client, "get", Map.of("path", "docs/keys.txt", "startLine", 1,
                    "endLine", 1));
            assertThat(link.isError()).isTrue();
            assertThat(text(link)).contains("symbolic link leads outside").doesNotContain("secret\n");

            // an edit adds a symbol: the next search (after the debounce) finds it
            write(root, "src/main/java/com/acme/retry/Jitter.java", """
                    package com.acme.retry;

                    /** Random spread added to each delay. */
                    final class Jitter {
                        long spreadMillis(long delay) {
                            return delay / 4;
                        }
                    }
                    """);
            Thread.sleep(400);
            McpSchema.CallToolResult edited = call(client, "search", Map.of("query", "spreadMillis"));
            assertThat(text(edited)).startsWith("1. src/main/java/com/acme/retry/Jitter.java:5-7  Jitter.spreadMillis")
                    .contains("1 file changed since the last search and were re-indexed first");

            // nothing relevant: said plainly, the best few marked below the threshold
            McpSchema.CallToolResult nothing = call(client, "search", Map.of("query", "kubernetes helm chart ingress"));
            assertThat(text(nothing)).satisfiesAnyOf(
                    t -> assertThat(t).startsWith("No result above the relevance threshold"),
                    t -> assertThat(t).startsWith("No results for"));

            // a malformed filter is a tool error, and the server keeps serving
            McpSchema.CallToolResult bad = call(client, "search", Map.of("query", "retry", "filter", "type == "));
            assertThat(bad.isError()).isTrue();
            assertThat(text(bad)).contains("malformed `filter`").contains("column");
            assertThat(call(client, "search", Map.of("query", "RetryPolicy", "path", "src/**")).isError()).isFalse();

            // status and reindex
            Map<String, Object> status = structured(call(client, "status", Map.of()));
            assertThat(status).containsEntry("phase", "ready").containsEntry("writer", true);
            // the symbolic link to a file outside the root is skipped, counted by reason
            assertThat((Map<String, Object>) status.get("skipped")).containsEntry("symlink escaping the root", 1);
            assertThat(status).containsEntry("saveProblem", null);
            assertThat(text(call(client, "status", Map.of()))).containsPattern("; skipped \\d+ \\(.*symlink escaping "
                    + "the root 1");
            assertThat((List<String>) status.get("legs")).containsExactly("bm25");
            Files.delete(root.resolve("src/main/java/com/acme/retry/Jitter.java"));
            McpSchema.CallToolResult re = call(client, "reindex", Map.of());
            assertThat(structured(re).get("deleted")).isEqualTo(List.of("src/main/java/com/acme/retry/Jitter.java"));
            assertThat(text(re)).contains("1 deleted");
        }
        assertThat(logs).anyMatch(l -> l.startsWith("BM25 index of"));
    }

    @Test
    void stdoutCarriesOnlyJsonRpcMessages() throws Exception {
        Path root = tree(tmp.resolve("raw"));
        Process p = new ProcessBuilder(javaBin(), "-jar", JAR.toString(), "mcp", root.toString(), "--no-dense")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread watchdog = new Thread(() -> {
            try {
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        List<String> lines = new ArrayList<>();
        ObjectMapper mapper = new ObjectMapper();
        try (OutputStream in = p.getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
            for (String line : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"status\","
                            + "\"arguments\":{}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                            + "\"arguments\":{\"query\":\"RetryPolicy\"}}}")) {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
            int responses = 0;
            String line;
            while (responses < 4 && (line = out.readLine()) != null) {
                lines.add(line);
                if (mapper.readTree(line).has("id")) {
                    responses++;
                }
            }
            Thread.sleep(2000); // the build finishes and logs meanwhile
            in.close();
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        List<Integer> ids = new ArrayList<>();
        for (String line : lines) {
            JsonNode node = mapper.readTree(line); // throws on anything but JSON
            assertThat(node.get("jsonrpc").asText()).as(line).isEqualTo("2.0");
            assertThat(node.has("result") || node.has("method")).as(line).isTrue();
            if (node.has("id")) {
                ids.add(node.get("id").asInt());
            }
        }
        assertThat(ids).containsExactlyInAnyOrder(1, 2, 3, 4);
    }

    @Test
    void aSearchDuringTheFirstBuildAnswersAndSaysTheIndexIsIncomplete() throws Exception {
        Path root = services(tmp.resolve("big"), 2000, 30);
        List<String> logs = new CopyOnWriteArrayList<>();
        try (Server server = client(root, logs)) {
            McpSyncClient client = server.client();
            McpSchema.CallToolResult early = call(client, "search", Map.of("query", "handle1999"));
            assertThat(early.isError()).isFalse();
            assertThat(structured(early)).containsEntry("indexComplete", false);
            assertThat(text(early)).contains("Note: the index is still being built");
            awaitReady(client);
            McpSchema.CallToolResult later = call(client, "search", Map.of("query", "handle1999"));
            assertThat(structured(later)).containsEntry("indexComplete", true);
            assertThat(text(later)).startsWith("1. src/main/java/big/p19/Service1999.java:5-7")
                    .doesNotContain("still being built");
        }
    }

    @Test
    void twoInstancesOnOneTreeShareTheIndexAndTheSecondStillSearches() throws Exception {
        Path root = tree(tmp.resolve("shared"));
        List<String> logs = new CopyOnWriteArrayList<>();
        try (Server firstServer = client(root, logs)) {
            McpSyncClient first = firstServer.client();
            awaitReady(first);
            assertThat(structured(call(first, "status", Map.of()))).containsEntry("writer", true);
            try (Server secondServer = client(root, logs)) {
                McpSyncClient second = secondServer.client();
                awaitReady(second);
                Map<String, Object> status = structured(call(second, "status", Map.of()));
                assertThat(status).containsEntry("writer", false);
                assertThat(text(call(second, "status", Map.of()))).contains("another process writes it");
                assertThat(text(call(second, "search", Map.of("query", "backoffDelay"))))
                        .startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java:13-15");

                write(root, "src/main/java/com/acme/retry/Jitter.java",
                        "package com.acme.retry;\n\nfinal class Jitter {\n    long spreadMillis(long d) {\n"
                                + "        return d / 4;\n    }\n}\n");
                Thread.sleep(400);
                assertThat(text(call(second, "search", Map.of("query", "spreadMillis"))))
                        .startsWith("1. src/main/java/com/acme/retry/Jitter.java:4-6");
                assertThat(text(call(first, "search", Map.of("query", "spreadMillis"))))
                        .startsWith("1. src/main/java/com/acme/retry/Jitter.java:4-6");
            }
        }
        assertThat(logs).anyMatch(l -> l.contains("another process is updating the index"));
    }
}
