package dev.neuraltext.cli.eval;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The generator of the {@code find_related} evaluation set: for a repository, definitions and the files that reference
 * each by name, derived mechanically from the index and the files, with no judgement involved:
 *
 * <ol>
 *   <li>The files are those the index holds (the {@code DirectoryIngestor} defaults of {@code neural-text index}: no
 *       test sources, no ignored or hidden files), read from disk.</li>
 *   <li>A definition is a code chunk of symbol type {@code type}, {@code function} or {@code method}; its name is the
 *       last identifier of its {@code symbol} ({@code delayFor} of {@code RetryPolicy.delayFor}). Names shorter than
 *       {@value #MIN_NAME_CHARS} characters, and names defined in more than one file (ambiguous: which {@code close}
 *       does a reference mean?), are left out; so is a second definition of the same name in the file.</li>
 *   <li>The files referencing it are the other files whose text holds the name as a whole identifier (not preceded
 *       or followed by a letter, digit, {@code _} or {@code $}), case as written: what {@code grep -rlwF NAME} would
 *       list, minus the definition's own file. Definitions no other file references are left out.</li>
 *   <li>The definitions left, sorted by path, line and name, are shuffled with {@code new Random(seed)} and the first
 *       {@code perRepository} kept.</li>
 * </ol>
 *
 * Because the answers are found by exact name match, {@code grep -w} for the name is right by construction: the
 * report gives it as the ceiling beside the baseline that an assistant would run ({@code grep -F}, substrings too).
 * Stateless.
 */
final class RelatedDataset {

    /** Shortest definition name kept. */
    static final int MIN_NAME_CHARS = 4;
    /** Symbol types that make a chunk a definition. */
    static final Set<String> DEFINITION_TYPES = Set.of(ChunkMetadata.SYMBOL_TYPE_TYPE,
            ChunkMetadata.SYMBOL_TYPE_FUNCTION, ChunkMetadata.SYMBOL_TYPE_METHOD);

    private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*");

    private RelatedDataset() {
    }

    /**
     * One query: the definition (its file, symbol and first line) and the other files that name it.
     *
     * @param referencing sorted
     */
    record Query(String repository, String path, String symbol, String name, int line, List<String> referencing) {
        Query {
            referencing = List.copyOf(referencing);
        }
    }

    /**
     * The queries of one repository.
     *
     * @param texts  the indexed files' texts by path ({@link #texts})
     * @param chunks the index's chunks
     */
    static List<Query> generate(String repository, Map<String, String> texts, List<ChunkInput> chunks,
            int perRepository, long seed) {
        // name -> files defining it, and the first definition chunk of each (path, name)
        Map<String, Set<String>> definingFiles = new HashMap<>();
        Map<String, ChunkInput> first = new LinkedHashMap<>();
        List<ChunkInput> sorted = new ArrayList<>(chunks);
        sorted.sort(Comparator.comparing((ChunkInput c) -> c.metadata().getOrDefault(ChunkMetadata.PATH, ""))
                .thenComparingInt(RelatedDataset::line).thenComparing(ChunkInput::id));
        for (ChunkInput c : sorted) {
            String name = name(c);
            if (name == null) {
                continue;
            }
            String path = c.metadata().get(ChunkMetadata.PATH);
            definingFiles.computeIfAbsent(name, n -> new HashSet<>()).add(path);
            first.putIfAbsent(path + "\u0000" + name, c);
        }
        Map<String, Set<String>> identifiersByFile = new HashMap<>();
        texts.forEach((path, text) -> identifiersByFile.put(path, identifiers(text)));
        List<Query> candidates = new ArrayList<>();
        for (ChunkInput c : first.values()) {
            String name = name(c);
            String path = c.metadata().get(ChunkMetadata.PATH);
            if (definingFiles.get(name).size() != 1) {
                continue;
            }
            List<String> referencing = new ArrayList<>();
            identifiersByFile.forEach((p, ids) -> {
                if (!p.equals(path) && ids.contains(name)) {
                    referencing.add(p);
                }
            });
            if (referencing.isEmpty()) {
                continue;
            }
            Collections.sort(referencing);
            candidates.add(new Query(repository, path, c.metadata().get(ChunkMetadata.SYMBOL), name, line(c),
                    referencing));
        }
        candidates.sort(Comparator.comparing(Query::path).thenComparingInt(Query::line).thenComparing(Query::name));
        Collections.shuffle(candidates, new Random(seed));
        return List.copyOf(candidates.subList(0, Math.min(perRepository, candidates.size())));
    }

    /** The definition name of a chunk (see the class doc), or null. */
    static String name(ChunkInput c) {
        Map<String, String> m = c.metadata();
        String symbol = m.getOrDefault(ChunkMetadata.SYMBOL, "");
        if (!ChunkMetadata.TYPE_CODE.equals(m.get(ChunkMetadata.TYPE))
                || !DEFINITION_TYPES.contains(m.getOrDefault(ChunkMetadata.SYMBOL_TYPE, "")) || symbol.isEmpty()) {
            return null;
        }
        String last = null;
        Matcher ids = IDENTIFIER.matcher(symbol);
        while (ids.find()) {
            last = ids.group();
        }
        return last != null && last.length() >= MIN_NAME_CHARS ? last : null;
    }

    /** The whole identifiers of a text. */
    static Set<String> identifiers(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = IDENTIFIER.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /**
     * The baseline an assistant runs without us: the files holding the name as a substring ({@code grep -rlF NAME}),
     * or with {@code word} as a whole identifier ({@code grep -rlwF NAME}), in path order, minus the definition's file.
     */
    static List<String> grep(Map<String, String> texts, Query q, boolean word) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(texts).entrySet()) {
            if (e.getKey().equals(q.path())) {
                continue;
            }
            if (word ? identifiers(e.getValue()).contains(q.name()) : e.getValue().contains(q.name())) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    /** The indexed files' texts, by path. */
    static Map<String, String> texts(Path folder, List<ChunkInput> chunks) {
        Set<String> paths = new TreeSet<>();
        chunks.forEach(c -> paths.add(c.metadata().getOrDefault(ChunkMetadata.PATH, "")));
        paths.remove("");
        Map<String, String> out = new TreeMap<>();
        paths.forEach(p -> out.put(p, read(folder.resolve(p))));
        return out;
    }

    private static int line(ChunkInput c) {
        try {
            return Integer.parseInt(c.metadata().getOrDefault(ChunkMetadata.START_LINE, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file, e);
        }
    }
}
