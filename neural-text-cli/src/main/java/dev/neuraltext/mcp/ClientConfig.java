package dev.neuraltext.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code neural-text mcp --print-config CLIENT} prints: the entry that makes an MCP client start this server, in
 * the client's own format, and where it goes ({@link #where()}, said on stderr so that stdout parses).
 *
 * <table>
 *   <caption>Clients</caption>
 *   <tr><th>client</th><th>file</th><th>shape</th></tr>
 *   <tr><td>{@code claude-code}</td><td>{@code .mcp.json} at the project root</td>
 *       <td>{@code {"mcpServers": {"neural-text": {"type": "stdio", "command", "args"}}}}</td></tr>
 *   <tr><td>{@code claude-desktop}</td><td>{@code claude_desktop_config.json}</td>
 *       <td>{@code {"mcpServers": {"neural-text": {"command", "args"}}}}</td></tr>
 *   <tr><td>{@code cursor}</td><td>{@code .cursor/mcp.json} (project) or {@code ~/.cursor/mcp.json}</td>
 *       <td>as Claude Desktop</td></tr>
 *   <tr><td>{@code vscode}</td><td>{@code .vscode/mcp.json}</td>
 *       <td>{@code {"servers": {"neural-text": {"type": "stdio", "command", "args"}}}}</td></tr>
 *   <tr><td>{@code codex}</td><td>{@code ~/.codex/config.toml}</td>
 *       <td>a {@code [mcp_servers.neural-text]} table with {@code command} and {@code args}</td></tr>
 * </table>
 *
 * @param client  the client id
 * @param command the program the client starts (the installed launcher, or {@code java})
 * @param args    its arguments ({@code mcp}, the roots and the server options)
 */
record ClientConfig(String client, String command, List<String> args) {

    /** The clients, in the order help lists them. */
    static final List<String> CLIENTS = List.of("claude-code", "claude-desktop", "cursor", "vscode", "codex");
    /** The server's name in every client's configuration. */
    static final String SERVER_NAME = "neural-text";

    ClientConfig {
        if (!CLIENTS.contains(client)) {
            throw new IllegalArgumentException("--print-config: unknown client '" + client + "', expected one of "
                    + String.join(", ", CLIENTS));
        }
        args = List.copyOf(args);
    }

    /**
     * The configuration that starts this installation's server: {@code launcher} is how this program was started
     * ({@code bin/neural-text}, {@code java -jar JAR} or {@code neural-text}), made absolute where it is a path.
     */
    static ClientConfig of(String client, List<String> launcher, List<String> serverArgs) {
        List<String> args = new ArrayList<>(launcher.subList(1, launcher.size()));
        args.add("mcp");
        args.addAll(serverArgs);
        return new ClientConfig(client, launcher.get(0), args);
    }

    /** The snippet, exactly as the client's file takes it. */
    String text() {
        if (client.equals("codex")) {
            StringBuilder t = new StringBuilder("[mcp_servers." + SERVER_NAME + "]\n");
            t.append("command = ").append(tomlString(command)).append('\n');
            t.append("args = [");
            for (int i = 0; i < args.size(); i++) {
                t.append(i == 0 ? "" : ", ").append(tomlString(args.get(i)));
            }
            return t.append("]\n").toString();
        }
        Map<String, Object> server = new LinkedHashMap<>();
        if (client.equals("vscode") || client.equals("claude-code")) {
            server.put("type", "stdio");
        }
        server.put("command", command);
        server.put("args", args);
        Map<String, Object> root = Map.of(client.equals("vscode") ? "servers" : "mcpServers",
                Map.of(SERVER_NAME, server));
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the configuration: " + e.getMessage(), e);
        }
    }

    /** Where the snippet goes, for stderr. */
    String where() {
        return switch (client) {
            case "claude-code" -> "put this in .mcp.json at the project's root (or run: claude mcp add " + SERVER_NAME
                    + " -- " + String.join(" ", shellWords()) + ")";
            case "claude-desktop" -> "merge this into claude_desktop_config.json (Settings > Developer > Edit Config) "
                    + "and restart Claude Desktop";
            case "cursor" -> "put this in .cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project";
            case "vscode" -> "put this in .vscode/mcp.json in the workspace";
            case "codex" -> "append this to ~/.codex/config.toml";
            default -> throw new IllegalStateException(client);
        };
    }

    private List<String> shellWords() {
        List<String> words = new ArrayList<>();
        words.add(command);
        words.addAll(args);
        return words.stream().map(w -> w.matches("[\\w@%+=:,./-]+") ? w : "'" + w.replace("'", "'\\''") + "'")
                .toList();
    }

    /** A TOML basic string: quotes, backslashes and control characters escaped. */
    static String tomlString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /**
     * How this program is started, as a command line: the installed launcher ({@code app.home}/bin/{@code app.name},
     * which the launcher sets), else this Java runtime with {@code -jar} and the jar it runs from, else
     * {@code neural-text} (on the {@code PATH}). Paths are absolute, as a client starts the server from anywhere.
     */
    static List<String> launcher() {
        String home = System.getProperty("app.home");
        String name = System.getProperty("app.name");
        if (home != null && name != null) {
            boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
            return List.of(Path.of(home, "bin", windows ? name + ".bat" : name).toAbsolutePath().normalize()
                    .toString());
        }
        try {
            Path jar = Path.of(ClientConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (jar.toString().endsWith(".jar")) {
                return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                        jar.toAbsolutePath().normalize().toString());
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // not run from a jar: the name on the PATH
        }
        return List.of(SERVER_NAME);
    }
}
