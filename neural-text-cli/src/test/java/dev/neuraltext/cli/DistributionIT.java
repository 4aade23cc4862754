package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.cli.install.ModelJars;
import dev.neuraltext.onnx.EmbeddingPreset;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installable tool as a user gets it: {@code neural-text-<version>.tar.gz} (built by {@code package}) unpacked
 * with {@code tar} into a temporary folder outside the build tree, then {@code bin/neural-text demo}, {@code index},
 * {@code search} and an MCP session run from there, each a separate process started through the generated launcher
 * (the MCP one by the SDK's own client, as {@code McpServerIT} does with the jar). The zip must hold the same layout.
 * The installation is lean (the default and the static model only, at most {@value #MAX_MIB} MiB unpacked), and a
 * preset it lacks is one jar copied into its {@code models/} folder, as the error for the missing jar says.
 */
class DistributionIT {

    private static final Path BUILD = Path.of(System.getProperty("nt.buildDirectory", "target")).toAbsolutePath();
    /** The unpacked installation's size limit (issue 37: at most 150 MB; 447 MiB before). */
    static final long MAX_MIB = 150;

    @TempDir
    Path tmp;

    @Test
    void theUnpackedDistributionIndexesSearchesAndServesMcpFromOutsideTheBuildTree() throws Exception {
        Path archive = only(BUILD, ".tar.gz");
        String folder = archive.getFileName().toString().replace(".tar.gz", "");
        assertThat(tmp.toAbsolutePath().startsWith(BUILD.getParent().getParent()))
                .as("the temporary folder %s is outside the build tree", tmp).isFalse();

        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", tmp.toString())
                .redirectErrorStream(true).start();
        assertThat(tar.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).as(new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
        Path home = tmp.resolve(folder);
        Path launcher = home.resolve("bin/neural-text");
        assertThat(launcher).isExecutable();
        assertThat(home.resolve("bin/neural-text.bat")).isRegularFile();
        assertThat(home.resolve("README.md")).isRegularFile();
        assertThat(home.resolve("LICENSE")).isRegularFile();
        assertThat(home.resolve("models/README.txt")).isRegularFile();
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            List<String> names = jars.map(p -> p.getFileName().toString()).toList();
            assertThat(names).anyMatch(n -> n.startsWith("neural-text-cli-")).anyMatch(n -> n.startsWith("picocli-"))
                    .anyMatch(n -> n.startsWith("slf4j-simple-")).anyMatch(n -> n.startsWith("neural-text-static-model-"))
                    .contains(EmbeddingPreset.byId(ModelJars.BUNDLED_PRESET).jarName());
            for (EmbeddingPreset p : EmbeddingPreset.values()) {
                if (!p.id().equals(ModelJars.BUNDLED_PRESET)) {
                    assertThat(names).as("lib/ of a lean installation").doesNotContain(p.jarName());
                }
            }
        }
        long bytes;
        try (Stream<Path> files = Files.walk(home)) {
            bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        assertThat(bytes).as("unpacked size in bytes").isLessThanOrEqualTo(MAX_MIB << 20);
        try (ZipFile zip = new ZipFile(only(BUILD, ".zip").toFile())) {
            for (String entry : List.of("bin/neural-text", "bin/neural-text.bat", "README.md", "LICENSE",
                    "models/README.txt")) {
                assertThat(zip.getEntry(folder + "/" + entry)).as("zip entry %s/%s", folder, entry).isNotNull();
            }
        }

        Path demoProject = CliFixture.tree(tmp.resolve("demo"));
        Run demo = run(launcher, "demo", demoProject.toString(), "backoffDelay", "--limit", "2");
        assertThat(demo.exitCode()).as(demo.output()).isZero();
        assertThat(demo.output()).contains("RetryPolicy.backoffDelay  (method)")
                .contains("Ask more: " + tmp.relativize(launcher) + " search");

        Path project = CliFixture.tree(tmp.resolve("proj"));
        Run index = run(launcher, "index", project.toString());
        assertThat(index.exitCode()).as(index.output()).isZero();
        assertThat(index.output()).contains("dense");

        Run search = run(launcher, "search", "backoffDelay", "--index", project.resolve(".neural-text").toString(),
                "--limit", "2");
        assertThat(search.exitCode()).as(search.output()).isZero();
        assertThat(search.output()).contains(" 1. src/main/java/com/acme/retry/RetryPolicy.java:18  "
                + "RetryPolicy.backoffDelay  (method)");

        anotherPresetIsOneJarInTheModelsFolder(home, launcher);

        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(launcher.toString())
                .args("mcp", project.toString(), "--no-dense", "--check-interval", "300")
                .env(Map.of("JAVA_HOME", System.getProperty("java.home"))).build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> { });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build();
        try {
            client.initialize();
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
                    .containsExactly("search", "get", "status", "reindex", "find_related");
            awaitReady(client);
            McpSchema.CallToolResult hit = client.callTool(new McpSchema.CallToolRequest("search",
                    Map.of("query", "backoffDelay")));
            assertThat(hit.isError()).isFalse();
            assertThat(((McpSchema.TextContent) hit.content().get(0)).text())
                    .startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java:");
        } finally {
            client.close();
            transport.awaitForExit();
        }
        printedConfigsParseAndStartTheServerTheyName(launcher, project);
    }

    /**
     * {@code mcp --print-config CLIENT} for every client: stdout parses (JSON with Jackson, Codex's TOML with the strict
     * {@link dev.neuraltext.mcp.TomlSnippet}), names the installed launcher and the root, and the command line it names,
     * started by the SDK's client as that client would, serves the root.
     */
    private void printedConfigsParseAndStartTheServerTheyName(Path launcher, Path project) throws Exception {
        for (String client : List.of("claude-code", "claude-desktop", "cursor", "vscode", "codex")) {
            ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "mcp", "--print-config", client,
                    "--root", project.toString(), "--no-dense").directory(tmp.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            Process p = builder.start();
            String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(printed).isZero();
            List<String> line = dev.neuraltext.mcp.ClientConfigTest.commandLine(client, printed);
            assertThat(Path.of(line.get(0)).toRealPath()).as(client).isEqualTo(launcher.toRealPath());
            assertThat(line.subList(1, line.size())).as(client)
                    .containsExactly("mcp", "--root", project.toAbsolutePath().normalize().toString(), "--no-dense");
            StdioClientTransport started = new StdioClientTransport(ServerParameters.builder(line.get(0))
                    .args(line.subList(1, line.size())).env(Map.of("JAVA_HOME", System.getProperty("java.home")))
                    .build(), McpJsonDefaults.getMapper());
            started.setStdErrorHandler(l -> { });
            McpSyncClient c = McpClient.sync(started).requestTimeout(Duration.ofSeconds(60))
                    .initializationTimeout(Duration.ofSeconds(60)).build();
            try {
                c.initialize();
                assertThat(c.listTools().tools()).extracting(McpSchema.Tool::name).as(client).contains("find_related");
                McpSchema.CallToolResult status = c.callTool(new McpSchema.CallToolRequest("status", Map.of()));
                assertThat(((Map<?, ?>) status.structuredContent()).get("root")).as(client)
                        .isEqualTo(project.toAbsolutePath().normalize().toString());
            } finally {
                c.close();
                started.awaitForExit();
            }
        }
    }

    /**
     * all-minilm-l6-v2-q is not bundled: index, mcp and eval's peer stop and name the jar, the folder and a command;
     * the jar (taken from this test's class path, where Maven put it) named in CLASSPATH_PREFIX, or copied into
     * models/, makes it load.
     */
    private void anotherPresetIsOneJarInTheModelsFolder(Path home, Path launcher) throws Exception {
        EmbeddingPreset preset = EmbeddingPreset.ALL_MINILM_L6_V2_Q;
        String models = home.resolve(ModelJars.MODELS_FOLDER).toString();
        Path project = CliFixture.tree(tmp.resolve("other-model"));
        Run missing = run(launcher, "index", project.toString(), "--model", preset.id());
        assertThat(missing.exitCode()).as(missing.output()).isEqualTo(1);
        assertThat(missing.output()).contains("the dense model '" + preset.id() + "' is not part of this installation")
                .contains("put its jar " + preset.jarName()).contains("into " + models)
                .contains("mvn dependency:copy -Dartifact=" + preset.artifact() + " -DoutputDirectory=" + models);
        assertThat(project.resolve(".neural-text")).as("nothing indexed").doesNotExist();

        Run mcp = run(launcher, "mcp", project.toString(), "--model", preset.id());
        assertThat(mcp.exitCode()).as(mcp.output()).isEqualTo(1);
        assertThat(mcp.output()).contains("put its jar " + preset.jarName()).contains("into " + models);

        Path tiny = BUILD.resolve("test-classes/eval/tiny");
        Run peer = run(launcher, "eval", "--dataset", tiny.toString(), "--no-dense", "--techniques", "none",
                "--peers", "langchain4j-minilm", "--no-cache", "--quiet", "--out", tmp.resolve("report").toString());
        assertThat(peer.exitCode()).as(peer.output()).isEqualTo(1);
        assertThat(peer.output()).contains("the langchain4j-minilm peer needs the dense model 'all-minilm-l6-v2'")
                .contains(EmbeddingPreset.ALL_MINILM_L6_V2.jarName()).contains("into " + models);

        URL resource = EmbeddingPreset.class.getClassLoader().getResource(preset.modelResource());
        Path jar = Path.of(((JarURLConnection) resource.openConnection()).getJarFileURL().toURI());
        assertThat(jar.getFileName().toString()).isEqualTo(preset.jarName());
        // a jar kept elsewhere: named in CLASSPATH_PREFIX (models/README.txt)
        Run prefixed = run(Map.of("CLASSPATH_PREFIX", jar.toString()), launcher, "index", project.toString(),
                "--model", preset.id());
        assertThat(prefixed.exitCode()).as(prefixed.output()).isZero();
        assertThat(prefixed.output()).contains("dense:   " + preset.modelName() + "/mean/256");

        Files.copy(jar, home.resolve(ModelJars.MODELS_FOLDER).resolve(preset.jarName()));
        Path copied = CliFixture.tree(tmp.resolve("copied-model"));
        Run index = run(launcher, "index", copied.toString(), "--model", preset.id());
        assertThat(index.exitCode()).as(index.output()).isZero();
        assertThat(index.output()).contains("dense:   " + preset.modelName() + "/mean/256");
        Run search = run(launcher, "search", "backoffDelay", "--index", copied.resolve(".neural-text").toString(),
                "--limit", "1");
        assertThat(search.exitCode()).as(search.output()).isZero();
        assertThat(search.output()).contains("RetryPolicy.backoffDelay").contains("[bm25 + dense;");
    }

    private record Run(int exitCode, String output) {
    }

    /** Runs the launcher from the temporary folder, with this JVM's Java, output and errors together. */
    private Run run(Path launcher, String... args) throws IOException, InterruptedException {
        return run(Map.of(), launcher, args);
    }

    /** As above, with {@code env} added to the environment. */
    private Run run(Map<String, String> env, Path launcher, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(tmp.toFile()).redirectErrorStream(true);
        builder.environment().remove("CLASSPATH_PREFIX");
        builder.environment().putAll(env);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(300, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static void awaitReady(McpSyncClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            @SuppressWarnings("unchecked")
            Map<String, Object> status = (Map<String, Object>) client.callTool(
                    new McpSchema.CallToolRequest("status", Map.of())).structuredContent();
            if ("ready".equals(status.get("phase")) && status.get("lastUpdated") != null) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the index was not ready within 120 s");
    }

    private static Path only(Path folder, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> found = files.filter(p -> {
                String name = p.getFileName().toString();
                return name.startsWith("neural-text-") && name.endsWith(suffix);
            }).toList();
            assertThat(found).as("one neural-text-<version>%s in %s (built by package)", suffix, folder).hasSize(1);
            return found.get(0);
        }
    }
}
