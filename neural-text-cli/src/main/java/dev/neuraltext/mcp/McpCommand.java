package dev.neuraltext.mcp;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.cli.install.ModelJars;
import dev.neuraltext.cli.model.DenseModel;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.store.InMemoryCaseStore;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code neural-text mcp [folder]}: a Model Context Protocol server on stdio (the official Java SDK) whose tools
 * search a live index of the folder ({@link LiveIndex}, {@link McpTools}). Stdout carries only protocol messages:
 * logs and notes go to stderr (and to the client as log notifications), and {@code System.out} is redirected to
 * stderr for the server's lifetime so that no library can corrupt the protocol. Runs until the client closes stdin.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve a folder to AI assistants over the Model Context Protocol (stdio): tools search, get, "
                + "status and reindex over a live index.",
            "Opens the saved index (FOLDER/.neural-text) or builds it: BM25 first, dense vectors in the background. "
                    + "Searches re-index changed files first (checked at most every --check-interval)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the client closed the connection", "1:the server failed", "2:bad input (missing folder)"})
public final class McpCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(McpCommand.class);

    @Parameters(index = "0", arity = "0..1", paramLabel = "FOLDER", defaultValue = ".",
            description = "The folder to serve (default: the current folder).")
    Path folder;

    @Option(names = "--index", paramLabel = "DIR", description = "Index folder (default: FOLDER/.neural-text).")
    Path index;

    @Option(names = "--no-dense", description = "Do not load the dense model: keyword (BM25) search only; an index "
            + "keeps the dense vectors it has.")
    boolean noDense;

    @Option(names = "--model", paramLabel = "<preset>", description = DenseModel.MODEL_HELP
            + " Without it: the saved index's own preset, else the default.")
    String model;

    @Option(names = "--check-interval", paramLabel = "MILLIS", defaultValue = "2000",
            description = "At most one staleness check (file sizes and times) per this many ms (default: "
                    + "${DEFAULT-VALUE}).")
    long checkIntervalMillis;

    private String preset;

    /**
     * The dense model to use instead of the preset's ONNX model (null: the preset). Set by tests that need a fast,
     * deterministic embedder in a real server process; not an option a user sees.
     */
    java.util.function.Supplier<Embedder> modelLoader;

    @Override
    public Integer call() {
        Path root = folder.toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            System.err.println("neural-text mcp: not a folder: " + folder);
            return 2;
        }
        if (checkIntervalMillis < 0) {
            System.err.println("neural-text mcp: --check-interval must be >= 0, got " + checkIntervalMillis);
            return 2;
        }
        Path dir = index != null ? index.toAbsolutePath().normalize() : root.resolve(".neural-text");
        try {
            preset = DenseModel.checkPreset(model);
        } catch (RuntimeException e) { // an unknown preset: the message names it and the known ones
            System.err.println("neural-text mcp: " + e.getMessage());
            return 2;
        }
        Optional<String> notInstalled = preset == null || noDense ? Optional.empty() : ModelJars.missing(preset, null);
        if (notInstalled.isPresent()) { // a model asked for by name: say what to add rather than serve BM25 alone
            System.err.println("neural-text mcp: " + notInstalled.get());
            return 1;
        }
        if (preset == null) {
            preset = savedPreset(dir).orElse(DenseModel.DEFAULT_MODEL);
        }
        PrintStream protocolOut = System.out;
        System.setOut(System.err);
        try {
            return serve(root, dir, protocolOut);
        } catch (RuntimeException e) {
            System.err.println("neural-text mcp: " + e.getMessage());
            LOG.debug("server failure", e);
            return 1;
        } finally {
            System.setOut(protocolOut);
        }
    }

    private int serve(Path root, Path dir, PrintStream protocolOut) {
        DirectoryIngestor ingestor;
        try {
            ingestor = DirectoryIngestor.builder(root).build();
        } catch (IllegalArgumentException e) {
            System.err.println("neural-text mcp: " + e.getMessage());
            return 2;
        }
        io.modelcontextprotocol.json.McpJsonMapper json = io.modelcontextprotocol.json.McpJsonDefaults.getMapper();
        CountDownLatch stdinClosed = new CountDownLatch(1);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(json,
                new EndSignallingInput(System.in, stdinClosed), protocolOut);
        ClientLog clientLog = new ClientLog(transport);
        try (LiveIndex live = new LiveIndex(root, dir, ingestor,
                noDense ? null : modelLoader != null ? modelLoader : this::loadModel, clientLog,
                Duration.ofMillis(checkIntervalMillis))) {
            live.start(); // opens the saved index before the first request can arrive; the build runs on
            McpSyncServer server = McpServer.sync(transport)
                    .serverInfo("neural-text", "0.1.0-SNAPSHOT")
                    .instructions("Search the code and docs of " + root.getFileName() + " with `search` (identifiers "
                            + "or questions), read exact lines with `get`, check the index with `status`.")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).logging().build())
                    .tools(new McpTools(live, json).specifications())
                    // one request at a time, on the thread that reads stdin: the SDK's stdio transport emits each
                    // answer into a sink that gives up after 100 ms of contention, so tool calls answered on many
                    // threads at once (an assistant's parallel searches) lost answers and then the whole session
                    // (500 pipelined calls: 72 answered); in order, every answer gets out
                    .immediateExecution(true)
                    .build();
            clientLog.ready();
            try {
                stdinClosed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server.closeGracefully();
        }
        return 0;
    }

    /** The preset of the dense vectors saved in {@code dir}, if there is an index built with one. */
    private static Optional<String> savedPreset(Path dir) {
        try {
            if (InMemoryCaseStore.exists(dir)) {
                String denseModel = InMemoryCaseStore.readFingerprint(dir).denseModel();
                return denseModel.isEmpty() ? Optional.empty() : DenseModel.presetOf(denseModel);
            }
        } catch (RuntimeException e) {
            LOG.debug("cannot read the saved index's fingerprint in {}; using the default model", dir, e);
        }
        return Optional.empty();
    }

    private Embedder loadModel() {
        try {
            return ModelJars.load(preset);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("note: the dense model could not be loaded (" + e.getMessage()
                    + "); searching with BM25 only");
            return null;
        }
    }

    /** Notes for the client: on stderr at once, and as MCP log notifications (held until the session is up). */
    private static final class ClientLog implements java.util.function.Consumer<String> {
        private final StdioServerTransportProvider transport;
        private final java.util.List<String> held = new java.util.ArrayList<>();
        private boolean ready;

        ClientLog(StdioServerTransportProvider transport) {
            this.transport = transport;
        }

        synchronized void ready() {
            ready = true;
            held.forEach(this::send);
            held.clear();
        }

        @Override
        public synchronized void accept(String message) {
            System.err.println("neural-text mcp: " + message);
            if (ready) {
                send(message);
            } else {
                held.add(message);
            }
        }

        private void send(String message) {
            transport.notifyClients(McpSchema.METHOD_NOTIFICATION_MESSAGE,
                    new McpSchema.LoggingMessageNotification(McpSchema.LoggingLevel.INFO, "neural-text", message))
                    .onErrorResume(e -> reactor.core.publisher.Mono.empty()).subscribe();
        }
    }

    /** Stdin that counts the latch down at its end: the client has gone. */
    private static final class EndSignallingInput extends FilterInputStream {
        private final CountDownLatch end;

        EndSignallingInput(InputStream in, CountDownLatch end) {
            super(in);
            this.end = end;
        }

        @Override
        public int read() throws IOException {
            return signal(super.read());
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return signal(super.read(b, off, len));
            } catch (IOException e) {
                end.countDown();
                throw e;
            }
        }

        private int signal(int n) {
            if (n < 0) {
                end.countDown();
            }
            return n;
        }
    }
}
