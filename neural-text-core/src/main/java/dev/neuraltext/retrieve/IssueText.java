package dev.neuraltext.retrieve;

import dev.neuraltext.path.LanguageTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an issue text (a bug report: prose, a traceback, a failing snippet) names, read from its structure instead of
 * embedded whole: the title and the first paragraph (what the dense leg embeds), the file paths it mentions (traceback
 * frames first, in the order the traceback runs, install prefixes and Windows separators left for {@link #pathSuffixes}
 * to resolve), dotted module paths ({@code sklearn.utils.validation}), the functions its frames run in, and the
 * identifiers of its code spans and code blocks, error class names among them. Immutable.
 *
 * @param title       the first non-blank line
 * @param lead        the title and the first paragraph of prose after it, at most {@value #LEAD_CHARS} characters
 * @param paths       the file paths mentioned, forward slashes, each once, traceback frames first
 * @param frames      how many of {@code paths} are traceback frames (they come first, innermost last)
 * @param modules     the dotted module paths mentioned, each once ({@code astropy.modeling.separable})
 * @param identifiers identifiers written as code (code spans, code blocks, frame functions, error classes), each once
 * @param lines       per mentioned path, the line numbers the issue gives for it (a frame's line, {@code path:line})
 */
record IssueText(String title, String lead, List<String> paths, int frames, List<String> modules,
        List<String> identifiers, Map<String, Set<Integer>> lines) {

    /** The most characters {@link #lead} keeps. */
    static final int LEAD_CHARS = 600;
    /** A query is read as an issue from this many characters on (when it also spans lines or has many words). */
    static final int MIN_CHARS = 300;

    private static final Pattern PY_FRAME = Pattern.compile("File \"([^\"\\n]+)\", line (\\d+)(?:, in ([\\w<>.]+))?");
    private static final Pattern JVM_FRAME = Pattern.compile("\\bat ((?:[\\w$]+\\.)+)([\\w$<>]+)\\(([\\w$]+\\.\\w+):\\d+\\)");
    /**
     * A path with at least one separator, or a bare file name with the extension of a language the index holds
     * ({@link LanguageTable}); optional :line(:col).
     */
    private static final Pattern PATH = Pattern.compile(
            "(?<![\\w.\\-/\\\\])((?:[A-Za-z]:)?(?:[\\w.\\-~@+]*[/\\\\])+[\\w.\\-@+]+\\.[A-Za-z][A-Za-z0-9]{0,5}"
                    + "|[\\w\\-@+]+\\.(?:" + indexedExtensions() + "))"
                    + "(?::\\d+)?(?![\\w\\-/\\\\])");
    private static final Pattern DOTTED = Pattern.compile("(?<![\\w./])([A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*){1,8})(?![\\w/(]|\\.\\w)");
    private static final Pattern CODE_BLOCK = Pattern.compile("```[^\\n]*\\n(.*?)(?:```|\\z)", Pattern.DOTALL);
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]{1,200})`");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][\\w]*");
    private static final Pattern ERROR_NAME = Pattern.compile("\\b([A-Z]\\w*(?:Error|Exception|Warning|Exit|Interrupt))\\b");

    IssueText {
        paths = List.copyOf(paths);
        modules = List.copyOf(modules);
        identifiers = List.copyOf(identifiers);
        Map<String, Set<Integer>> copy = new LinkedHashMap<>();
        lines.forEach((p, l) -> copy.put(p, Set.copyOf(l)));
        lines = Map.copyOf(copy);
    }

    /**
     * Whether {@code query} reads as an issue rather than a question: at least {@value #MIN_CHARS} characters and
     * several lines or at least 40 words. A question of a sentence or two stays with the question ranking.
     */
    static boolean looksLikeIssue(String query) {
        if (query.length() < MIN_CHARS) {
            return false;
        }
        long lines = query.strip().lines().filter(l -> !l.isBlank()).count();
        return lines >= 3 || query.strip().split("\\s+").length >= 40;
    }

    /** Reads {@code text}'s structure. */
    static IssueText parse(String text) {
        String t = text.replace("\r\n", "\n").replace('\r', '\n');
        Set<String> framePaths = new LinkedHashSet<>();
        Set<String> identifiers = new LinkedHashSet<>();
        Map<String, Set<Integer>> lines = new LinkedHashMap<>();
        Matcher m = PY_FRAME.matcher(t);
        while (m.find()) {
            framePaths.add(normalPath(m.group(1)));
            addLine(lines, normalPath(m.group(1)), m.group(2));
            if (m.group(3) != null && !m.group(3).startsWith("<")) {
                identifiers.add(m.group(3).substring(m.group(3).lastIndexOf('.') + 1));
            }
        }
        m = JVM_FRAME.matcher(t);
        while (m.find()) {
            String classes = m.group(1).substring(0, m.group(1).length() - 1); // com.example.Outer$Inner
            int lastDot = classes.lastIndexOf('.');
            String folder = lastDot < 0 ? "" : classes.substring(0, lastDot).replace('.', '/');
            framePaths.add(folder.isEmpty() ? m.group(3) : folder + "/" + m.group(3));
            identifiers.add(m.group(2));
        }
        Set<String> paths = new LinkedHashSet<>(framePaths);
        m = PATH.matcher(t);
        while (m.find()) {
            String p = m.group(1);
            String line = null;
            int colon = p.lastIndexOf(':');
            if (colon > 1 && p.substring(colon + 1).chars().allMatch(Character::isDigit)) {
                line = p.substring(colon + 1);
                p = p.substring(0, colon);
            }
            if (!p.startsWith("http") && !p.contains("://")) {
                paths.add(normalPath(p));
                addLine(lines, normalPath(p), line);
            }
        }
        Set<String> modules = new LinkedHashSet<>();
        m = DOTTED.matcher(t);
        while (m.find()) {
            String d = m.group(1);
            if (isModuleLike(d)) {
                modules.add(d);
            }
        }
        StringBuilder code = new StringBuilder();
        m = CODE_BLOCK.matcher(t);
        while (m.find()) {
            code.append(m.group(1)).append('\n');
        }
        String prose = CODE_BLOCK.matcher(t).replaceAll("\n");
        m = CODE_SPAN.matcher(prose);
        while (m.find()) {
            code.append(m.group(1)).append('\n');
        }
        m = IDENTIFIER.matcher(code);
        while (m.find()) {
            String id = m.group();
            if (isNameLike(id)) {
                identifiers.add(id);
            }
        }
        m = ERROR_NAME.matcher(t);
        while (m.find()) {
            identifiers.add(m.group(1));
        }
        String title = t.strip().lines().findFirst().orElse("").strip();
        return new IssueText(title, lead(prose), List.copyOf(paths), framePaths.size(), List.copyOf(modules),
                List.copyOf(identifiers), lines);
    }

    private static void addLine(Map<String, Set<Integer>> lines, String path, String line) {
        if (line != null && !line.isEmpty() && line.length() < 8) {
            lines.computeIfAbsent(path, p -> new LinkedHashSet<>()).add(Integer.parseInt(line));
        }
    }

    /** The line numbers the issue gives for {@code path} (a file of the index), whichever install prefix it wrote. */
    Set<Integer> linesOf(String path) {
        Set<Integer> out = new LinkedHashSet<>();
        lines.forEach((mentioned, l) -> {
            if (IssueRanking.endsWithPath(mentioned, path) || mentioned.indexOf('/') > 0
                    && IssueRanking.endsWithPath(path, mentioned)) {
                out.addAll(l);
            }
        });
        return out;
    }

    /**
     * The places a mentioned path may name in an index whose paths are relative to some root: the path itself and
     * every shorter suffix at a folder boundary, longest first ({@code /usr/lib/python3/site-packages/pkg/mod.py}
     * gives {@code pkg/mod.py} among them), down to the file name.
     */
    static List<String> pathSuffixes(String path) {
        List<String> out = new ArrayList<>();
        String p = normalPath(path);
        while (!p.isEmpty()) {
            out.add(p);
            int slash = p.indexOf('/');
            if (slash < 0) {
                break;
            }
            p = p.substring(slash + 1);
        }
        return out;
    }

    /**
     * The files a dotted module path may be ({@code a.b.c}: {@code a/b/c.py}, {@code a/b/c/__init__.py}, and the same
     * for {@code a.b} when {@code c} is an attribute), in the source languages that name modules by dots.
     */
    static List<String> moduleFiles(String dotted) {
        List<String> out = new ArrayList<>();
        String[] parts = dotted.split("\\.");
        for (int n = parts.length; n >= 2; n--) {
            String base = String.join("/", java.util.Arrays.copyOf(parts, n));
            for (String ext : MODULE_EXTENSIONS) {
                out.add(base + ext);
            }
            out.add(base + "/__init__.py");
        }
        return out;
    }

    /** The language table's extensions as a regex alternation, longest first. */
    private static String indexedExtensions() {
        List<String> all = new ArrayList<>();
        LanguageTable.standard().languages().values().forEach(l -> all.addAll(l.extensions()));
        return all.stream().distinct().sorted(java.util.Comparator.comparingInt(String::length).reversed()
                .thenComparing(java.util.Comparator.naturalOrder())).map(Pattern::quote)
                .collect(java.util.stream.Collectors.joining("|"));
    }

    private static final List<String> MODULE_EXTENSIONS = List.of(".py", ".pyi", ".java", ".kt", ".scala");

    /** Forward slashes, no drive letter, no leading {@code ./} or {@code /}. */
    static String normalPath(String path) {
        String p = path.strip().replace('\\', '/');
        if (p.length() >= 2 && p.charAt(1) == ':' && Character.isLetter(p.charAt(0))) {
            p = p.substring(2);
        }
        while (p.startsWith("./") || p.startsWith("/")) {
            p = p.substring(p.startsWith("./") ? 2 : 1);
        }
        return p;
    }

    /** A dotted word that may be a module path: lower-case segments mostly, not a version or a file name. */
    private static boolean isModuleLike(String dotted) {
        String[] parts = dotted.split("\\.");
        if (parts.length < 2) {
            return false;
        }
        String last = parts[parts.length - 1].toLowerCase(Locale.ROOT);
        if (last.matches("py|pyi|java|kt|rs|go|js|ts|rb|php|md|rst|txt|toml|cfg|json|yaml|yml|html|com|org|io|net")) {
            return false; // a file name or a host, not a module
        }
        return Character.isLowerCase(parts[0].charAt(0)) || parts[0].charAt(0) == '_';
    }

    /** An identifier worth looking up as a definition: not a keyword-length word, not a plain lower-case word. */
    private static boolean isNameLike(String id) {
        if (id.length() < 3 || COMMON.contains(id)) {
            return false;
        }
        boolean inner = false;
        for (int i = 1; i < id.length(); i++) {
            if (Character.isUpperCase(id.charAt(i)) || id.charAt(i) == '_') {
                inner = true;
                break;
            }
        }
        return inner || Character.isUpperCase(id.charAt(0)) || id.length() >= 4;
    }

    /** Words of code that name no definition of the repository (keywords and builtins of common languages). */
    private static final Set<String> COMMON = Set.of("import", "from", "return", "def", "class", "self", "None",
            "True", "False", "print", "for", "while", "with", "yield", "lambda", "elif", "else", "pass", "raise",
            "try", "except", "finally", "assert", "not", "and", "the", "this", "that", "new", "null", "true", "false",
            "void", "public", "private", "static", "final", "int", "str", "list", "dict", "set", "len", "range",
            "Traceback", "File", "line", "python", "pip", "install", "const", "let", "var", "function", "async",
            "await", "func", "package", "fn", "pub", "use", "mod", "impl", "struct", "enum", "type", "object",
            "main", "test", "tests", "args", "kwargs", "value", "data", "name", "result", "error", "Error",
            "Exception", "most", "recent", "call", "last", "bool", "float", "tuple", "isinstance", "super");

    /** The title and the first paragraph of prose after it, cut at {@value #LEAD_CHARS} characters. */
    private static String lead(String prose) {
        StringBuilder out = new StringBuilder();
        boolean seenTitle = false;
        for (String line : prose.strip().split("\n")) {
            if (line.isBlank()) {
                if (seenTitle && out.length() > 0 && out.indexOf("\n") >= 0) {
                    break;
                }
                continue;
            }
            out.append(line.strip()).append('\n');
            seenTitle = true;
            if (out.length() >= LEAD_CHARS) {
                break;
            }
        }
        String s = out.toString().strip();
        return s.length() <= LEAD_CHARS ? s : s.substring(0, LEAD_CHARS);
    }
}
