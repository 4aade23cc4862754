package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

public class ClientConfigTest {

    @TempDir
    Path tmp;

    /** The command and arguments a printed snippet names, read with Jackson (JSON) or {@link TomlSnippet}. */
    public static List<String> commandLine(String client, String printed) throws IOException {
        List<String> out = new ArrayList<>();
        if (client.equals("codex")) {
            Map<String, Object> server = TomlSnippet.parse(printed).get("mcp_servers.neural-text");
            assertThat(server).as(printed).isNotNull().containsOnlyKeys("command", "args");
            out.add((String) server.get("command"));
            @SuppressWarnings("unchecked")
            List<String> args = (List<String>) server.get("args");
            out.addAll(args);
            return out;
        }
        JsonNode root = new ObjectMapper().readTree(printed);
        String top = client.equals("vscode") ? "servers" : "mcpServers";
        assertThat(root.fieldNames()).toIterable().containsExactly(top);
        JsonNode server = root.path(top).path("neural-text");
        assertThat(server.isObject()).as(printed).isTrue();
        if (client.equals("vscode") || client.equals("claude-code")) {
            assertThat(server.path("type").asText()).isEqualTo("stdio");
        } else {
            assertThat(server.has("type")).isFalse();
        }
        out.add(server.path("command").asText());
        server.path("args").forEach(a -> out.add(a.asText()));
        return out;
    }

    @Test
    void everyClientsSnippetParsesToTheSameCommandLineEvenWithAwkwardPaths() throws IOException {
        List<String> args = List.of("--root", "/work/my \"repo\"", "--root", "C:\\Users\\me\\code", "--no-dense");
        for (String client : ClientConfig.CLIENTS) {
            ClientConfig c = ClientConfig.of(client, List.of("/opt/neural text/bin/neural-text"), args);
            List<String> expected = new ArrayList<>(List.of("/opt/neural text/bin/neural-text", "mcp"));
            expected.addAll(args);
            assertThat(commandLine(client, c.text())).as(client).isEqualTo(expected);
            assertThat(c.where()).isNotBlank();
        }
        ClientConfig viaJava = ClientConfig.of("codex", List.of("/jdk/bin/java", "-jar", "/x/neural-text.jar"),
                List.of("--root", "/r"));
        assertThat(commandLine("codex", viaJava.text()))
                .containsExactly("/jdk/bin/java", "-jar", "/x/neural-text.jar", "mcp", "--root", "/r");
        assertThat(ClientConfig.tomlString("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001\"");
        assertThatThrownBy(() -> ClientConfig.of("emacs", List.of("x"), List.of()))
                .hasMessageContaining("unknown client 'emacs'").hasMessageContaining("claude-code, claude-desktop");
    }

    @Test
    void theStrictTomlReaderRejectsWhatIsNotToml() {
        assertThatThrownBy(() -> TomlSnippet.parse("[a]\nx = 'single'\n")).hasMessageContaining("line 2");
        assertThatThrownBy(() -> TomlSnippet.parse("[a]\nx = \"1\"\nx = \"2\"\n")).hasMessageContaining("twice");
        assertThatThrownBy(() -> TomlSnippet.parse("[a]\nx = [\"1\" \"2\"]\n")).hasMessageContaining("expected ,");
        assertThat(TomlSnippet.parse("# c\n[a.b-c]\nx = [\"\\u00e9\", \"q\"] # note\ny = true\n"))
                .containsEntry("a.b-c", Map.of("x", List.of("é", "q"), "y", true));
    }

    private record Run(int code, String out, String err) {
    }

    private static synchronized Run mcp(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = new CommandLine(new McpCommand()).execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void printConfigNamesTheRootsAndOptionsAndServesNothing() throws IOException {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        Run r = mcp("--print-config", "vscode", "--root", a.toString(), "--root", b.toString(), "--with-tests",
                "--exclude", "build/,*.log", "--no-dense");
        assertThat(r.code()).as(r.err()).isZero();
        List<String> line = commandLine("vscode", r.out());
        assertThat(line.subList(line.indexOf("mcp"), line.size())).containsExactly("mcp", "--root", a.toString(),
                "--root", b.toString(), "--exclude", "build/", "--exclude", "*.log", "--with-tests", "--no-dense");
        assertThat(r.err()).contains(".vscode/mcp.json");
        assertThat(a.resolve(".neural-text")).as("nothing indexed").doesNotExist();

        Run unknown = mcp("--print-config", "emacs", "--root", a.toString());
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown client 'emacs'");
        Run twoWithIndex = mcp("--root", a.toString(), "--root", b.toString(), "--index", tmp.resolve("i").toString());
        assertThat(twoWithIndex.code()).isEqualTo(2);
        assertThat(twoWithIndex.err()).contains("--index names one index folder");
        Run twice = mcp(a.toString(), "--root", a.toString());
        assertThat(twice.code()).isEqualTo(2);
        assertThat(twice.err()).contains("given twice");
    }
}
