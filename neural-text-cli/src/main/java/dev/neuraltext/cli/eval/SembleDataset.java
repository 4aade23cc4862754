package dev.neuraltext.cli.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.neuraltext.eval.SpanTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The semble-dev benchmark as the harness reads it: repositories (a checkout folder each), their questions with file
 * and span targets, and the peer's published per-repository figures.
 *
 * <p>Inputs: a roots file ({@code name<TAB>language<TAB>folder-to-index}, one repository a line, {@code #} comments),
 * an annotations folder with {@code <name>.json} per repository (a list of {@code {query, relevant, secondary,
 * category}}, a target being a path relative to the repository root or {@code {path, start_line, end_line}}), and
 * optionally {@code published.tsv}. The repository root is the ancestor of the indexed folder named like the
 * repository (else the indexed folder itself); chunk paths are made relative to it, as targets are. Immutable.
 */
public record SembleDataset(List<Repository> repositories, Map<String, Published> published) {

    /** One repository: what is indexed and what is asked. {@code prefix} is the indexed folder inside the repository. */
    public record Repository(String name, String language, Path folder, String prefix, List<Question> questions) {
    }

    /** One question; {@code targets} are the relevant then the secondary ones (all of gain 1). */
    public record Question(String query, String category, List<SpanTarget> targets) {
    }

    /** The peer's published figures for a repository ({@code NaN} where it publishes none). */
    public record Published(double semble, Map<String, Double> sembleByCategory, double codeRankHybrid, double codeRankDense) {
    }

    /** The question categories, in report order. */
    public static final List<String> CATEGORIES = List.of("architecture", "semantic", "symbol");

    /**
     * Reads the benchmark; {@code only} (empty: all) keeps the named repositories.
     *
     * @throws IllegalArgumentException naming the file and line of anything malformed or missing
     */
    public static SembleDataset load(Path roots, Path annotations, Path publishedTsv, Collection<String> only) {
        List<Repository> repos = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (Repository r : repositories(roots, only, "--semble")) {
            repos.add(new Repository(r.name(), r.language(), r.folder(), r.prefix(),
                    questions(json, annotations.resolve(r.name() + ".json"))));
        }
        Map<String, Published> published = publishedTsv == null || !Files.isRegularFile(publishedTsv) ? Map.of()
                : published(publishedTsv);
        return new SembleDataset(List.copyOf(repos), published);
    }

    /**
     * The repositories of a roots file ({@code name<TAB>language<TAB>folder}), without questions; {@code only}
     * (empty: all) keeps the named ones; {@code option} names the option in messages.
     *
     * @throws IllegalArgumentException naming the file and line of anything malformed, or a missing folder
     */
    public static List<Repository> repositories(Path roots, Collection<String> only, String option) {
        List<Repository> repos = new ArrayList<>();
        List<String> lines = read(roots, option);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 3) {
                throw new IllegalArgumentException(option + " " + roots + " line " + (i + 1)
                        + ": expected name<TAB>language<TAB>folder, got '" + line + "'");
            }
            if (!only.isEmpty() && !only.contains(f[0])) {
                continue;
            }
            Path folder = Path.of(f[2]);
            if (!Files.isDirectory(folder)) {
                throw new IllegalArgumentException(option + " " + roots + " line " + (i + 1) + ": folder not found: "
                        + folder + " (check the repository out first)");
            }
            repos.add(new Repository(f[0], f[1], folder, prefix(folder, f[0]), List.of()));
        }
        if (repos.isEmpty()) {
            throw new IllegalArgumentException(option + " " + roots + " lists no repository"
                    + (only.isEmpty() ? "" : " named " + only));
        }
        return repos;
    }

    /** The indexed folder relative to the repository root ("" when they are the same), forward slashes. */
    static String prefix(Path folder, String name) {
        Path abs = folder.toAbsolutePath().normalize();
        for (Path p = abs; p != null; p = p.getParent()) {
            if (p.getFileName() != null && p.getFileName().toString().equals(name)) {
                return p.relativize(abs).toString().replace('\\', '/');
            }
        }
        return "";
    }

    private static List<Question> questions(ObjectMapper json, Path file) {
        JsonNode root;
        try {
            root = json.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("--annotations: cannot read " + file + ": " + e.getMessage(), e);
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("--annotations: " + file + " is not a JSON list of questions");
        }
        List<Question> out = new ArrayList<>();
        for (JsonNode q : root) {
            List<SpanTarget> targets = new ArrayList<>();
            for (String key : List.of("relevant", "secondary")) {
                for (JsonNode t : q.path(key)) {
                    targets.add(t.isTextual() ? SpanTarget.file(t.asText())
                            : t.has("start_line") ? new SpanTarget(t.path("path").asText(), t.path("start_line").asInt(),
                                    t.path("end_line").asInt())
                            : SpanTarget.file(t.path("path").asText()));
                }
            }
            String query = q.path("query").asText("");
            if (query.isBlank()) {
                throw new IllegalArgumentException("--annotations: " + file + " has a question without 'query'");
            }
            out.add(new Question(query, q.path("category").asText("uncategorised"), List.copyOf(targets)));
        }
        return List.copyOf(out);
    }

    private static Map<String, Published> published(Path tsv) {
        List<String> lines = read(tsv, "--published");
        Map<String, Published> out = new LinkedHashMap<>();
        if (lines.isEmpty()) {
            return out;
        }
        List<String> header = List.of(lines.get(0).split("\t"));
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            Map<String, Double> byCategory = new LinkedHashMap<>();
            for (String c : CATEGORIES) {
                byCategory.put(c, number(header, f, "semble_" + c).orElse(Double.NaN));
            }
            out.put(f[0], new Published(number(header, f, "semble_ndcg10").orElse(Double.NaN), byCategory,
                    number(header, f, "coderankembed_hybrid_ndcg10").orElse(Double.NaN),
                    number(header, f, "coderankembed_dense_ndcg10").orElse(Double.NaN)));
        }
        return out;
    }

    private static OptionalDouble number(List<String> header, String[] row, String column) {
        int i = header.indexOf(column);
        if (i < 0 || i >= row.length) {
            return OptionalDouble.empty();
        }
        try {
            return OptionalDouble.of(Double.parseDouble(row[i]));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty(); // "nan": no question of that category
        }
    }

    private static List<String> read(Path file, String option) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
