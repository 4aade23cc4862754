package dev.neuraltext;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package structure of the main code of every module of the build, read from the sources (a plain import scan:
 * imports and fully qualified names in code, comments and string literals left out): no package cycle anywhere, and
 * neural-text-core's packages import only the packages listed before them in its layering (the root package-info).
 */
class ArchitectureTest {

    /** Core's layers, lowest first (dev.neuraltext's package-info); a package may import only lower layers. */
    private static final List<Set<String>> CORE_LAYERS = List.of(
            Set.of("dev.neuraltext.internal", "dev.neuraltext"),
            Set.of("dev.neuraltext.text", "dev.neuraltext.filter", "dev.neuraltext.encode", "dev.neuraltext.fusion",
                    "dev.neuraltext.path"),
            Set.of("dev.neuraltext.chunk"),
            Set.of("dev.neuraltext.search"),
            Set.of("dev.neuraltext.bm25"),
            Set.of("dev.neuraltext.store"),
            Set.of("dev.neuraltext.retrieve"),
            Set.of("dev.neuraltext.ingest", "dev.neuraltext.eval"));

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(?:static\\s+)?([\\w.]+)(\\.\\*)?\\s*;",
            Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\bdev\\.neuraltext(?:\\.\\w+)+");

    /** One source file: its package and its code without comments and literals. */
    private record Source(Path file, String pkg, String code) {
    }

    @Test
    void noPackageCycleInTheMainCodeOfAnyModule() {
        Map<String, Map<String, Path>> graph = dependencies(mainSources(root()));
        assertThat(graph).as("packages found").containsKeys("dev.neuraltext.retrieve", "dev.neuraltext.cli",
                "dev.neuraltext.mcp", "dev.neuraltext.onnx", "dev.neuraltext.qdrant");
        List<List<String>> cycles = cycles(graph);
        assertThat(cycles).as("package cycles (each edge with a file that makes it):%n%s", describe(cycles, graph))
                .isEmpty();
    }

    @Test
    void coreImportsOnlyLowerLayers() {
        List<String> violations = new ArrayList<>();
        dependencies(mainSources(root().resolve("neural-text-core"))).forEach((from, tos) -> tos.forEach((to, file) -> {
            int a = layer(from);
            int b = layer(to);
            if (a < 0 || b < 0 || b >= a) {
                violations.add(from + " -> " + to + " (" + file.getFileName() + "; layers " + a + ", " + b + ")");
            }
        }));
        assertThat(violations).as("core packages importing a package that is not below them").isEmpty();
    }

    @Test
    void theScanFindsACycleAndItsFiles() {
        Map<String, Map<String, Path>> graph = new TreeMap<>();
        graph.put("a", Map.of("b", Path.of("A.java")));
        graph.put("b", Map.of("c", Path.of("B.java")));
        graph.put("c", Map.of("a", Path.of("C.java"), "d", Path.of("C.java")));
        graph.put("d", Map.of());
        assertThat(cycles(graph)).containsExactly(List.of("a", "b", "c"));
        assertThat(describe(cycles(graph), graph)).contains("c -> a (C.java)");
        String code = strip("import x.Y; // dev.neuraltext.cli.X\n/* dev.neuraltext.mcp.Z */ String s = \"dev.neuraltext.a.B\";"
                + " char c = '\"'; dev.neuraltext.search.SearchHit h;");
        assertThat(code).doesNotContain("cli", "mcp", "neuraltext.a.B").contains("dev.neuraltext.search.SearchHit");
        assertThat(layer("dev.neuraltext.store")).isGreaterThan(layer("dev.neuraltext.bm25"));
    }

    private static int layer(String pkg) {
        for (int i = 0; i < CORE_LAYERS.size(); i++) {
            if (CORE_LAYERS.get(i).contains(pkg)) {
                return i;
            }
        }
        return -1;
    }

