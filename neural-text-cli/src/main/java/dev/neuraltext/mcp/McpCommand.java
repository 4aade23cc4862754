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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code neural-text mcp [folder] [--root folder ...]}: a Model Context Protocol server on stdio (the official Java SDK)
 * whose tools search a live index of each folder ({@link LiveIndex}, {@link ServedRoots}, {@link McpTools}); with
 * {@code --print-config CLIENT} it prints the client configuration that starts it instead ({@link ClientConfig}).
 * Stdout carries only protocol messages:
 * logs and notes go to stderr (and to the client as log notifications), and {@code System.out} is redirected to
 * stderr for the server's lifetime so that no library can corrupt the protocol. Runs until the client closes stdin.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve folders to AI assistants over the Model Context Protocol (stdio): tools search, get, "
                + "find_related, status and reindex over a live index of each folder.",
            "Opens the saved index (FOLDER/.neural-text) or builds it: BM25 first, dense vectors in the background. "
                    + "Searches re-index changed files first (checked at most every --check-interval). With several "
                    + "folders, every path in an answer starts with its folder's name.",
            "--print-config CLIENT prints the configuration that makes a client start this server with these "
                    + "folders and options, instead of serving."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the client closed the connection", "1:the server failed", "2:bad input (missing folder)"})
