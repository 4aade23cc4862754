package dev.neuraltext.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of the TOML subset a client snippet may use (no TOML parser is on the class path): comments, blank
 * lines, table headers of bare keys ({@code [mcp_servers.neural-text]}), and {@code key = value} where the value is a
 * basic string (every TOML escape: {@code \" \\ \b \t \n \f \r \\uXXXX \\UXXXXXXXX}) or a one-line array of them,
 * {@code true}/{@code false} or an integer. Anything else, a duplicate key or a raw control character, fails with the
 * line. Returns {@code table path -> key -> value} (a {@code String}, {@code List<String>}, {@code Boolean} or
 * {@code Long}).
 */
public final class TomlSnippet {

    private TomlSnippet() {
    }

    public static Map<String, Map<String, Object>> parse(String toml) {
        Map<String, Map<String, Object>> tables = new LinkedHashMap<>();
        Map<String, Object> current = tables.computeIfAbsent("", k -> new LinkedHashMap<>());
        String[] lines = toml.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[")) {
                if (!line.matches("\\[[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*]")) {
                    throw new IllegalArgumentException("line " + (n + 1) + ": not a table header: " + line);
                }
                String name = line.substring(1, line.length() - 1);
                if (tables.containsKey(name)) {
                    throw new IllegalArgumentException("line " + (n + 1) + ": table [" + name + "] defined twice");
                }
                current = new LinkedHashMap<>();
                tables.put(name, current);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0 || !line.substring(0, eq).strip().matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("line " + (n + 1) + ": not key = value: " + line);
            }
            String key = line.substring(0, eq).strip();
            Cursor c = new Cursor(line, eq + 1, n + 1);
            Object value = c.value();
            c.end();
            if (current.put(key, value) != null) {
                throw new IllegalArgumentException("line " + (n + 1) + ": key " + key + " given twice");
            }
        }
        return tables;
    }

    private static final class Cursor {
        private final String s;
        private final int line;
        private int i;

        Cursor(String s, int i, int line) {
            this.s = s;
            this.i = i;
            this.line = line;
        }

        void spaces() {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
        }

        void end() {
            spaces();
            if (i < s.length() && s.charAt(i) != '#') {
                throw fail("trailing characters");
            }
        }

        Object value() {
            spaces();
            if (i >= s.length()) {
                throw fail("missing value");
            }
            char ch = s.charAt(i);
            if (ch == '"') {
                return string();
            }
            if (ch == '[') {
                i++;
                List<String> out = new ArrayList<>();
                spaces();
                if (i < s.length() && s.charAt(i) == ']') {
                    i++;
                    return out;
                }
                while (true) {
                    spaces();
                    out.add(string());
                    spaces();
                    if (i < s.length() && s.charAt(i) == ',') {
                        i++;
                        continue;
                    }
                    if (i < s.length() && s.charAt(i) == ']') {
                        i++;
                        return out;
                    }
                    throw fail("expected , or ] in an array");
                }
            }
            String rest = s.substring(i).split("[\\s#]", 2)[0];
            i += rest.length();
            if (rest.equals("true") || rest.equals("false")) {
                return Boolean.valueOf(rest);
            }
            if (rest.matches("[+-]?\\d+")) {
                return Long.valueOf(rest);
            }
            throw fail("unsupported value " + rest);
        }

        String string() {
            if (i >= s.length() || s.charAt(i) != '"') {
                throw fail("expected a basic string");
            }
            i++;
            StringBuilder b = new StringBuilder();
            while (i < s.length()) {
                char ch = s.charAt(i++);
                if (ch == '"') {
                    return b.toString();
                }
                if (ch < 0x20 && ch != '\t' || ch == 0x7f) {
                    throw fail("raw control character in a string");
                }
                if (ch != '\\') {
                    b.append(ch);
                    continue;
                }
                if (i >= s.length()) {
                    throw fail("unfinished escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"' -> b.append('"');
                    case '\\' -> b.append('\\');
                    case 'b' -> b.append('\b');
                    case 't' -> b.append('\t');
                    case 'n' -> b.append('\n');
                    case 'f' -> b.append('\f');
                    case 'r' -> b.append('\r');
                    case 'u', 'U' -> {
                        int len = e == 'u' ? 4 : 8;
                        if (i + len > s.length()) {
                            throw fail("short unicode escape");
                        }
                        b.appendCodePoint(Integer.parseInt(s.substring(i, i + len), 16));
                        i += len;
                    }
                    default -> throw fail("invalid escape \\" + e);
                }
            }
            throw fail("unterminated string");
        }

        IllegalArgumentException fail(String what) {
            return new IllegalArgumentException("line " + line + ", column " + (i + 1) + ": " + what + ": " + s);
        }
    }
}
