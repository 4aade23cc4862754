package dev.neuraltext.ingest;

import java.util.ArrayList;
import java.util.List;
import dev.neuraltext.path.PathGlob;

/**
 * The rules of one {@code .gitignore} file: a tested subset of git's syntax. Blank lines and {@code #} comments are
 * ignored; {@code !} negates; each pattern is a {@link PathGlob} relative to the file's directory (a trailing
 * {@code /} matches directories only; a {@code /} elsewhere anchors to the file's directory; {@code *}, {@code ?},
 * {@code [..]} and {@code **} as in git); {@code \#}, {@code \!} and escaped trailing spaces. Not supported:
 * {@code core.excludesFile} and {@code .git/info/exclude}. The same syntax serves {@code .neural-textignore}
 * ({@link #NEURAL_TEXT_IGNORE}). Immutable.
 */
final class GitIgnore {

    record Rule(String line, PathGlob glob, boolean negate) {
    }

    /** The file name of git's ignore files. */
    static final String GITIGNORE = ".gitignore";
    /** The file name of neural-text's own ignore files: what not to index, though git keeps it. */
    static final String NEURAL_TEXT_IGNORE = ".neural-textignore";

    private final String baseDir;
    private final List<Rule> rules;
    private final String fileName;

    private GitIgnore(String baseDir, List<Rule> rules, String fileName) {
        this.baseDir = baseDir;
        this.rules = List.copyOf(rules);
        this.fileName = fileName;
    }

    /** The name of the file the rules come from ({@link #GITIGNORE} or {@link #NEURAL_TEXT_IGNORE}). */
    String fileName() {
        return fileName;
    }

    /**
     * Parses {@code content}, the text of the {@code .gitignore} in {@code baseDir} (relative, forward slashes,
     * "" for the root).
     */
    static GitIgnore parse(String baseDir, String content) {
        return parse(baseDir, content, GITIGNORE);
    }

    /** As {@link #parse(String, String)}, for the rules of the file {@code fileName}. */
    static GitIgnore parse(String baseDir, String content, String fileName) {
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
        return new GitIgnore(baseDir.isEmpty() || baseDir.endsWith("/") ? baseDir : baseDir + "/", rules, fileName);
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
        return ignoredBy(stack, relativePath, directory) != null;
    }

    /** The file of a stack (innermost last) whose rule ignores the path, or null when none does or one re-includes it. */
    static GitIgnore ignoredBy(List<GitIgnore> stack, String relativePath, boolean directory) {
        for (int i = stack.size() - 1; i >= 0; i--) {
            Boolean v = stack.get(i).verdict(relativePath, directory);
            if (v != null) {
                return v ? stack.get(i) : null;
            }
        }
        return null;
    }

    int size() {
        return rules.size();
    }
}
