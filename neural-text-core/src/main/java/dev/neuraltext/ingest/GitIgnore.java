package dev.neuraltext.ingest;

import java.util.ArrayList;
import java.util.List;
import dev.neuraltext.path.PathGlob;

/**
 * The rules of one {@code .gitignore} file: a tested subset of git's syntax. Blank lines and {@code #} comments are
 * ignored; {@code !} negates; each pattern is a {@link PathGlob} relative to the file's directory (a trailing
 * {@code /} matches directories only; a {@code /} elsewhere anchors to the file's directory; {@code *}, {@code ?},
 * {@code [..]} and {@code **} as in git); {@code \#}, {@code \!} and escaped trailing spaces. Not supported:
 * {@code core.excludesFile} and {@code .git/info/exclude}. Immutable.
 */
final class GitIgnore {

    record Rule(String line, PathGlob glob, boolean negate) {
    }

    private final String baseDir;
    private final List<Rule> rules;

    private GitIgnore(String baseDir, List<Rule> rules) {
        this.baseDir = baseDir;
        this.rules = List.copyOf(rules);
    }

    /**
     * Parses {@code content}, the text of the {@code .gitignore} in {@code baseDir} (relative, forward slashes,
     * "" for the root).
     */
    static GitIgnore parse(String baseDir, String content) {
        List<Rule> rules = new ArrayList<>();
        for (String raw : content.split("\r\n|\r|\n")) {
            String line = raw.stripLeading();
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            boolean negate = false;
            if (line.startsWith("!")) {
                negate = true;
                line = line.substring(1);
            } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
                line = line.substring(1);
            }
            try {
                rules.add(new Rule(raw, PathGlob.of(line), negate));
            } catch (IllegalArgumentException e) {
                // git ignores patterns it cannot use; so do we, visibly in the rule count only
                continue;
            }
        }
        return new GitIgnore(baseDir.isEmpty() || baseDir.endsWith("/") ? baseDir : baseDir + "/", rules);
    }

    /**
     * The verdict of this file on a path: {@code TRUE} ignored, {@code FALSE} re-included by a negation, null when
     * no rule matches (the last matching rule wins, as in git).
     */
    Boolean verdict(String relativePath, boolean directory) {
        if (!relativePath.startsWith(baseDir)) {
            return null;
        }
        String local = relativePath.substring(baseDir.length());
        for (int i = rules.size() - 1; i >= 0; i--) {
            Rule r = rules.get(i);
            if (directory ? r.glob().matchesFolder(local) : r.glob().matches(local)) {
                return !r.negate();
            }
        }
        return null;
    }

    /** Whether the path is ignored by a stack of files, innermost last (deeper files override shallower ones). */
    static boolean isIgnored(List<GitIgnore> stack, String relativePath, boolean directory) {
        for (int i = stack.size() - 1; i >= 0; i--) {
            Boolean v = stack.get(i).verdict(relativePath, directory);
            if (v != null) {
                return v;
            }
        }
        return false;
    }

    int size() {
        return rules.size();
    }
}