    /** The build's root: the nearest folder up from the working directory with a pom.xml and neural-text-core. */
    private static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("neural-text-core"))) {
                return p;
            }
        }
        throw new IllegalStateException("no build root above " + Path.of("").toAbsolutePath());
    }

    /** Every {@code src/main/java} source under {@code dir}'s modules ({@code dir} itself when it is one). */
    private static List<Source> mainSources(Path dir) {
        List<Path> roots = new ArrayList<>();
        if (Files.isDirectory(dir.resolve("src/main/java"))) {
            roots.add(dir.resolve("src/main/java"));
        }
        try (Stream<Path> modules = Files.list(dir)) {
            modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).sorted().forEach(roots::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Source> out = new ArrayList<>();
        for (Path r : roots) {
            try (Stream<Path> files = Files.walk(r)) {
                for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    String code = strip(Files.readString(f, StandardCharsets.UTF_8));
                    Matcher m = PACKAGE.matcher(code);
                    out.add(new Source(f, m.find() ? m.group(1) : "", code));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** Package to package (to one file that makes the edge), between different packages of the sources. */
    private static Map<String, Map<String, Path>> dependencies(List<Source> sources) {
        Map<String, String> packageOf = new HashMap<>(); // fully qualified top-level class -> package
        for (Source s : sources) {
            String name = s.file().getFileName().toString().replace(".java", "");
            packageOf.put(s.pkg().isEmpty() ? name : s.pkg() + "." + name, s.pkg());
        }
        Set<String> packages = new TreeSet<>(packageOf.values());
        Map<String, Map<String, Path>> graph = new TreeMap<>();
        for (Source s : sources) {
            Map<String, Path> edges = graph.computeIfAbsent(s.pkg(), p -> new TreeMap<>());
            List<String> names = new ArrayList<>();
            Matcher imports = IMPORT.matcher(s.code());
            while (imports.find()) {
                if (imports.group(2) != null && packages.contains(imports.group(1))) {
                    names.add(imports.group(1) + ".*"); // a whole package
                } else {
                    names.add(imports.group(1));
                }
            }
            Matcher qualified = QUALIFIED.matcher(s.code().replaceAll("(?m)^\\s*(package|import)\\s[^;]*;", ""));
            while (qualified.find()) {
                names.add(qualified.group());
            }
            for (String n : names) {
                String target = n.endsWith(".*") ? n.substring(0, n.length() - 2) : owner(n, packageOf);
                if (target != null && !target.equals(s.pkg())) {
                    edges.putIfAbsent(target, s.file());
                }
            }
        }
        return graph;
    }

    /** The package of the longest prefix of {@code name} that is a known class, or null (not ours). */
    private static String owner(String name, Map<String, String> packageOf) {
        for (String n = name; n.contains("."); n = n.substring(0, n.lastIndexOf('.'))) {
            String pkg = packageOf.get(n);
            if (pkg != null) {
                return pkg;
            }
        }
        return null;
    }

    /** The strongly connected components of more than one package (Tarjan), each sorted, in sorted order. */
    static List<List<String>> cycles(Map<String, Map<String, Path>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> out = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, out);
            }
        }
        out.sort((a, b) -> a.get(0).compareTo(b.get(0)));
        return out;
    }

    private static void connect(String v, Map<String, Map<String, Path>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<List<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                out.add(component);
            }
        }
    }

    private static String describe(List<List<String>> cycles, Map<String, Map<String, Path>> graph) {
        StringBuilder sb = new StringBuilder();
        for (List<String> cycle : cycles) {
            for (String from : cycle) {
                graph.get(from).forEach((to, file) -> {
                    if (cycle.contains(to)) {
                        sb.append("  ").append(from).append(" -> ").append(to).append(" (").append(file.getFileName())
                                .append(")\n");
                    }
                });
            }
        }
        return sb.toString();
    }

    /** {@code source} without comments, string, text-block and character literals (each left as a blank). */
    static String strip(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && source.charAt(i) != c && source.charAt(i) != '\n') {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
