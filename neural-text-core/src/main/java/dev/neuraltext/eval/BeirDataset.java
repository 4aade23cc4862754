package dev.neuraltext.eval;

import dev.neuraltext.internal.Checks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Loads a dataset in the BEIR format from a folder:
 *
 * <ul>
 *   <li>{@code corpus.jsonl}: one JSON object per line with {@code _id}, {@code title} (optional), {@code text} and an
 *       optional {@code metadata} object (its scalar values are kept as strings);</li>
 *   <li>{@code queries.jsonl}: {@code _id}, {@code text}, optional {@code metadata} (e.g. {@code type}, {@code shape},
 *       used for slicing);</li>
 *   <li>{@code qrels/<split>.tsv}: {@code query-id}, {@code corpus-id}, integer {@code score} separated by tabs, with
 *       an optional header line (the TREC form {@code qid 0 docid score} is accepted too);</li>
 *   <li>optionally {@code aliases.tsv}: {@code alias-id}, {@code canonical-id} per line (see {@link EvalDataset}).</li>
 * </ul>
 *
 * <p>Malformed lines fail with a {@link DatasetFormatException} naming the file and line. Judgments naming an unknown
 * query or document id are dropped and reported in {@link EvalDataset#warnings()} (or fail, with
 * {@link Loader#strict(boolean) strict(true)}); queries without a relevant judgment are excluded and reported.
 *
 * <p>Needs {@code com.fasterxml.jackson.core:jackson-core} on the class path (an optional dependency of
 * neural-text-core). Usage: {@code BeirDataset.load(dir)} or
 * {@code BeirDataset.loader(dir).split("dev").aliases(map).load()}. Loaders are not thread-safe; datasets are.
 */
public final class BeirDataset {

    private static final int MAX_LISTED = 5;

    private BeirDataset() {
    }

    /** Loads the {@code test} split of the dataset in {@code dir}, with {@code aliases.tsv} if present. */
    public static EvalDataset load(Path dir) {
        return loader(dir).load();
    }

    /** A loader for the dataset in {@code dir}. */
    public static Loader loader(Path dir) {
        return new Loader(dir);
    }

    /** Options for loading; defaults: split {@code test}, name = folder name, lenient about unknown ids. */
    public static final class Loader {
        private final Path dir;
        private String split = "test";
        private String name;
        private boolean strict;
        private Map<String, String> aliases;
        private Path aliasFile;

        private Loader(Path dir) {
            this.dir = Checks.notNull(dir, "dir");
        }

        /** The qrels split: {@code qrels/<split>.tsv}; default {@code test}. */
        public Loader split(String split) {
            this.split = Checks.notBlank(split, "split");
            return this;
        }

        /** The dataset name in reports; default the folder name. */
        public Loader name(String name) {
            this.name = Checks.notBlank(name, "name");
            return this;
        }

        /** Fail on judgments naming unknown ids instead of dropping and reporting them; default false. */
        public Loader strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        /** Document id to canonical id; replaces any {@code aliases.tsv}. */
        public Loader aliases(Map<String, String> aliases) {
            this.aliases = Checks.stringMap(aliases, "aliases");
            return this;
        }

        /** An alias file ({@code alias-id <TAB> canonical-id} per line); default {@code <dir>/aliases.tsv} if present. */
        public Loader aliasFile(Path file) {
            this.aliasFile = Checks.notNull(file, "aliasFile");
            return this;
        }

        /**
         * Reads the files.
         *
         * @throws DatasetFormatException for a missing file, an I/O error or a malformed line
         * @throws IllegalStateException when jackson-core is not on the class path
         */
        public EvalDataset load() {
            requireJackson();
            List<String> warnings = new ArrayList<>();
            List<EvalDocument> documents = readCorpus(dir.resolve("corpus.jsonl"));
            List<EvalQuery> queries = readQueries(dir.resolve("queries.jsonl"));
            Set<String> docIds = new HashSet<>(documents.size() * 2);
            documents.forEach(d -> docIds.add(d.id()));
            Set<String> queryIds = new HashSet<>();
            queries.forEach(q -> queryIds.add(q.id()));
            Map<String, Map<String, Integer>> judgments = readQrels(qrelsFile(), docIds, queryIds, warnings);
            Map<String, String> aliasMap = aliases;
            if (aliasMap == null) {
                Path file = aliasFile != null ? aliasFile : dir.resolve("aliases.tsv");
                aliasMap = aliasFile != null || Files.isRegularFile(file) ? readAliases(file, docIds) : Map.of();
            }
            String datasetName = name != null ? name
                    : dir.toAbsolutePath().normalize().getFileName() == null ? "dataset"
                    : dir.toAbsolutePath().normalize().getFileName().toString();
            try {
                return EvalDataset.of(datasetName, documents, queries, Qrels.of(judgments), aliasMap, warnings);
            } catch (IllegalArgumentException e) {
                throw new DatasetFormatException(dir, 0, e.getMessage(), e);
            }
        }

        private Path qrelsFile() {
            Path file = dir.resolve("qrels").resolve(split + ".tsv");
            if (!Files.isRegularFile(file)) {
                throw new DatasetFormatException(file, 0, "qrels file not found (split '" + split + "')", null);
            }
            return file;
        }

        private Map<String, Map<String, Integer>> readQrels(Path file, Set<String> docIds, Set<String> queryIds,
                List<String> warnings) {
            Map<String, Map<String, Integer>> judgments = new LinkedHashMap<>();
            List<String> unknownQueries = new ArrayList<>();
            List<String> unknownDocs = new ArrayList<>();
            long[] counts = new long[2]; // unknown query, unknown doc
            forEachLine(file, (lineNo, line) -> {
                String[] cols = line.split("\t", -1);
                if (cols.length == 1) {
                    cols = line.trim().split("\\s+");
                }
                if (lineNo == 1 && cols.length >= 3 && !isInteger(cols[cols.length - 1].trim())) {
                    return; // header
                }
                if (cols.length != 3 && cols.length != 4) {
                    throw new DatasetFormatException(file, lineNo,
                            "expected 3 tab-separated columns (query-id, corpus-id, score), got " + cols.length, null);
                }
                String q = cols[0].trim();
                String d = cols[cols.length - 2].trim();
                String s = cols[cols.length - 1].trim();
                if (q.isEmpty() || d.isEmpty()) {
                    throw new DatasetFormatException(file, lineNo, "empty query-id or corpus-id", null);
                }
                int grade;
                try {
                    grade = Integer.parseInt(s);
                } catch (NumberFormatException e) {
                    throw new DatasetFormatException(file, lineNo, "score must be an integer, got '" + s + "'", e);
                }
                if (!queryIds.contains(q)) {
                    unknown(file, lineNo, "query-id '" + q + "' is not in queries.jsonl", unknownQueries);
                    counts[0]++;
                    return;
                }
                if (!docIds.contains(d)) {
                    unknown(file, lineNo, "corpus-id '" + d + "' is not in corpus.jsonl", unknownDocs);
                    counts[1]++;
                    return;
                }
                // a pair judged twice keeps its higher grade
                judgments.computeIfAbsent(q, k -> new LinkedHashMap<>()).merge(d, grade, Math::max);
            });
            if (counts[0] > 0) {
                warnings.add(counts[0] + " judgments dropped: unknown query id (" + String.join("; ", unknownQueries)
                        + (counts[0] > MAX_LISTED ? "; ..." : "") + ")");
            }
            if (counts[1] > 0) {
                warnings.add(counts[1] + " judgments dropped: unknown corpus id (" + String.join("; ", unknownDocs)
                        + (counts[1] > MAX_LISTED ? "; ..." : "") + ")");
            }
            return judgments;
        }

        private void unknown(Path file, long lineNo, String what, List<String> listed) {
            if (strict) {
                throw new DatasetFormatException(file, lineNo, what, null);
            }
            if (listed.size() < MAX_LISTED) {
                listed.add(file.getFileName() + ":" + lineNo + " " + what);
            }
        }

        private Map<String, String> readAliases(Path file, Set<String> docIds) {
            Map<String, String> map = new LinkedHashMap<>();
            forEachLine(file, (lineNo, line) -> {
                String[] cols = line.split("\t", -1);
                if (cols.length != 2 || cols[0].isBlank() || cols[1].isBlank()) {
                    throw new DatasetFormatException(file, lineNo,
                            "expected 2 tab-separated columns (alias-id, canonical-id)", null);
                }
                String alias = cols[0].trim();
                String canonical = cols[1].trim();
                if (lineNo == 1 && !docIds.contains(alias) && !docIds.contains(canonical)) {
                    return; // header
                }
                for (String id : new String[] {alias, canonical}) {
                    if (!docIds.contains(id)) {
                        throw new DatasetFormatException(file, lineNo, "id '" + id + "' is not in corpus.jsonl", null);
                    }
                }
                map.put(alias, canonical);
            });
            return map;
        }

        private static boolean isInteger(String s) {
            try {
                Integer.parseInt(s);
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }

    static List<EvalDocument> readCorpus(Path file) {
        return readRecords(file, (id, text, line) ->
                new EvalDocument(id, line.fields().getOrDefault("title", ""), text, line.metadata()));
    }

    static List<EvalQuery> readQueries(Path file) {
        return readRecords(file, (id, text, line) -> new EvalQuery(id, text, line.metadata()));
    }

    /** Reads a JSON-lines file of records that each have a unique {@code _id} and a {@code text}. */
    private static <T> List<T> readRecords(Path file, RecordFactory<T> factory) {
        List<T> records = new ArrayList<>();
        Map<String, Long> seen = new HashMap<>();
        forEachLine(file, (lineNo, line) -> {
            JsonLines.Line l = parse(file, lineNo, line);
            String id = required(file, lineNo, l, "_id");
            String text = required(file, lineNo, l, "text");
            Long first = seen.putIfAbsent(id, lineNo);
            if (first != null) {
                throw new DatasetFormatException(file, lineNo, "duplicate _id '" + id + "' (first on line " + first
                        + ")", null);
            }
            records.add(factory.create(id, text, l));
        });
        return records;
    }

    @FunctionalInterface
    private interface RecordFactory<T> {
        T create(String id, String text, JsonLines.Line line);
    }

    private static JsonLines.Line parse(Path file, long lineNo, String line) {
        try {
            return JsonLines.parse(line);
        } catch (IllegalArgumentException e) {
            throw new DatasetFormatException(file, lineNo, e.getMessage(), e);
        }
    }

    private static String required(Path file, long lineNo, JsonLines.Line l, String field) {
        String v = l.fields().get(field);
        if (v == null || ("_id".equals(field) && v.isBlank())) {
            throw new DatasetFormatException(file, lineNo, "missing \"" + field + "\"", null);
        }
        return v;
    }

    /**
     * A symbolic link checked out as a plain file (git without symlink support writes the target path as the file's
     * content): a short one-line file whose content names an existing sibling-relative file is read as that file.
     */
    static Path followTextLink(Path file) {
        try {
            if (Files.size(file) > 4096) {
                return file;
            }
            String content = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (content.isEmpty() || content.contains("\n") || content.startsWith("{") || file.getParent() == null) {
                return file;
            }
            Path target = file.getParent().resolve(content).normalize();
            return Files.isRegularFile(target) ? target : file;
        } catch (IOException | java.nio.file.InvalidPathException e) {
            return file; // read as it is; a real problem shows when parsing it
        }
    }

    private interface LineConsumer {
        void accept(long lineNo, String line);
    }

    /** Calls {@code consumer} for every non-blank line with its 1-based number; strips a leading BOM. */
    private static void forEachLine(Path given, LineConsumer consumer) {
        if (!Files.isRegularFile(given)) {
            throw new DatasetFormatException(given, 0, "file not found", null);
        }
        Path file = followTextLink(given);
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (lineNo == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                if (!line.isBlank()) {
                    consumer.accept(lineNo, line);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            throw new DatasetFormatException(file, 0, "cannot read: " + e.getMessage(), e);
        }
    }

    private static void requireJackson() {
        try {
            Class.forName("com.fasterxml.jackson.core.JsonFactory", false, BeirDataset.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("BeirDataset needs com.fasterxml.jackson.core:jackson-core on the class "
                    + "path (an optional dependency of neural-text-core); add it to your build", e);
        }
    }

    /** Lists the {@code qrels/*.tsv} splits of a dataset folder, e.g. {@code [dev, test]}. */
    public static List<String> splits(Path dir) {
        Path qrels = dir.resolve("qrels");
        if (!Files.isDirectory(qrels)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(qrels)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tsv"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().toList();
        } catch (IOException e) {
            throw new DatasetFormatException(qrels, 0, "cannot list: " + e.getMessage(), e);
        }
    }
}
