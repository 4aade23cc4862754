package dev.neuraltext.retrieve;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.path.Language;
import dev.neuraltext.path.LanguageTable;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.text.CodeDomainTokenizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The code that belongs with a file, a line or a definition, found from what the index already knows: the chunks'
 * definition names ({@code symbol} metadata), the identifiers of their text, and the BM25 postings.
 *
 * <ul>
 *   <li><b>Used by</b>: for each name the target defines (its definitions' simple names; for a whole file those not
 *       private to it ({@link #isPrivate}) and the file's stem, the name importers use), a BM25 lookup of the name over the other files (at most
 *       {@value #LOOKUP_DEPTH} chunks), kept when the chunk's own text (not the title line the chunkers put first)
 *       names it: exactly (a whole identifier, case as written), or as the same compound in another spelling
 *       ({@code retry_policy} for {@code RetryPolicy}, the code tokenizer's compound rule; for names of several words only),
 *       which counts half. So a
 *       Python caller of a Rust function or a Markdown page naming a class is found as a Java caller is.</li>
 *   <li><b>Uses</b>: the identifiers of the target's text that are the simple names of definitions in other files
 *       and of none in the target's own file (a call of its own helper resolves there), read from its code without
 *       its doc comment, keywords left out, definitions in test sources only for a test target (at most {@value #MAX_NAMES}, the most frequent in the target first), each with those definitions.</li>
 *   <li><b>Tests</b>: hits whose file is a test source by the {@link LanguageTable}'s rules, and the target file's twin
 *       tests: indexed test files named by the target language's test globs with the target's stem
 *       ({@code *Test.java} gives {@code RetryPolicyTest.java}, {@code test_*.py} gives {@code test_retry.py}). An
 *       index built without test sources (the default of {@code DirectoryIngestor}) finds none, and the result says
 *       so ({@link RelatedResult#testsIndexed()}).</li>
 *   <li><b>Docs</b>: hits of documentation chunks ({@code type: doc}).</li>
 * </ul>
 *
 * <p><b>Ranking.</b> A name's weight is {@code ln(1 + F / r) / d}: {@code F} files in the index, {@code r} files
 * naming it (found by the lookup), {@code d} files defining it (an ambiguous name like {@code get} or {@code close}
 * says little). A chunk's evidence is the sum over the names that link it of weight {@code × (1 + ln n)} for
 * {@code n} exact occurrences (half for spelling variants only), times its {@link Relation#weight()}. Files are
 * ranked by their best chunk, one chunk per file before a second; scores are normalised so that the best is 1.
 *
 * <p>A {@code RelatedCode} holds a snapshot of the store's chunks taken when it was made ({@link #over}); the lookups
 * query the store itself. Thread-safe: immutable; the store is safe for concurrent searches.
 */
public final class RelatedCode {

    /** Chunks one BM25 lookup of a name examines. */
    static final int LOOKUP_DEPTH = 300;
    /** The most names looked up per direction (the target's definitions, the identifiers it uses). */
    static final int MAX_NAMES = 24;
    /** Shortest name looked up: two-letter names ({@code id}, {@code io}) match too much to mean anything. */
    static final int MIN_NAME_CHARS = 3;
    /** Definitions listed per used name (an ambiguous name's definitions beyond these are left out). */
    static final int DEFINITIONS_PER_NAME = 3;

    private static final LanguageTable TABLE = LanguageTable.standard();
    private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*");
    private static final Set<String> DEFINITIONS = Set.of(ChunkMetadata.SYMBOL_TYPE_TYPE,
            ChunkMetadata.SYMBOL_TYPE_METHOD, ChunkMetadata.SYMBOL_TYPE_CONSTRUCTOR,
            ChunkMetadata.SYMBOL_TYPE_FUNCTION, ChunkMetadata.SYMBOL_TYPE_MODULE, "field");
    private static final Set<String> NOT_NAMES = notNames();

    private final InMemoryCaseStore store;
    private final Map<String, List<ChunkInput>> byPath;
    private final Map<String, List<ChunkInput>> definitions;
    private final Map<String, Set<String>> definingFiles;
    private final boolean testsIndexed;

    private RelatedCode(InMemoryCaseStore store, List<ChunkInput> chunks) {
        this.store = store;
        Map<String, List<ChunkInput>> paths = new TreeMap<>();
        Map<String, List<ChunkInput>> defs = new HashMap<>();
        Map<String, Set<String>> files = new HashMap<>();
        boolean tests = false;
        for (ChunkInput c : chunks) {
            String path = c.metadata().getOrDefault(ChunkMetadata.PATH, c.id());
            if (!paths.containsKey(path) && isTest(path)) {
                tests = true;
            }
            paths.computeIfAbsent(path, p -> new ArrayList<>()).add(c);
            String name = definedName(c);
            if (name != null) {
                defs.computeIfAbsent(name, n -> new ArrayList<>()).add(c);
                files.computeIfAbsent(name, n -> new HashSet<>()).add(path);
            }
        }
        paths.values().forEach(l -> l.sort(Comparator.comparingInt(RelatedCode::startLine)));
        this.byPath = paths;
        this.definitions = defs;
        this.definingFiles = files;
        this.testsIndexed = tests;
    }

    /** A finder over {@code store}, with a snapshot of its chunks as they are now. */
    public static RelatedCode over(InMemoryCaseStore store) {
        Objects.requireNonNull(store, "store");
        return new RelatedCode(store, store.chunks(PayloadFilter.all()));
    }

    /**
     * The code related to the request's target, ranked.
     *
     * @throws IllegalArgumentException naming the value when the path is not indexed, the line lies outside every
     *                                  chunk of the file, or the file defines no such symbol
     */
    public RelatedResult find(RelatedRequest request) {
        List<ChunkInput> target = target(request);
        String path = request.path();
        Map<String, Evidence> found = new LinkedHashMap<>();
        List<String> names = definedNames(target, request);
        for (Lookup l : lookups(names, path)) {
            for (Map.Entry<ChunkInput, Double> e : l.occurrences().entrySet()) {
                ChunkInput c = e.getKey();
                String p = pathOf(c);
                Relation r = isTest(p) ? Relation.TEST
                        : ChunkMetadata.TYPE_DOC.equals(c.metadata().get(ChunkMetadata.TYPE)) ? Relation.DOC
                        : Relation.USED_BY;
                found.computeIfAbsent(r.label() + " " + c.id(), id -> new Evidence(c, r)).add(l.name(),
                        l.weight() * e.getValue());
            }
        }
        uses(target, path, names, found);
        twinTests(path, found);
        List<Evidence> ranked = diversified(found.values().stream().filter(e -> request.wants(e.relation)).toList());
        double best = ranked.isEmpty() ? 1 : ranked.get(0).score();
        List<RelatedHit> hits = new ArrayList<>();
        for (Evidence e : ranked.subList(0, Math.min(request.limit(), ranked.size()))) {
            double score = best > 0 ? e.score() / best : 0;
            ChunkInput c = e.chunk;
            hits.add(new RelatedHit(new SearchHit(c.id(), c.text(), c.metadata(), c.listMetadata(), score, score,
                    Map.of(), Map.of("evidence", e.score())), e.relation, List.copyOf(e.names)));
        }
        Set<String> files = new HashSet<>();
        ranked.forEach(e -> files.add(pathOf(e.chunk)));
        return new RelatedResult(path, target.stream().map(RelatedCode::describe).toList(), names, hits,
                ranked.size(), files.size(), testsIndexed);
    }

    /** The indexed paths, sorted. */
    public Set<String> paths() {
        return byPath.keySet();
    }

    // ------------------------------------------------------------------ the target

    private List<ChunkInput> target(RelatedRequest request) {
        List<ChunkInput> chunks = byPath.get(request.path());
        if (chunks == null) {
            String file = request.path().substring(request.path().lastIndexOf('/') + 1);
            List<String> like = byPath.keySet().stream().filter(p -> p.endsWith("/" + file) || p.equals(file))
                    .limit(5).toList();
            throw new IllegalArgumentException("no indexed file '" + request.path() + "'"
                    + (like.isEmpty() ? ": give a path relative to the indexed folder" : "; did you mean " + like));
        }
        if (request.symbol() != null) {
            String s = request.symbol();
            List<ChunkInput> named = chunks.stream().filter(c -> {
                String symbol = c.metadata().getOrDefault(ChunkMetadata.SYMBOL, "");
                return symbol.equals(s) || symbol.endsWith("." + s) || s.equals(definedName(c));
            }).toList();
            if (named.isEmpty()) {
                List<String> known = chunks.stream().map(RelatedCode::definedName).filter(Objects::nonNull)
                        .distinct().limit(12).toList();
                throw new IllegalArgumentException("'" + request.path() + "' defines no symbol '" + s + "'"
                        + (known.isEmpty() ? "" : "; it defines " + known));
            }
            return named;
        }
        if (request.line() > 0) {
            int line = request.line();
            ChunkInput innermost = null;
            for (ChunkInput c : chunks) {
                if (startLine(c) <= line && line <= endLine(c) && (innermost == null
                        || endLine(c) - startLine(c) < endLine(innermost) - startLine(innermost))) {
                    innermost = c;
                }
            }
            if (innermost == null) {
                throw new IllegalArgumentException("line " + line + " of '" + request.path() + "' lies in no "
                        + "indexed chunk (its chunks span lines " + startLine(chunks.get(0)) + "-"
                        + chunks.stream().mapToInt(RelatedCode::endLine).max().orElse(0) + ")");
            }
            return List.of(innermost);
        }
        return chunks;
    }

    /** The names whose users are looked up: the target's definitions, for a whole file also its stem. */
    private List<String> definedNames(List<ChunkInput> target, RelatedRequest request) {
        Set<String> names = new LinkedHashSet<>();
        boolean wholeFile = request.line() == 0 && request.symbol() == null;
        for (ChunkInput c : target) {
            String n = definedName(c);
            // a whole file's private helpers cannot be used elsewhere: their names would only find namesakes
            if (n != null && !(wholeFile && isPrivate(c, n))) {
                names.add(n);
            }
        }
        if (wholeFile) {
            String file = request.path().substring(request.path().lastIndexOf('/') + 1);
            String stem = file.contains(".") ? file.substring(0, file.indexOf('.')) : file;
            if (isName(stem)) {
                names.add(stem);
            }
        }
        // the most specific first: defined in fewest files, then the longest
        return names.stream().sorted(Comparator.comparingInt((String n) -> definingFiles.getOrDefault(n, Set.of())
                .size()).thenComparing(Comparator.comparingInt(String::length).reversed())).limit(MAX_NAMES).toList();
    }

    // ------------------------------------------------------------------ lookups

    /** One name's lookup: its weight and, for each chunk naming it, the evidence before the weight. */
    private record Lookup(String name, double weight, Map<ChunkInput, Double> occurrences) {
    }

    private List<Lookup> lookups(List<String> names, String excludedPath) {
        List<Lookup> out = new ArrayList<>();
        for (String n : names) {
            out.add(lookup(n, excludedPath));
        }
        return out;
    }

    private Lookup lookup(String name, String excludedPath) {
        PayloadFilter others = PayloadFilter.mustNot(PayloadFilter.matchKeyword(ChunkMetadata.PATH, excludedPath));
        List<SearchHit> hits = store.search(new HybridQuery(name, null, null, EnumSet.of(Leg.BM25), others,
                LOOKUP_DEPTH, LOOKUP_DEPTH, FusionMethod.defaultMethod(), false));
        Map<ChunkInput, Double> occurrences = new LinkedHashMap<>();
        Set<String> files = new HashSet<>();
        // another spelling of a name of several words (retry_policy, RETRY_POLICY for RetryPolicy); a one-word name
        // in another case (mutable for Mutable) is an English word more often than a reference
        String compound = severalWords(name) ? compound(name) : null;
        for (SearchHit h : hits) {
            ChunkInput c = new ChunkInput(h.id(), h.text(), h.metadata(), h.listMetadata(), Map.of());
            String text = sourceText(c);
            int exact = 0;
            int variant = 0;
            Matcher m = IDENTIFIER.matcher(text);
            while (m.find()) {
                String token = m.group();
                if (token.equals(name)) {
                    exact++;
                } else if (compound != null && token.length() >= name.length() && compound(token).equals(compound)) {
                    variant++;
                }
            }
            if (name.equals(definedName(c)) && exact > 0) {
                exact--; // its own declaration line: another definition of the same name, not a use
            }
            if (exact + variant == 0) {
                continue;
            }
            occurrences.put(c, exact > 0 ? 1 + Math.log(exact) : 0.5 * (1 + Math.log(variant)));
            files.add(pathOf(c));
        }
        return new Lookup(name, weight(name, files.size()), occurrences);
    }

    /** {@code ln(1 + F / r) / d} (see the class doc). */
    private double weight(String name, int referringFiles) {
        int defining = Math.max(1, definingFiles.getOrDefault(name, Set.of()).size());
        return Math.log(1 + (double) byPath.size() / Math.max(1, referringFiles)) / defining;
    }

    /** The definitions elsewhere of the identifiers the target uses. */
    private void uses(List<ChunkInput> target, String path, List<String> own, Map<String, Evidence> found) {
        Set<String> local = new HashSet<>(own); // what the file defines itself, private helpers too, resolves there
        for (ChunkInput c : byPath.getOrDefault(path, List.of())) {
            String n = definedName(c);
            if (n != null) {
                local.add(n);
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        for (ChunkInput c : target) {
            Matcher m = IDENTIFIER.matcher(codeText(c));
            while (m.find()) {
                String id = m.group();
                if (isName(id) && !local.contains(id) && definitions.containsKey(id)) {
                    counts.merge(id, 1, Integer::sum);
                }
            }
        }
        // production code does not use test code: a test's definitions are its uses only for a test target
        Predicate<ChunkInput> elsewhere = d -> !pathOf(d).equals(path) && (isTest(path) || !isTest(pathOf(d)));
        List<String> used = counts.keySet().stream().filter(id -> definitions.get(id).stream().anyMatch(elsewhere))
                .sorted(Comparator.comparing((String id) -> -counts.get(id)).thenComparing(Comparator.naturalOrder()))
                .limit(MAX_NAMES).toList();
        for (String id : used) {
            Lookup l = lookup(id, path);
            double evidence = l.weight() * (1 + Math.log(counts.get(id)));
            definitions.get(id).stream().filter(elsewhere).limit(DEFINITIONS_PER_NAME)
                    .forEach(d -> found.computeIfAbsent(Relation.USES.label() + " " + d.id(),
                            k -> new Evidence(d, Relation.USES)).add(id, evidence));
        }
    }

    /** Indexed test files named by the target language's test globs with the target file's stem. */
    private void twinTests(String path, Map<String, Evidence> found) {
        String file = path.substring(path.lastIndexOf('/') + 1);
        int dot = file.lastIndexOf('.');
        if (dot <= 0) {
            return;
        }
        String stem = file.substring(0, dot);
        Language language = TABLE.language(String.valueOf(TABLE.languageOf(file))).orElse(null);
        if (language == null || isTest(path)) {
            return;
        }
        Set<String> twins = new HashSet<>();
        for (String glob : language.tests()) {
            if (glob.indexOf('*') == glob.lastIndexOf('*') && glob.indexOf('*') >= 0) {
                twins.add(glob.replace("*", stem));
            }
        }
        double best = found.values().stream().mapToDouble(e -> e.evidence).max().orElse(1);
        for (Map.Entry<String, List<ChunkInput>> e : byPath.entrySet()) {
            String name = e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
            if (twins.contains(name) && isTest(e.getKey())) {
                ChunkInput first = e.getValue().get(0);
                Evidence ev = found.computeIfAbsent(Relation.TEST.label() + " " + first.id(),
                        k -> new Evidence(first, Relation.TEST));
                ev.evidence = Math.max(ev.evidence, best); // named after the target: as strong as the best use
            }
        }
    }

    // ------------------------------------------------------------------ ranking

    /** A related chunk: its relation, the names that link it and their summed evidence. */
    private static final class Evidence {
        final ChunkInput chunk;
        final Relation relation;
        final Set<String> names = new LinkedHashSet<>();
        double evidence;

        Evidence(ChunkInput chunk, Relation relation) {
            this.chunk = chunk;
            this.relation = relation;
        }

        void add(String name, double e) {
            names.add(name);
            evidence += e;
        }

        double score() {
            return evidence * relation.weight();
        }
    }

    /**
     * Best first, the best chunk of each file before any file's second (files in the order of their best chunk), each
     * chunk once, under its strongest relation.
     */
    private static List<Evidence> diversified(java.util.Collection<Evidence> all) {
        List<Evidence> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingDouble(Evidence::score).reversed()
                .thenComparing(e -> pathOf(e.chunk)).thenComparingInt(e -> startLine(e.chunk)));
        List<Evidence> first = new ArrayList<>();
        List<Evidence> rest = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Set<String> chunks = new HashSet<>();
        for (Evidence e : sorted) {
            if (chunks.add(e.chunk.id())) { // a chunk related twice (it uses the target and the target uses it) once
                (seen.add(pathOf(e.chunk)) ? first : rest).add(e);
            }
        }
        first.addAll(rest);
        return first;
    }

    // ------------------------------------------------------------------ names

    /** The simple name a definition chunk defines ({@code retry} of {@code RetryPolicy.retry}), or null. */
    static String definedName(ChunkInput c) {
        String type = c.metadata().getOrDefault(ChunkMetadata.SYMBOL_TYPE, "");
        String symbol = c.metadata().getOrDefault(ChunkMetadata.SYMBOL, "");
        if (!DEFINITIONS.contains(type) || symbol.isEmpty()) {
            return null;
        }
        int paren = symbol.indexOf('(');
        String s = paren >= 0 ? symbol.substring(0, paren) : symbol;
        String last = null;
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            last = m.group();
        }
        // a keyword of one language is a name in another (Kotlin's Table.double, a PHP method with): kept here
        return last != null && last.length() >= MIN_NAME_CHARS ? last : null;
    }

    /**
     * Whether a definition is private to its file: its declaration says {@code private} (Java, Kotlin, Scala, C#,
     * PHP, Swift), or its name starts with one underscore (Python's convention; not {@code __init__}).
     */
    static boolean isPrivate(ChunkInput c, String name) {
        String signature = " " + c.metadata().getOrDefault(ChunkMetadata.SIGNATURE, "") + " ";
        return signature.contains(" private ") || signature.contains(" fileprivate ")
                || name.startsWith("_") && !name.startsWith("__");
    }

    /** Whether {@code s} is an identifier worth looking up: long enough, not a keyword or a stop word. */
    static boolean isName(String s) {
        return s.length() >= MIN_NAME_CHARS && IDENTIFIER.matcher(s).matches()
                && !NOT_NAMES.contains(s.toLowerCase(Locale.ROOT));
    }

    /** The compound the code tokenizer indexes for an identifier: lower case, without underscores and dollars. */
    static String compound(String identifier) {
        StringBuilder b = new StringBuilder(identifier.length());
        for (int i = 0; i < identifier.length(); i++) {
            char ch = identifier.charAt(i);
            if (ch != '_' && ch != '$') {
                b.append(Character.toLowerCase(ch));
            }
        }
        return b.toString();
    }

    /** Whether an identifier joins several words: {@code snake_case}, or a case change inside ({@code retryPolicy}). */
    static boolean severalWords(String identifier) {
        String core = identifier.replaceAll("^[_$]+|[_$]+$", "");
        if (core.indexOf('_') > 0) {
            return true;
        }
        for (int i = 1; i < core.length(); i++) {
            if (Character.isUpperCase(core.charAt(i)) && Character.isLowerCase(core.charAt(i - 1))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The code of a chunk, for the identifiers it uses: its {@code body} and {@code signature} fields (without its
     * doc comment, whose words name things it does not use) when the chunker wrote them, else {@link #sourceText}.
     */
    static String codeText(ChunkInput c) {
        String body = c.fields().get(ChunkMetadata.FIELD_BODY);
        if (body == null) {
            return sourceText(c);
        }
        return c.fields().getOrDefault(ChunkMetadata.FIELD_SIGNATURE, "") + "\n" + body;
    }

    /** The chunk's text without the title line the chunkers write first (the symbol, "(part i of n)"). */
    static String sourceText(ChunkInput c) {
        String symbol = c.metadata().get(ChunkMetadata.SYMBOL);
        String text = c.text();
        int nl = text.indexOf('\n');
        if (symbol != null && !symbol.isEmpty() && nl >= 0 && text.startsWith(symbol)
                && ChunkMetadata.TYPE_CODE.equals(c.metadata().get(ChunkMetadata.TYPE))) {
            return text.substring(nl + 1);
        }
        return text;
    }

    private static Set<String> notNames() {
        Set<String> s = new HashSet<>(CodeDomainTokenizer.javaKeywords());
        s.addAll(CodeDomainTokenizer.englishStopWords());
        s.addAll(Set.of("self", "cls", "def", "func", "fn", "let", "var", "val", "const", "impl", "pub", "mod",
                "struct", "init", "__init__", "main", "end", "nil", "none", "undefined", "string", "object"));
        return Set.copyOf(s);
    }

    static boolean isTest(String path) {
        return TABLE.kindsOf(path).contains("test");
    }

    private static String pathOf(ChunkInput c) {
        return c.metadata().getOrDefault(ChunkMetadata.PATH, c.id());
    }

    private static int startLine(ChunkInput c) {
        return intOr(c.metadata().get(ChunkMetadata.START_LINE), 0);
    }

    private static int endLine(ChunkInput c) {
        return intOr(c.metadata().get(ChunkMetadata.END_LINE), startLine(c));
    }

    private static int intOr(String s, int fallback) {
        try {
            return s == null ? fallback : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static String describe(ChunkInput c) {
        String symbol = c.metadata().getOrDefault(ChunkMetadata.SYMBOL, "");
        return symbol.isEmpty() ? pathOf(c) + ":" + startLine(c) + "-" + endLine(c) : symbol;
    }
}
