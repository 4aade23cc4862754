package dev.neuraltext.cli.eval;

import dev.neuraltext.NonRetriableNeuralTextException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chunk-level gold of a SWE-bench instance, read from the repository's mirror: the lines of each gold file (as it is at
 * the base commit, the version that is indexed) that the fix changed. The fix is found by the pull request number at
 * the end of the instance id: a merge commit {@code Merge pull request #N ...} (its second parent is the pull request's
 * head) or a squash commit whose subject ends with {@code (#N)}. Its changed lines are the old-side hunk ranges of
 * {@code git diff -U0 BASE FIX -- FILE}; a pure insertion counts as the old-side line it is inserted at. Among several
 * such commits, one whose history holds the base commit is preferred, then git's order (newest first). git runs in the
 * git directory itself (a bare mirror). Stateless.
 */
final class SwebenchFixLines {

    /** Lines {@code start..end} (1-based, inclusive) of a file at the base commit. */
    record Range(int start, int end) {

        boolean overlaps(int from, int to) {
            return from <= end && to >= start;
        }
    }

    /**
     * The fix found for an instance: {@code commit} is null when none was found; {@code byFile} holds the gold files the
     * fix's diff touches, each with its changed ranges (empty when no gold file is touched).
     */
    record FixLines(String commit, Map<String, List<Range>> byFile) {

        static final FixLines NONE = new FixLines(null, Map.of());

        boolean hasGold() {
            return !byFile.isEmpty();
        }

        /** Whether {@code path}'s lines {@code from..to} overlap a changed range of a gold file. */
        boolean relevant(String path, int from, int to) {
            String p = path.replace('\\', '/');
            for (Map.Entry<String, List<Range>> e : byFile.entrySet()) {
                String g = e.getKey();
                if (p.equals(g) || p.endsWith("/" + g) || g.endsWith("/" + p)) {
                    for (Range r : e.getValue()) {
                        if (r.overlaps(from, to)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
    }

    private static final Pattern PR = Pattern.compile("-(\\d+)$");
    private static final Pattern HUNK = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+\\d+(?:,\\d+)? @@");

    private SwebenchFixLines() {
    }

    /** The pull request number at the end of {@code instanceId} ({@code astropy__astropy-12907}: 12907), or -1. */
    static int pullRequest(String instanceId) {
        Matcher m = PR.matcher(instanceId);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** Finds the fix of {@code instanceId} in the git directory {@code gitDir} and the lines it changed. */
    static FixLines find(Path gitDir, String instanceId, String baseCommit, List<String> goldFiles) {
        int pr = pullRequest(instanceId);
        if (pr < 0) {
            return FixLines.NONE;
        }
        List<String> candidates = new ArrayList<>();
        String log = git(gitDir, "log", "--all", "--fixed-strings", "--grep=#" + pr, "--format=%H %P%x1f%s");
        Pattern merge = Pattern.compile("^Merge pull request #" + pr + "(\\D.*)?$");
        Pattern squash = Pattern.compile(".*\\(#" + pr + "\\)\\s*$");
        for (String line : log.split("\n")) {
            int sep = line.indexOf('\u001f');
            if (sep < 0) {
                continue;
            }
            String[] shas = line.substring(0, sep).trim().split(" ");
            String subject = line.substring(sep + 1);
            if (merge.matcher(subject).matches() && shas.length >= 3) {
                candidates.add(shas[2]);
            } else if (squash.matcher(subject).matches() && shas.length >= 1) {
                candidates.add(shas[0]);
            }
        }
        candidates.sort((a, b) -> Boolean.compare(!isAncestor(gitDir, baseCommit, a), !isAncestor(gitDir, baseCommit, b)));
        for (String fix : candidates) {
            Map<String, List<Range>> byFile = new LinkedHashMap<>();
            for (String gold : goldFiles) {
                List<Range> ranges = oldRanges(git(gitDir, "diff", "--no-color", "--no-ext-diff", "-U0", baseCommit,
                        fix, "--", gold));
                if (!ranges.isEmpty()) {
                    byFile.put(gold, List.copyOf(ranges));
                }
            }
            if (!byFile.isEmpty()) {
                return new FixLines(fix, Map.copyOf(byFile));
            }
        }
        return candidates.isEmpty() ? FixLines.NONE : new FixLines(candidates.get(0), Map.of());
    }

    /** The old-side ranges of the hunks of a {@code -U0} diff; a pure insertion after line a counts as line a. */
    static List<Range> oldRanges(String diff) {
        List<Range> out = new ArrayList<>();
        for (String line : diff.split("\n")) {
            Matcher m = HUNK.matcher(line);
            if (m.find()) {
                int start = Integer.parseInt(m.group(1));
                int count = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
                if (count == 0) {
                    int at = Math.max(1, start);
                    out.add(new Range(at, at));
                } else {
                    out.add(new Range(start, start + count - 1));
                }
            }
        }
        return out;
    }

    private static String git(Path gitDir, String... args) {
        return SwebenchHarness.git(gitDir, args);
    }

    private static boolean isAncestor(Path gitDir, String ancestor, String commit) {
        try {
            git(gitDir, "merge-base", "--is-ancestor", ancestor, commit);
            return true;
        } catch (NonRetriableNeuralTextException e) {
            return false;
        }
    }
}
