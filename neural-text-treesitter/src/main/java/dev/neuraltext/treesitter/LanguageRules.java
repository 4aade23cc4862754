package dev.neuraltext.treesitter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * How one language's syntax tree becomes chunks: which node types are definitions and how their names and doc
 * comments are found. Read from the {@code syntax-rules.yaml} resource (its header documents every key), so that a
 * language is data, not code. Immutable.
 *
 * @param language      the language name ({@code kotlin}, {@code python}, ...)
 * @param grammar       the grammar class name
 * @param lineComment   prefixes of comment lines
 * @param blockComment  open and close of block comments, or empty
 * @param docstring     the field whose first string statement is a doc string, or ""
 * @param docSiblings   text prefixes of a preceding sibling that is a doc
 * @param wrappers      node types around a definition that belong to it
 * @param leading       node types of preceding siblings that belong to a definition
 * @param packages      node types that declare the package or namespace
 * @param opaque        node types whose insides are not searched for definitions
 * @param nameTypes     node types that are names
 * @param constructors  method names that are constructors
 * @param promote       the language whose rules read a file holding one of {@code promoteMarkers}, or ""
 * @param promoteMarkers texts that mark a file of the {@code promote} language (C++ in a {@code .h} file)
 * @param mergeClauses  whether adjacent definitions of one name are merged into one chunk
 * @param definitions   rules per node type, tried in order
 * @param reExports     top-level node types that re-export names defined elsewhere (Rust's {@code pub use}), each
 *                      with the child type or field it must have ({@code visibility_modifier}), or ""
 */
record LanguageRules(String language, String grammar, List<String> lineComment, List<String> blockComment,
        String docstring, List<String> docSiblings, Set<String> wrappers, Set<String> leading, Set<String> packages, Set<String> opaque,
        Set<String> nameTypes, Set<String> constructors, String promote,
        List<String> promoteMarkers, boolean mergeClauses,
        Map<String, List<DefinitionRule>> definitions, Map<String, String> reExports) {

    /** Node types that are a name in every grammar. */
    static final Set<String> DEFAULT_NAME_TYPES = Set.of("identifier", "type_identifier", "name", "constant",
            "package_identifier", "namespace_name", "scoped_identifier", "dotted_name");

    static final String RESOURCE = "syntax-rules.yaml";

    /**
     * One definition rule.
     *
     * @param symbolType {@code type}, {@code function}, {@code method}, {@code constructor} or {@code module}
     * @param kind       the kind word, or {@code keyword} to read it from the declaration
     * @param names      name paths, tried in order
     * @param container  whether nested definitions are chunks of their own
     * @param whenPath   a path that must exist, or ""
     * @param whenTypes  the types the {@code whenPath} node must have (empty: any)
     * @param targets    texts the {@code target} field must have (empty: no condition)
     * @param owner      path to the type a method belongs to, or ""
     */
    record DefinitionRule(String symbolType, String kind, List<String> names, boolean container, String whenPath,
            Set<String> whenTypes, Set<String> targets, String owner) {
    }

    boolean isName(String nodeType) {
        return DEFAULT_NAME_TYPES.contains(nodeType) || nameTypes.contains(nodeType);
    }

    /** The rules to read {@code text} with: the promoted language's when the text holds one of its markers. */
    LanguageRules forText(String text, Map<String, LanguageRules> all) {
        if (!promote.isEmpty() && all.containsKey(promote) && promoteMarkers.stream().anyMatch(text::contains)) {
            return all.get(promote);
        }
        return this;
    }

    /** Every language of the resource, by name. */
    static Map<String, LanguageRules> load() {
        try (InputStream in = LanguageRules.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the neural-text-treesitter jar");
            }
            LoaderOptions options = new LoaderOptions();
            Map<String, Object> root = new Yaml(new SafeConstructor(options)).load(in);
            Map<String, LanguageRules> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : root.entrySet()) {
                out.put(e.getKey(), parse(e.getKey(), map(e.getValue(), e.getKey())));
            }
            return Map.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    private static LanguageRules parse(String language, Map<String, Object> m) {
        Map<String, Object> promote = m.get("promote") == null ? Map.of() : map(m.get("promote"), language + ".promote");
        Map<String, List<DefinitionRule>> defs = new LinkedHashMap<>();
        for (Map.Entry<String, Object> d : map(m.get("definitions"), language + ".definitions").entrySet()) {
            List<DefinitionRule> rules = new ArrayList<>();
            Object v = d.getValue();
            for (Object r : v instanceof List<?> l ? l : List.of(v)) {
                rules.add(rule(map(r, language + "." + d.getKey())));
            }
            defs.put(d.getKey(), List.copyOf(rules));
        }
        return new LanguageRules(language, Objects.requireNonNull((String) m.get("grammar"), language + ".grammar"),
                strings(m.get("lineComment")), strings(m.get("blockComment")), string(m.get("docstring")),
                strings(m.get("docSiblings")), Set.copyOf(strings(m.get("wrappers"))),
                Set.copyOf(strings(m.get("leading"))), Set.copyOf(strings(m.get("package"))), Set.copyOf(strings(m.get("opaque"))),
                Set.copyOf(strings(m.get("nameTypes"))), Set.copyOf(strings(m.get("constructors"))),
                string(promote.get("language")), strings(promote.get("markers")), Boolean.TRUE.equals(m.get("mergeClauses")), Map.copyOf(defs),
                reExports(m.get("reexports"), language));
    }

    private static Map<String, String> reExports(Object o, String language) {
        if (o == null) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : map(o, language + ".reexports").entrySet()) {
            out.put(e.getKey(), string(map(e.getValue(), language + ".reexports." + e.getKey()).get("requires")));
        }
        return Map.copyOf(out);
    }

    private static DefinitionRule rule(Map<String, Object> r) {
        Map<String, Object> when = r.get("when") == null ? Map.of() : map(r.get("when"), "when");
        List<String> names = strings(r.get("name"));
        return new DefinitionRule(string(r.get("type")), string(r.get("kind")),
                names.isEmpty() ? List.of("name") : names, Boolean.TRUE.equals(r.get("container")),
                string(when.get("path")), Set.copyOf(strings(when.get("types"))), Set.copyOf(strings(r.get("target"))),
                string(r.get("owner")));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o, String where) {
        if (!(o instanceof Map<?, ?>)) {
            throw new IllegalStateException(RESOURCE + ": " + where + " must be a mapping, got " + o);
        }
        return (Map<String, Object>) o;
    }

    private static List<String> strings(Object o) {
        if (o == null) {
            return List.of();
        }
        if (o instanceof List<?> l) {
            return l.stream().map(String::valueOf).toList();
        }
        return List.of(String.valueOf(o));
    }

    private static String string(Object o) {
        return o == null ? "" : String.valueOf(o);
    }
}