public final class McpCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(McpCommand.class);
    private static final long DEFAULT_CHECK_INTERVAL_MILLIS = 2000;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FOLDER",
            description = "The folder to serve (default: the current folder, unless --root gives folders).")
    Path folder;

    @Option(names = "--root", paramLabel = "FOLDER", description = "A folder to serve; repeatable: each has its own "
            + "index (FOLDER/.neural-text) and lock, and searches answer from all of them in one ranking.")
    List<Path> roots = new ArrayList<>();

    @Option(names = "--index", paramLabel = "DIR", description = "Index folder (default: FOLDER/.neural-text); "
            + "only with one folder.")
    Path index;

    @Option(names = "--include", paramLabel = "GLOB", description = "Only files matching one of these globs, as "
            + "`neural-text index --include` reads them; repeatable.")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "GLOB", description = "Skip files and folders matching these globs, as "
            + "`neural-text index --exclude` reads them; repeatable. A .neural-textignore file (gitignore syntax) in a "
            + "folder is honoured too.")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--with-tests", description = "Index test sources too (src/test/**, *Test.java, ...): "
            + "find_related then lists tests.")
    boolean withTests;

    @Option(names = "--print-config", paramLabel = "CLIENT", description = "Print the configuration snippet for "
            + "CLIENT (claude-code, claude-desktop, cursor, vscode, codex) that starts this server with these folders "
            + "and options, say on stderr where it goes, and exit.")
    String printConfig;

    @Option(names = "--no-dense", description = "Do not load the dense model: keyword (BM25) search only; an index "
            + "keeps the dense vectors it has.")
    boolean noDense;

    @Option(names = "--model", paramLabel = "<preset>", description = DenseModel.MODEL_HELP
            + " Without it: the saved index's own preset, else the default.")
    String model;

    @Option(names = "--check-interval", paramLabel = "MILLIS", defaultValue = "" + DEFAULT_CHECK_INTERVAL_MILLIS,
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
        List<Path> folders = new ArrayList<>();
        if (folder != null) {
            folders.add(folder);
        }
        folders.addAll(roots);
        if (folders.isEmpty()) {
            folders.add(Path.of("."));
        }
        List<Path> served = new ArrayList<>();
        for (Path f : folders) {
            Path root = f.toAbsolutePath().normalize();
            if (!Files.isDirectory(root)) {
                System.err.println("neural-text mcp: not a folder: " + f);
                return 2;
            }
            if (served.contains(root)) {
                System.err.println("neural-text mcp: the folder " + root + " is given twice");
                return 2;
            }
            served.add(root);
        }
        if (index != null && served.size() > 1) {
            System.err.println("neural-text mcp: --index names one index folder, but " + served.size() + " folders "
                    + "are served: drop --index (each folder keeps its index in FOLDER/.neural-text)");
            return 2;
        }
        if (checkIntervalMillis < 0) {
            System.err.println("neural-text mcp: --check-interval must be >= 0, got " + checkIntervalMillis);
            return 2;
        }
        List<String> include = globs(includes);
        List<String> exclude = globs(excludes);
        try {
            include.forEach(dev.neuraltext.path.PathGlob::of);
            exclude.forEach(dev.neuraltext.path.PathGlob::of);
        } catch (IllegalArgumentException e) {
            System.err.println("neural-text mcp: " + e.getMessage());
            return 2;
        }
        if (printConfig != null) {
            return printConfig(served, include, exclude);
        }
        Path dir = index != null ? index.toAbsolutePath().normalize() : served.get(0).resolve(".neural-text");
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
            return serve(served, dir, include, exclude, protocolOut);
        } catch (RuntimeException e) {
            System.err.println("neural-text mcp: " + e.getMessage());
            LOG.debug("server failure", e);
            return 1;
        } finally {
            System.setOut(protocolOut);
        }
    }

    private int serve(List<Path> served, Path firstIndex, List<String> include, List<String> exclude,
            PrintStream protocolOut) {
        List<DirectoryIngestor> ingestors = new ArrayList<>();
        for (Path root : served) {
            try {
                ingestors.add(DirectoryIngestor.builder(root).include(include).exclude(exclude).withTests(withTests)
                        .build());
            } catch (IllegalArgumentException e) {
                System.err.println("neural-text mcp: " + e.getMessage());
                return 2;
            }
        }
        io.modelcontextprotocol.json.McpJsonMapper json = io.modelcontextprotocol.json.McpJsonDefaults.getMapper();
        CountDownLatch stdinClosed = new CountDownLatch(1);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(json,
                new EndSignallingInput(System.in, stdinClosed), protocolOut);
        ClientLog clientLog = new ClientLog(transport);
        List<String> names = ServedRoots.names(served);
        SharedModel model = noDense ? null : new SharedModel(modelLoader != null ? modelLoader : this::loadModel);
        List<ServedRoots.Root> live = new ArrayList<>();
        try {
            for (int i = 0; i < served.size(); i++) {
                Path root = served.get(i);
                String name = names.get(i);
                live.add(new ServedRoots.Root(name, new LiveIndex(root, i == 0 ? firstIndex
                        : root.resolve(".neural-text"), ingestors.get(i), model == null ? null : model::share,
                        served.size() == 1 ? clientLog : m -> clientLog.accept(name + ": " + m),
                        Duration.ofMillis(checkIntervalMillis))));
            }
            try (ServedRoots all = new ServedRoots(live)) {
                // each opens its saved index before the first request can arrive; the builds run on their workers
                all.all().forEach(r -> r.index().start());
                McpSyncServer server = McpServer.sync(transport)
                        .serverInfo("neural-text", "0.1.0-SNAPSHOT")
                        .instructions("Search the code and docs of " + String.join(", ", names) + " with `search` "
                                + "(identifiers or questions), read exact lines with `get`, find the code that "
                                + "belongs with a file or definition (its callers, tests, docs) with `find_related`, "
                                + "check the index with `status`." + (served.size() > 1 ? " Paths start with the "
                                + "folder's name." : ""))
                        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).logging().build())
                        .tools(new McpTools(all, json).specifications())
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
        } finally {
            if (model != null) {
                model.close();
            }
        }
        return 0;
    }

    /** {@code --print-config}: the snippet on stdout, where it goes on stderr. */
    private int printConfig(List<Path> served, List<String> include, List<String> exclude) {
        List<String> args = new ArrayList<>();
        for (Path root : served) {
            args.add("--root");
            args.add(root.toString());
        }
        if (index != null) {
            args.add("--index");
            args.add(index.toAbsolutePath().normalize().toString());
        }
        include.forEach(g -> args.addAll(List.of("--include", g)));
        exclude.forEach(g -> args.addAll(List.of("--exclude", g)));
        if (withTests) {
            args.add("--with-tests");
        }
        if (noDense) {
            args.add("--no-dense");
        }
        if (model != null) {
            args.addAll(List.of("--model", model));
        }
        if (checkIntervalMillis != DEFAULT_CHECK_INTERVAL_MILLIS) {
            args.addAll(List.of("--check-interval", Long.toString(checkIntervalMillis)));
        }
        ClientConfig config;
        try {
            config = ClientConfig.of(printConfig, ClientConfig.launcher(), args);
        } catch (IllegalArgumentException e) {
            System.err.println("neural-text mcp: " + e.getMessage());
            return 2;
        }
        System.out.print(config.text());
        System.out.flush();
        System.err.println("neural-text mcp: " + config.where());
        return 0;
    }

    /** Each option value is a list of globs, split on the commas outside braces, as {@code index} splits them. */
    private static List<String> globs(List<String> optionValues) {
        return optionValues.stream().flatMap(v -> DirectoryIngestor.splitGlobList(v).stream()).toList();
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

    /**
     * The dense model of every root, loaded once (by the first root's worker that asks) and closed once, when the
     * server ends: each live index gets the same instance behind a view that ignores its close.
     */
    private static final class SharedModel implements AutoCloseable {
        private final java.util.function.Supplier<Embedder> loader;
        private Embedder loaded;
        private boolean tried;

        SharedModel(java.util.function.Supplier<Embedder> loader) {
            this.loader = loader;
        }

        synchronized Embedder share() {
            if (!tried) {
                tried = true;
                loaded = loader.get();
            }
            Embedder e = loaded;
            return e == null ? null : new Embedder() {
                @Override
                public int dimension() {
                    return e.dimension();
                }

                @Override
                public String modelId() {
                    return e.modelId();
                }

                @Override
                public List<float[]> embed(List<String> texts, dev.neuraltext.encode.TextRole role) {
                    return e.embed(texts, role);
                }
            };
        }

        @Override
        public synchronized void close() {
            if (loaded instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception ex) {
                    LOG.warn("closing the dense model failed: {}", ex.toString());
                }
            }
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
