package dev.neuraltext.mcp;

import dev.neuraltext.ingest.DirectoryIngestor;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Test support for the MCP server as a process: spawning it with the deterministic embedder
 * ({@link HashingMcpServer}), finding and killing its process, reading its resident memory, and a fresh in-process
 * index of a tree to compare a live one with.
 */
final class McpProcesses {

    static final io.modelcontextprotocol.json.McpJsonMapper JSON =
            io.modelcontextprotocol.json.McpJsonDefaults.getMapper();

    private McpProcesses() {
    }

    /**
     * A server over {@code root} keeping its index in {@code index}, with the {@link HashingMcpServer} embedder, run
     * from this JVM's class path.
     */
    static McpServerIT.Server hashingServer(Path root, Path index, List<String> logs, long checkIntervalMillis,
            String... jvmArgs) {
        List<String> args = new ArrayList<>(List.of(jvmArgs));
        args.addAll(List.of("-cp", System.getProperty("java.class.path"), HashingMcpServer.class.getName(),
                root.toString(), "--index", index.toString(), "--check-interval", Long.toString(checkIntervalMillis)));
        StdioClientTransport transport = new StdioClientTransport(
                ServerParameters.builder(McpServerIT.javaBin()).args(args).build(), JSON);
        transport.setStdErrorHandler(line -> { });
        return McpServerIT.server(transport, McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(60)).loggingConsumer(n -> logs.add(n.data())));
    }

    /** The server process (a child of this JVM) whose command line names {@code marker}. */
    static ProcessHandle serverProcess(String marker) {
        return ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .findFirst().orElseThrow(() -> new AssertionError("no server process with " + marker));
    }

    /** Kills the process at once (SIGKILL): no shutdown hook, no save, no lock release but the OS's. */
    static void kill(ProcessHandle p) throws InterruptedException {
        p.destroyForcibly();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (p.isAlive()) {
            throw new AssertionError("process " + p.pid() + " survived SIGKILL for 20 s");
        }
    }

    /** Closes a client whose server may be dead, ignoring what a dead server's transport says. */
    static void closeQuietly(McpServerIT.Server server) {
        try {
            server.client().closeGracefully();
        } catch (RuntimeException e) {
            // the server is gone: nothing to close gracefully
        }
        try {
            server.transport().awaitForExit();
        } catch (RuntimeException e) {
            // same
        }
    }

    /**
     * Waits until the live index has caught up with a tree last changed at {@code lastChangeNanos} (past the racy
     * window, a search's check finds nothing to do) and every chunk has its dense vector; at most 120 s.
     */
    @SuppressWarnings("unchecked")
    static void settle(io.modelcontextprotocol.client.McpSyncClient client, long lastChangeNanos, long intervalMillis)
            throws InterruptedException {
        long quiet = TimeUnit.NANOSECONDS.toMillis(lastChangeNanos + TreeStamp.RACY_WINDOW_NANOS - System.nanoTime())
                + 100;
        if (quiet > 0) {
            Thread.sleep(quiet);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            Thread.sleep(Math.max(50, intervalMillis + 20));
            Map<String, Object> f = (Map<String, Object>) McpServerIT.structured(McpServerIT.call(client, "search",
                    Map.of("query", "settle"))).get("freshness");
            Map<String, Object> st = McpServerIT.structured(McpServerIT.call(client, "status", Map.of()));
            Map<String, Object> cov = (Map<String, Object>) st.get("denseCoverage");
            if (Boolean.TRUE.equals(f.get("checkedNow")) && ((Number) f.get("filesChanged")).intValue() == 0
                    && !Boolean.TRUE.equals(f.get("updateRunning")) && "ready".equals(st.get("phase"))
                    && cov.get("chunks").equals(cov.get("withDense"))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the live index did not settle within 120 s: " + st + " " + f);
            }
        }
    }

    /**
     * The digest of the index {@code neural-text index FOLDER --index DIR --no-dense} saves (the command line's own
     * code, run in this JVM): its {@code lexical} and {@code manifest} checksums must equal a live index's.
     */
    static IndexDigest cliIndexDigest(Path root, Path dir) {
        int exit = dev.neuraltext.cli.NeuralTextCli.run("index", root.toString(), "--index", dir.toString(),
                "--no-dense");
        if (exit != 0) {
            throw new AssertionError("neural-text index exited with " + exit);
        }
        dev.neuraltext.store.InMemoryCaseStore.Builder b = dev.neuraltext.store.InMemoryCaseStore.builder();
        try (dev.neuraltext.store.InMemoryCaseStore store = b.load(dir, b.fingerprintAsSaved(dir))) {
            dev.neuraltext.ingest.IndexManifest manifest = dev.neuraltext.ingest.IndexManifest.fromBytes(
                    store.loadedAttachment(LiveIndex.MANIFEST_FILE).orElseThrow(), dir.toString());
            return IndexDigest.of(store, manifest);
        }
    }

    /** The resident memory of a process in KiB (Linux), or -1. */
    static long rssKib(ProcessHandle p) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * A fresh index of {@code root} built in this JVM by the code the server runs on a folder without an index (the
     * incremental indexer from nothing, then the dense backfill, as {@code neural-text index} does), with the same
     * embedder; searched through the server's own tool handlers.
     */
    static final class FreshIndex implements AutoCloseable {
        private final LiveIndex live;
        private final Map<String, SyncToolSpecification> tools = new java.util.HashMap<>();

        FreshIndex(Path root, Path indexDir) throws InterruptedException {
            live = new LiveIndex(root, indexDir, DirectoryIngestor.builder(root).build(), HashingMcpServer::embedder,
                    m -> { }, Duration.ofDays(1));
            live.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (true) {
                LiveIndex.Status s = live.status();
                if (s.phase() == LiveIndex.Phase.READY && s.lastUpdated() != null && s.denseLoaded()
                        && s.coverage().lacking() == 0) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the fresh index of " + root + " was not ready in 300 s: " + s);
                }
                Thread.sleep(20);
            }
            for (SyncToolSpecification t : new McpTools(live, JSON).specifications()) {
                tools.put(t.tool().name(), t);
            }
        }

        IndexDigest digest() {
            return live.digest();
        }

        dev.neuraltext.ingest.IndexManifest manifest() {
            return live.manifest();
        }

        McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
            return tools.get(tool).callHandler().apply(null, new McpSchema.CallToolRequest(tool, args));
        }

        @Override
        public void close() {
            live.close();
        }
    }
}
