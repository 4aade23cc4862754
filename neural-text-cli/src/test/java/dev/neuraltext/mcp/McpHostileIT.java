package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static dev.neuraltext.mcp.McpServerIT.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile and heavy requests through the SDK's client against the real {@code neural-text.jar mcp} process, its heap
 * capped at {@value #HEAP_MB} MB: each gets a clear tool error or a bounded answer (at most
 * {@link McpTools#OUTPUT_CAP_CHARS} characters of text, and says so when cut) within seconds, and the server keeps
 * serving. Prints the table of cases (answer, time, the server's heap and resident memory after).
 */
class McpHostileIT {

    static final int HEAP_MB = 256;
    /** The resident memory the server must stay under: the heap cap plus the JVM's own (code, threads, metaspace). */
    static final long RSS_BOUND_MIB = HEAP_MB + 256;

    @TempDir
    Path tmp;

    private record Row(String name, boolean error, String answer, long millis, long heapMib, long rssMib) {
    }

    @Test
    void hostileRequestsGetClearErrorsOrBoundedAnswersAndTheServerKeepsServing() throws Exception {
        Path root = McpServerIT.tree(tmp.resolve("proj"));
        for (int i = 0; i < 60; i++) {
            McpServerIT.write(root, "src/main/java/com/acme/gen/G" + i + ".java", "package com.acme.gen;\n\n"
                    + "/** Generated " + i + ": retries the upload of a report. */\nfinal class G" + i + " {\n"
                    + "    void upload" + i + "() {\n    }\n}\n");
        }
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 1_000_000; i++) {
            lines.append("line ").append(i).append('\n');
        }
        McpServerIT.write(root, "big/million-lines.txt", lines.toString());
        McpServerIT.write(root, "big/one-line.min.js", "x".repeat(3_000_000));
        Files.createSymbolicLink(root.resolve("escape"), Path.of("/etc"));
        Files.createSymbolicLink(root.resolve("docs/hosts.md"), Path.of("/etc/hosts"));

        List<String> logs = new CopyOnWriteArrayList<>();
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(McpServerIT.javaBin())
                .args("-Xmx" + HEAP_MB + "m", "-Dnt.test.hostile=" + tmp.getFileName(), "-jar",
                        Path.of(System.getProperty("nt.buildDirectory", "target"), "neural-text.jar").toAbsolutePath()
                                .toString(), "mcp", root.toString(), "--no-dense", "--check-interval", "300")
                .build(), McpProcesses.JSON);
        List<String> stderr = new CopyOnWriteArrayList<>();
        transport.setStdErrorHandler(stderr::add);
        List<Row> rows = new ArrayList<>();
        try (McpServerIT.Server server = McpServerIT.server(transport, McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(120)).initializationTimeout(Duration.ofSeconds(60))
                .loggingConsumer(n -> logs.add(n.data())))) {
            McpSyncClient client = server.client();
            McpServerIT.awaitReady(client);
            ProcessHandle process = McpProcesses.serverProcess("-Dnt.test.hostile=" + tmp.getFileName());
            String mega = "retry ".repeat(200_000); // 1.2 MB
            String nested = "(".repeat(5_000) + "type == 'code'" + ")".repeat(5_000);
            Case[] cases = {
                new Case("query of 1.2 MB", true, () -> call(client, "search", Map.of("query", mega))),
                new Case("query of 16,000 characters", false, () -> call(client, "search",
                        Map.of("query", "retry upload report ".repeat(800)))),
                new Case("limit 10^6", true, () -> call(client, "search", Map.of("query", "retry", "limit",
                        1_000_000))),
                new Case("budget 50 (below the least)", true, () -> call(client, "search", Map.of("query", "retry",
                        "budget", 50))),
                new Case("budget 10^6", true, () -> call(client, "search", Map.of("query", "retry",
                        "budget", 1_000_000))),
                new Case("limit -1", true, () -> call(client, "search", Map.of("query", "retry", "limit", -1))),
                new Case("limit 2.5", true, () -> call(client, "search", Map.of("query", "retry", "limit", 2.5))),
                new Case("limit \"8\" (a string)", true, () -> call(client, "search", Map.of("query", "retry",
                        "limit", "8"))),
                new Case("filter nested 5,000 deep", true, () -> call(client, "search", Map.of("query", "retry",
                        "filter", nested))),
                new Case("filter of 1 MB", true, () -> call(client, "search", Map.of("query", "retry",
                        "filter", "path == '" + "a".repeat(1_000_000) + "'"))),
                new Case("legs [\"nonsense\"]", true, () -> call(client, "search", Map.of("query", "retry",
                        "legs", List.of("nonsense")))),
                new Case("path glob **/../** on search", true, () -> call(client, "search", Map.of("query", "retry",
                        "path", "../**"))),
                new Case("get lines 1..10^7", true, () -> call(client, "get", Map.of("path", "docs/guide.md",
                        "startLine", 1, "endLine", 10_000_000))),
                new Case("get from line 10^7 (past the end)", true, () -> call(client, "get", Map.of("path",
                        "docs/guide.md", "startLine", 10_000_000, "endLine", 10_000_010))),
                new Case("get lines 999,801..1,000,000 of a 10^6-line file", false, () -> call(client, "get",
                        Map.of("path", "big/million-lines.txt", "startLine", 999_801, "endLine", 1_000_000))),
                new Case("get a 3 MB single line", false, () -> call(client, "get", Map.of("path",
                        "big/one-line.min.js", "startLine", 1, "endLine", 1))),
                new Case("get ../../etc/passwd", true, () -> call(client, "get", Map.of("path", "../../etc/passwd",
                        "startLine", 1, "endLine", 5))),
                new Case("get /etc/passwd (absolute)", true, () -> call(client, "get", Map.of("path", "/etc/passwd",
                        "startLine", 1, "endLine", 5))),
                new Case("get path with NUL", true, () -> call(client, "get", Map.of("path", "docs/guide.md\u0000.txt",
                        "startLine", 1, "endLine", 5))),
                new Case("get ..\\..\\etc\\passwd (Windows separators)", true, () -> call(client, "get",
                        Map.of("path", "..\\..\\etc\\passwd", "startLine", 1, "endLine", 5))),
                new Case("get C:\\Windows\\win.ini", true, () -> call(client, "get", Map.of("path",
                        "C:\\Windows\\win.ini", "startLine", 1, "endLine", 5))),
                new Case("get escape/passwd (a symlink out of the root)", true, () -> call(client, "get",
                        Map.of("path", "escape/passwd", "startLine", 1, "endLine", 5))),
                new Case("get docs/hosts.md (a file symlink out of the root)", true, () -> call(client, "get",
                        Map.of("path", "docs/hosts.md", "startLine", 1, "endLine", 5))),
                new Case("get id of 1 MB", true, () -> call(client, "get", Map.of("id", "x".repeat(1_000_000)))),
                new Case("get with both id and path", true, () -> call(client, "get", Map.of("id", "a", "path",
                        "b"))),
            };
            for (Case c : cases) {
                long start = System.nanoTime();
                McpSchema.CallToolResult r = c.call().get();
                long millis = (System.nanoTime() - start) / 1_000_000;
                String t = text(r);
                rows.add(row(c.name(), r, t, millis, client, process));
                assertThat(r.isError()).as(c.name() + ": " + first(t)).isEqualTo(c.error());
                assertThat(t.length()).as(c.name()).isLessThanOrEqualTo(McpTools.OUTPUT_CAP_CHARS + 2_000);
                assertThat(millis).as(c.name()).isLessThan(30_000);
                if (!c.error() && t.length() > McpTools.OUTPUT_CAP_CHARS / 2) {
                    assertThat(t).as(c.name()).contains("capped at");
                }
            }

            // hundreds of requests in flight at once, through the SDK's client from 64 threads
            ExecutorService pool = Executors.newFixedThreadPool(64);
            long start = System.nanoTime();
            List<Future<McpSchema.CallToolResult>> inFlight = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                int n = i;
                inFlight.add(pool.submit(() -> call(client, n % 3 == 0 ? "get" : "search", n % 3 == 0
                        ? Map.of("path", "docs/guide.md", "startLine", 1, "endLine", 3)
                        : Map.of("query", "upload" + n + " retry"))));
            }
            int errors = 0;
            for (Future<McpSchema.CallToolResult> f : inFlight) {
                McpSchema.CallToolResult r;
                try {
                    r = f.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    throw new AssertionError("a request in flight got no answer in 60 s; server stderr: "
                            + stderr.subList(Math.max(0, stderr.size() - 40), stderr.size()), e);
                }
                if (r.isError()) {
                    errors++;
                }
            }
            pool.shutdown();
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(errors).isZero();
            rows.add(new Row("300 requests from 64 client threads (search and get)", false, "300 answered, 0 errors",
                    millis, heapMib(client), McpProcesses.rssKib(process) / 1024));

            McpSchema.CallToolResult after = call(client, "search", Map.of("query", "backoffDelay"));
            assertThat(text(after)).startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java");
            for (Row r : rows) {
                assertThat(r.rssMib()).as(r.name()).isLessThan(RSS_BOUND_MIB);
            }
        }
        rows.add(pipelined(root, 500));
        rows.add(disconnectMidRequest(root));

        StringBuilder table = new StringBuilder("| case | answer | time (ms) | heap after (MiB) | RSS after (MiB) |\n"
                + "|---|---|---:|---:|---:|\n");
        for (Row r : rows) {
            table.append("| ").append(r.name()).append(" | ").append(r.error() ? "tool error: " : "")
                    .append(r.answer().replace("|", "\\|")).append(" | ").append(r.millis()).append(" | ")
                    .append(r.heapMib()).append(" | ").append(r.rssMib()).append(" |\n");
        }
        System.out.println("hostile requests (server heap capped at " + HEAP_MB + " MB):\n" + table);
    }

    /**
     * A client that sends a heavy search and closes the connection before the answer: the server finishes or drops
     * it, exits with 0 and leaves an index the next server opens.
     */
    private Row disconnectMidRequest(Path root) throws Exception {
        Process p = new ProcessBuilder(McpServerIT.javaBin(), "-Xmx" + HEAP_MB + "m", "-jar",
                Path.of(System.getProperty("nt.buildDirectory", "target"), "neural-text.jar").toAbsolutePath()
                        .toString(), "mcp", root.toString(), "--no-dense")
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long start = System.nanoTime();
        try (OutputStream in = p.getOutputStream()) {
            String query = "retry upload report ".repeat(800);
            String messages = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"gone\",\"version\":\"1\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                    + "\"arguments\":{\"query\":\"" + query + "\"}}}\n";
            in.write(messages.getBytes(StandardCharsets.UTF_8));
            in.flush();
        } // closed: the client is gone mid-request
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the server exits when its client is gone").isTrue();
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(p.exitValue()).isZero();
        List<String> logs = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server next = McpServerIT.client(root, logs)) {
            assertThat(text(call(next.client(), "search", Map.of("query", "backoffDelay"))))
                    .startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java");
            assertThat(logs).anyMatch(l -> l.startsWith("opened the saved index"));
        }
        return new Row("client disconnects mid-request", false, "server exited with 0 in " + millis + " ms; the next "
                + "server opened the saved index and answered", millis, -1, -1);
    }

    /**
     * {@code n} requests written at once on one connection, before any answer is read (all in flight in the server
     * together): every one gets its answer.
     */
    private Row pipelined(Path root, int n) throws Exception {
        Process p = new ProcessBuilder(McpServerIT.javaBin(), "-Xmx" + HEAP_MB + "m", "-jar",
                Path.of(System.getProperty("nt.buildDirectory", "target"), "neural-text.jar").toAbsolutePath()
                        .toString(), "mcp", root.toString(), "--no-dense")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = p.getOutputStream();
                java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(
                        p.getInputStream(), StandardCharsets.UTF_8))) {
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}\n")
                    .getBytes(StandardCharsets.UTF_8));
            in.flush();
            String first = out.readLine();
            while (first != null && !first.contains("\"id\":0")) { // log notifications may come first
                first = out.readLine();
            }
            assertThat(first).as("the answer to initialize").isNotNull();
            StringBuilder batch = new StringBuilder("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
            for (int i = 1; i <= n; i++) {
                batch.append(i % 3 == 0
                        ? "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":\"get\","
                                + "\"arguments\":{\"path\":\"docs/guide.md\",\"startLine\":1,\"endLine\":3}}}\n"
                        : "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                                + "\"arguments\":{\"query\":\"upload" + i + " retry\"}}}\n");
            }
            long start = System.nanoTime();
            in.write(batch.toString().getBytes(StandardCharsets.UTF_8));
            in.flush();
            java.util.Set<Integer> answered = new java.util.TreeSet<>();
            int errors = 0;
            ExecutorService reader = Executors.newSingleThreadExecutor();
            try {
                while (answered.size() < n) {
                    Future<String> next = reader.submit(out::readLine);
                    String line;
                    try {
                        line = next.get(60, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        throw new AssertionError(answered.size() + " of " + n + " pipelined requests answered; no "
                                + "answer for 60 s");
                    }
                    assertThat(line).as("the server's output ended").isNotNull();
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\{\"jsonrpc\":\"2.0\",\"id\":(\\d+)")
                            .matcher(line);
                    if (m.find()) {
                        answered.add(Integer.parseInt(m.group(1)));
                        errors += line.contains("\"isError\":true") ? 1 : 0;
                    }
                }
            } finally {
                reader.shutdownNow();
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(errors).isZero();
            long rss = McpProcesses.rssKib(p.toHandle()) / 1024;
            assertThat(rss).isLessThan(RSS_BOUND_MIB);
            return new Row(n + " requests pipelined on one connection (all in flight at once)", false, n
                    + " answered, 0 errors", millis, -1, rss);
        } finally {
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private record Case(String name, boolean error, Supplier<McpSchema.CallToolResult> call) {
    }

    private static Row row(String name, McpSchema.CallToolResult r, String t, long millis, McpSyncClient client,
            ProcessHandle process) {
        String answer = first(t) + String.format(java.util.Locale.ROOT, " (%,d chars)", t.length());
        return new Row(name, Boolean.TRUE.equals(r.isError()), answer, millis, heapMib(client),
                McpProcesses.rssKib(process) / 1024);
    }

    private static long heapMib(McpSyncClient client) {
        Map<String, Object> s = structured(call(client, "status", Map.of()));
        return ((Number) s.get("heapUsedBytes")).longValue() >> 20;
    }

    private static String first(String t) {
        String line = t.lines().findFirst().orElse("");
        return line.length() > 140 ? line.substring(0, 140) + "…" : line;
    }
}
