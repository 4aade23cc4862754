package dev.neuraltext.path;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of one path kind of {@code languages.yaml} ({@code pathKinds}): folder names, first-folder names, globs on
 * the file's stem and name (all on the lower-cased path), words of folder names and of the stem, and globs on the
 * name as written. Immutable.
 */
record PathKindRules(String name, Set<String> folders, Set<String> topFolders, List<PathGlob> stems,
        List<PathGlob> names, Set<String> words, List<PathGlob> namesAsWritten, List<String> queryPrefixes) {

    static final Set<String> KEYS = Set.of("folders", "topFolders", "stems", "names", "words", "namesAsWritten",
            "queryPrefixes");

    private static final Pattern STEM_WORDS = Pattern.compile("[_.-]");

    static PathKindRules of(String name, Map<String, List<String>> rules) {
        return new PathKindRules(name, Set.copyOf(lower(rules, "folders")), Set.copyOf(lower(rules, "topFolders")),
                globs(lower(rules, "stems")), globs(lower(rules, "names")), Set.copyOf(lower(rules, "words")),
                globs(rules.getOrDefault("namesAsWritten", List.of())), lower(rules, "queryPrefixes"));
    }

    private static List<String> lower(Map<String, List<String>> rules, String key) {
        return rules.getOrDefault(key, List.of()).stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
    }

    private static List<PathGlob> globs(List<String> patterns) {
        return patterns.stream().map(PathGlob::of).toList();
    }

    /** A path split once for every kind: its lower-cased folders, file name and stem, and its name as written. */
    record Path(String[] folders, String file, String stem, String written) {
        static Path of(String relativePath) {
            String lower = relativePath.toLowerCase(Locale.ROOT);
            String[] segments = lower.split("/");
            String file = segments[segments.length - 1];
            String stem = file.contains(".") ? file.substring(0, file.indexOf('.')) : file;
            return new Path(java.util.Arrays.copyOf(segments, segments.length - 1), file, stem,
                    relativePath.substring(relativePath.lastIndexOf('/') + 1));
        }
    }

    boolean matches(Path p) {
        for (int i = 0; i < p.folders().length; i++) {
            String s = p.folders()[i];
            if (folders.contains(s) || words.contains(s) || i == 0 && topFolders.contains(s)) {
                return true;
            }
        }
        if (any(stems, p.stem()) || any(names, p.file()) || any(namesAsWritten, p.written())) {
            return true;
        }
        if (!words.isEmpty()) {
            for (String word : STEM_WORDS.split(p.stem())) {
                if (words.contains(word)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean any(List<PathGlob> globs, String name) {
        for (PathGlob g : globs) {
            if (g.matches(name)) {
                return true;
            }
        }
        return false;
    }
}
