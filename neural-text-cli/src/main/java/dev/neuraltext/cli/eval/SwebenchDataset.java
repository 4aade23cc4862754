package dev.neuraltext.cli.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SWE-bench-style localization instances as the harness reads them: one JSON object a line with {@code instance_id},
 * {@code repo} ({@code owner/name}), {@code mirror} (the mirror folder's name, {@code owner+name}), {@code base_commit},
 * {@code created_at}, {@code problem_statement} (the issue text) and {@code gold_files} (the files the fix changed,
 * relative to the repository root). Instances are grouped by repository and kept in time order, the order in which one
 * work tree moves from base commit to base commit.
 */
record SwebenchDataset(Map<String, List<Instance>> byRepository) {

    /** One issue and the files its fix changed. */
    record Instance(String id, String repo, String mirror, String baseCommit, String createdAt, String issue,
            List<String> goldFiles) {
    }

    /**
     * Reads {@code file}; {@code only} (empty: all) keeps the repositories named by {@code owner/name}, by {@code name}
     * or by mirror folder.
     *
     * @throws IllegalArgumentException naming the file and line of anything malformed or missing
     */
    static SwebenchDataset load(Path file, Collection<String> only) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("--swebench: cannot read " + file + ": " + e.getMessage(), e);
        }
        ObjectMapper json = new ObjectMapper();
        List<Instance> all = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            JsonNode n;
            try {
                n = json.readTree(line);
            } catch (IOException e) {
                throw new IllegalArgumentException("--swebench " + file + " line " + (i + 1) + ": not JSON: "
                        + e.getMessage(), e);
            }
            List<String> gold = new ArrayList<>();
            n.path("gold_files").forEach(g -> gold.add(g.asText()));
            Instance in = new Instance(text(n, "instance_id", file, i), text(n, "repo", file, i),
                    n.hasNonNull("mirror") ? n.get("mirror").asText() : text(n, "repo", file, i).replace('/', '+'),
                    text(n, "base_commit", file, i), n.path("created_at").asText(""),
                    text(n, "problem_statement", file, i), List.copyOf(gold));
            if (gold.isEmpty()) {
                throw new IllegalArgumentException("--swebench " + file + " line " + (i + 1) + ": no gold_files");
            }
            if (only.isEmpty() || only.contains(in.repo()) || only.contains(in.mirror())
                    || only.contains(in.repo().substring(in.repo().indexOf('/') + 1))) {
                all.add(in);
            }
        }
        if (all.isEmpty()) {
            throw new IllegalArgumentException("--swebench " + file + " holds no instance"
                    + (only.isEmpty() ? "" : " of the repositories " + only));
        }
        all.sort(Comparator.comparing(Instance::repo).thenComparing(Instance::createdAt).thenComparing(Instance::id));
        Map<String, List<Instance>> by = new LinkedHashMap<>();
        for (Instance in : all) {
            by.computeIfAbsent(in.repo(), r -> new ArrayList<>()).add(in);
        }
        by.replaceAll((r, list) -> List.copyOf(list));
        return new SwebenchDataset(by);
    }

    private static String text(JsonNode n, String field, Path file, int line) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull() || v.asText().isBlank()) {
            throw new IllegalArgumentException("--swebench " + file + " line " + (line + 1) + ": missing '" + field
                    + "'");
        }
        return v.asText();
    }
}
