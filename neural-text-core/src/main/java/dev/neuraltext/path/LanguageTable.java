package dev.neuraltext.path;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * What a file's path and shebang say about it, read from the {@code languages.yaml} resource beside this class (its
 * header documents every key): the file's language, the chunker that reads it, whether it is a test source, and the
 * kinds of file its path says it is (test, example, vendored, generated, compat, stub, barrel, platform). The one
 * table of these facts: the directory ingestor, the ranking's path priors and the syntax-tree chunker all read it.
 *
 * <p>Immutable and thread-safe; {@link #standard()} is loaded once.
 */
public final class LanguageTable {

    private static final String RESOURCE = "languages.yaml";
    private static final Set<String> LANGUAGE_KEYS = Set.of("extensions", "names", "interpreters", "chunker", "prose",
            "tests", "headers");

    private final Map<String, Language> languages;
    private final Map<String, String> byExtension;
    private final Map<String, String> byName;
    private final Map<String, String> byInterpreter;
    private final List<Map.Entry<String, String>> byInterpreterPrefix;
    private final String anyInterpreter;
    private final List<PathGlob> testSources;
    private final Map<String, PathKindRules> kinds;
    private final Set<String> headers;
    private final Set<String> sourcesWithHeaders;

    private LanguageTable(Map<String, Language> languages, List<String> testFolders,
            Map<String, PathKindRules> kinds) {
        this.languages = Map.copyOf(languages);
        Map<String, String> ext = new LinkedHashMap<>();
        Map<String, String> name = new LinkedHashMap<>();
        Map<String, String> interpreter = new LinkedHashMap<>();
        List<Map.Entry<String, String>> prefixes = new ArrayList<>();
        String any = null;
        List<PathGlob> tests = new ArrayList<>();
        testFolders.forEach(g -> tests.add(PathGlob.of(g)));
        for (Language l : languages.values()) {
            l.extensions().forEach(e -> unique(ext, e, l.id(), "extension"));
            l.names().forEach(n -> unique(name, n, l.id(), "name"));
            for (String command : l.interpreters()) {
                if (command.equals("*")) {
                    if (any != null) {
                        throw new IllegalStateException(RESOURCE + ": interpreter '*' given to " + any + " and "
                                + l.id());
                    }
                    any = l.id();
                } else if (command.endsWith("*")) {
                    prefixes.add(Map.entry(command.substring(0, command.length() - 1), l.id()));
                } else {
                    unique(interpreter, command, l.id(), "interpreter");
                }
            }
            l.tests().forEach(g -> tests.add(PathGlob.of(g)));
        }
        prefixes.sort((a, b) -> b.getKey().length() - a.getKey().length()); // the longest prefix wins
        this.byExtension = Map.copyOf(ext);
        this.byName = Map.copyOf(name);
        this.byInterpreter = Map.copyOf(interpreter);
        this.byInterpreterPrefix = List.copyOf(prefixes);
        this.anyInterpreter = any;
        this.testSources = List.copyOf(tests);
        this.kinds = kinds;
        Set<String> h = new LinkedHashSet<>();
        Set<String> sources = new LinkedHashSet<>();
        for (Language l : languages.values()) {
            h.addAll(l.headers());
            if (!l.headers().isEmpty()) {
                l.extensions().stream().filter(e -> !l.headers().contains(e)).forEach(sources::add);
            }
        }
        this.headers = Set.copyOf(h);
        this.sourcesWithHeaders = Set.copyOf(sources);
    }

    private static final class Standard {
        static final LanguageTable TABLE = load();
    }

    /** The table of the {@code languages.yaml} resource shipped with neural-text-core. */
    public static LanguageTable standard() {
        return Standard.TABLE;
    }

    /** Every language, by id. */
    public Map<String, Language> languages() {
        return languages;
    }

    /** The language {@code id}, or empty when the table has none. */
    public Optional<Language> language(String id) {
        return Optional.ofNullable(languages.get(id));
    }

    /**
     * Whether {@code extension} (lower case, no dot) is a declaration header ({@code h}, {@code hpp}) whose
     * implementation lies in a file of the same stem with a {@linkplain #isSourceWithHeaders source extension}.
     */
    public boolean isHeader(String extension) {
        return headers.contains(extension);
    }

    /** Whether {@code extension} is a source extension of a language with headers ({@code c}, {@code cpp}). */
    public boolean isSourceWithHeaders(String extension) {
        return sourcesWithHeaders.contains(extension);
    }

    /** The ids of the languages chunked by syntax tree ({@link Language.Chunking#SYNTAX}). */
    public Set<String> syntaxLanguages() {
        Set<String> out = new LinkedHashSet<>();
        languages.values().stream().filter(l -> l.chunking() == Language.Chunking.SYNTAX).sorted(
                java.util.Comparator.comparing(Language::id)).forEach(l -> out.add(l.id()));
        return Set.copyOf(out);
    }

    /**
     * The language of a file named {@code fileName} (no folders): by its last extension ({@code a.kt} is
     * {@code kotlin}), or, without an extension, by its whole name ({@code Makefile} is {@code makefile}); null when
     * the table has none. Case-insensitive. A name that starts with its only dot ({@code .bashrc}) has no extension.
     *
     * @throws NullPointerException if {@code fileName} is null
     */
    public String languageOf(String fileName) {
        Objects.requireNonNull(fileName, "fileName");
        String lower = fileName.toLowerCase(Locale.ROOT);
        int dot = lower.lastIndexOf('.');
        return dot > 0 ? byExtension.get(lower.substring(dot + 1)) : byName.get(lower);
    }

    /**
     * The language of a script whose shebang line runs {@code command} (lower case, no folders: {@code python3},
     * {@code bash}): an exact interpreter entry, else the longest prefix entry ({@code python*}), else the catch-all
     * entry ({@code script}).
     */
    public String interpreterLanguage(String command) {
        String exact = byInterpreter.get(command);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, String> p : byInterpreterPrefix) {
            if (command.startsWith(p.getKey())) {
                return p.getValue();
            }
        }
        return anyInterpreter;
    }

    /**
     * The first test-source rule that {@code relativePath} (forward slashes) matches, as written in the table
     * ({@code **}{@code /src/test/**}, {@code *Test.java}), or empty; {@code folder} says whether the path is a
     * folder.
     */
    public Optional<String> testSourceRule(String relativePath, boolean folder) {
        for (PathGlob g : testSources) {
            if (folder ? g.matchesFolder(relativePath) : g.matches(relativePath)) {
                return Optional.of(g.pattern());
            }
        }
        return Optional.empty();
    }

    /** The test-source rules: the folders of {@code testSources}, then each language's {@code tests}. */
    public List<String> testSourceRules() {
        return testSources.stream().map(PathGlob::pattern).toList();
    }

    /** The path kinds of the table, in its order ({@code test}, {@code example}, ...). */
    public Set<String> pathKinds() {
        return kinds.keySet();
    }

    /**
     * The kinds of file {@code relativePath} (forward slashes) is, in the table's order: those whose rules match its
     * lower-cased path, and {@code test} for a test source ({@link #testSourceRule}).
     */
    public Set<String> kindsOf(String relativePath) {
        PathKindRules.Path p = PathKindRules.Path.of(relativePath);
        Set<String> out = new LinkedHashSet<>();
        for (PathKindRules k : kinds.values()) {
            if (k.matches(p) || k.name().equals("test") && testSourceRule(relativePath, false).isPresent()) {
                out.add(k.name());
            }
        }
        return out;
    }

    /**
     * The word prefixes with which a query asks for files of {@code kind} ({@code deprecat} for {@code compat}), or
     * none.
     *
     * @throws IllegalArgumentException if the table has no such kind
     */
    public List<String> queryPrefixes(String kind) {
        PathKindRules k = kinds.get(kind);
        if (k == null) {
            throw new IllegalArgumentException("no path kind '" + kind + "', the table has " + kinds.keySet());
        }
        return k.queryPrefixes();
    }

    private static void unique(Map<String, String> index, String key, String language, String what) {
        String before = index.putIfAbsent(key, language);
        if (before != null) {
            throw new IllegalStateException(RESOURCE + ": " + what + " '" + key + "' given to " + before + " and "
                    + language);
        }
    }

    static LanguageTable load() {
        try (InputStream in = LanguageTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the neural-text-core jar");
            }
            Map<String, Object> root = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            return parse(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    static LanguageTable parse(Map<String, Object> root) {
        keys(root, Set.of("languages", "testSources", "pathKinds"), "the table");
        Map<String, Language> languages = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : map(root.get("languages"), "languages").entrySet()) {
            String id = e.getKey();
            Map<String, Object> m = map(e.getValue(), id);
            keys(m, LANGUAGE_KEYS, id);
            String chunker = m.get("chunker") == null ? "text" : m.get("chunker").toString();
            Language.Chunking chunking;
            try {
                chunking = Language.Chunking.valueOf(chunker.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException ex) {
                throw new IllegalStateException(RESOURCE + ": " + id + ".chunker must be java, markdown, syntax or "
                        + "text, got '" + chunker + "'", ex);
            }
            try {
                languages.put(id, new Language(id, strings(m.get("extensions"), id), strings(m.get("names"), id),
                        strings(m.get("interpreters"), id), chunking, Boolean.TRUE.equals(m.get("prose")),
                        strings(m.get("tests"), id), strings(m.get("headers"), id)));
            } catch (IllegalArgumentException ex) {
                throw new IllegalStateException(RESOURCE + ": " + ex.getMessage(), ex);
            }
        }
        Map<String, PathKindRules> kinds = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : map(root.get("pathKinds"), "pathKinds").entrySet()) {
            Map<String, Object> m = map(e.getValue(), e.getKey());
            keys(m, PathKindRules.KEYS, e.getKey());
            Map<String, List<String>> rules = new LinkedHashMap<>();
            m.forEach((k, v) -> rules.put(k, strings(v, e.getKey() + "." + k)));
            kinds.put(e.getKey(), PathKindRules.of(e.getKey(), rules));
        }
        return new LanguageTable(languages, strings(root.get("testSources"), "testSources"),
                java.util.Collections.unmodifiableMap(kinds));
    }

    private static void keys(Map<String, Object> m, Set<String> allowed, String where) {
        for (String k : m.keySet()) {
            if (!allowed.contains(k)) {
                throw new IllegalStateException(RESOURCE + ": unknown key '" + k + "' in " + where + ", expected one of "
                        + new java.util.TreeSet<>(allowed));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o, String where) {
        if (o instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new IllegalStateException(RESOURCE + ": " + where + " must be a map, got " + o);
    }

    private static List<String> strings(Object o, String where) {
        if (o == null) {
            return List.of();
        }
        if (!(o instanceof List<?> l)) {
            throw new IllegalStateException(RESOURCE + ": " + where + " must be a list, got " + o);
        }
        List<String> out = new ArrayList<>(l.size());
        for (Object x : l) {
            out.add(String.valueOf(x));
        }
        return List.copyOf(out);
    }
}
