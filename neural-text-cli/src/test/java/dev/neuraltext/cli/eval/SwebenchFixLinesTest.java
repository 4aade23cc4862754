package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunk-level gold from a tiny git repository: a pull request merged by a merge commit (its second parent is the head),
 * a squash-merged one, one that does not touch the gold file and one with no commit at all.
 */
class SwebenchFixLinesTest {

    @TempDir
    Path tmp;

    private Path repo;
    private String base;

    @BeforeEach
    void repository() throws Exception {
        assumeTrue(gitInstalled(), "git is not installed");
        repo = Files.createDirectories(tmp.resolve("src"));
        git("init", "-q", "-b", "main");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            lines.append("line ").append(i).append('\n');
        }
        Files.writeString(repo.resolve("a.py"), lines);
        Files.writeString(repo.resolve("b.py"), "other\n");
        commit("base");
        base = git("rev-parse", "HEAD").strip();
    }

    @Test
    void aMergeCommitsSecondParentGivesTheOldSideRangesAndAnInsertionPoint() throws Exception {
        git("checkout", "-q", "-b", "feature");
        String text = Files.readString(repo.resolve("a.py")).replace("line 3\nline 4\n", "LINE 3\nLINE 4\n")
                .replace("line 7\n", "line 7\ninserted\n");
        Files.writeString(repo.resolve("a.py"), text);
        commit("fix the parser");
        String head = git("rev-parse", "HEAD").strip();
        git("checkout", "-q", "main");
        Files.writeString(repo.resolve("b.py"), "other, changed on main\n");
        commit("unrelated");
        git("-c", "user.name=t", "-c", "user.email=t@t", "merge", "-q", "--no-ff", "-m",
                "Merge pull request #42 from someone/feature", "feature");

        SwebenchFixLines.FixLines fix = SwebenchFixLines.find(repo.resolve(".git"), "acme__tool-42", base,
                List.of("a.py"));

        assertThat(fix.commit()).isEqualTo(head);
        assertThat(fix.byFile()).containsOnlyKeys("a.py");
        assertThat(fix.byFile().get("a.py")).containsExactly(new SwebenchFixLines.Range(3, 4),
                new SwebenchFixLines.Range(7, 7));
        assertThat(fix.relevant("a.py", 1, 2)).isFalse();
        assertThat(fix.relevant("a.py", 4, 6)).isTrue();
        assertThat(fix.relevant("a.py", 7, 9)).isTrue();
        assertThat(fix.relevant("b.py", 1, 10)).isFalse();
    }

    @Test
    void aSquashCommitEndingWithThePullRequestNumberIsTheFix() throws Exception {
        Files.writeString(repo.resolve("a.py"), Files.readString(repo.resolve("a.py")).replace("line 10\n", ""));
        commit("Drop the last line (#43)");
        String squash = git("rev-parse", "HEAD").strip();

        SwebenchFixLines.FixLines fix = SwebenchFixLines.find(repo.resolve(".git"), "acme__tool-43", base,
                List.of("a.py"));

        assertThat(fix.commit()).isEqualTo(squash);
        assertThat(fix.byFile().get("a.py")).containsExactly(new SwebenchFixLines.Range(10, 10));
        assertThat(fix.hasGold()).isTrue();
    }

    @Test
    void noCommitOrAFixBesideTheGoldFileGivesNoChunkGold() throws Exception {
        Files.writeString(repo.resolve("b.py"), "changed\n");
        commit("Touch another file (#44)");
        // a subject naming the number elsewhere is not the fix
        commit("Follow-up to #45, nothing else");

        SwebenchFixLines.FixLines beside = SwebenchFixLines.find(repo.resolve(".git"), "acme__tool-44", base,
                List.of("a.py"));
        SwebenchFixLines.FixLines none = SwebenchFixLines.find(repo.resolve(".git"), "acme__tool-45", base,
                List.of("a.py"));

        assertThat(beside.commit()).isNotNull();
        assertThat(beside.hasGold()).isFalse();
        assertThat(none.commit()).isNull();
        assertThat(none.hasGold()).isFalse();
    }

    @Test
    void hunkHeadersGiveOldSideRanges() {
        String diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -5 +5 @@ def f():\n-a\n+b\n@@ -9,3 +9,0 @@\n"
                + "@@ -0,0 +1,2 @@\n+new\n";
        assertThat(SwebenchFixLines.oldRanges(diff)).containsExactly(new SwebenchFixLines.Range(5, 5),
                new SwebenchFixLines.Range(9, 11), new SwebenchFixLines.Range(1, 1));
        assertThat(SwebenchFixLines.pullRequest("astropy__astropy-12907")).isEqualTo(12907);
        assertThat(SwebenchFixLines.pullRequest("no-number-here")).isEqualTo(-1);
    }

    @Test
    void aChunkAnswerRanksTheFirstChunkOverlappingAChangedLine() {
        SwebenchFixLines.FixLines fix = new SwebenchFixLines.FixLines("abc",
                Map.of("pkg/a.py", List.of(new SwebenchFixLines.Range(20, 22))));
        List<Map<String, String>> chunks = List.of(
                Map.of("path", "pkg/b.py", "startLine", "20", "endLine", "22"),
                Map.of("path", "pkg/a.py", "startLine", "1", "endLine", "19"),
                Map.of("path", "pkg/a.py", "startLine", "22", "endLine", "40"));

        SwebenchHarness.Answer a = SwebenchHarness.chunkAnswer(chunks, fix, 0);

        assertThat(a.rank()).isEqualTo(3);
        assertThat(a.files()).containsExactly("pkg/b.py:20-22", "pkg/a.py:1-19", "pkg/a.py:22-40");
    }

    private void commit(String message) throws Exception {
        git("add", "-A");
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", message);
    }

    private String git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
        return out;
    }

    private static boolean gitInstalled() {
        try {
            Process p = new ProcessBuilder("git", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
