package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.neuraltext.cli.NeuralTextCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code neural-text eval --swebench} end to end on a real git mirror with two base commits: the work tree moves from
 * the first to the second, the index is refreshed with only the changed file, and each issue is scored against the
 * files of its own commit (a file that exists only at the second commit is found for the second issue).
 */
class SwebenchEvalCommandTest {

    @TempDir
    Path tmp;

    @Test
    void movesTheWorkTreeInTimeOrderRefreshesIncrementallyAndScoresFiles() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.createDirectories(src.resolve("pkg"));
        Files.writeString(src.resolve("pkg/parser.py"), "def parse_header(line):\n    \"\"\"Parse a header line of the "
                + "config file.\"\"\"\n    return line.split(':')\n");
        Files.writeString(src.resolve("pkg/render.py"), "def render_table(rows):\n    \"\"\"Render rows as an ascii "
                + "table.\"\"\"\n    return rows\n");
        git(src, "init", "-q");
        git(src, "add", "-A");
        git(src, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one");
        String first = git(src, "rev-parse", "HEAD").strip();
        Files.writeString(src.resolve("pkg/export.py"), "def export_csv(table):\n    \"\"\"Export a table as comma "
                + "separated values.\"\"\"\n    return table\n");
        git(src, "add", "-A");
        git(src, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "two");
        String second = git(src, "rev-parse", "HEAD").strip();
        // the second issue's fix, squash-merged: it changes line 3 of export.py (chunk-level gold)
        Files.writeString(src.resolve("pkg/export.py"), "def export_csv(table):\n    \"\"\"Export a table as comma "
                + "separated values.\"\"\"\n    return [table.header] + table\n");
        git(src, "add", "-A");
        git(src, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "Keep the header (#2)");
        String fix = git(src, "rev-parse", "HEAD").strip();
        Path mirrors = Files.createDirectories(tmp.resolve("mirrors"));
        git(tmp, "clone", "-q", "--bare", src.toString(), mirrors.resolve("acme+tool").resolve("repo").toString());

        // listed out of time order: the harness sorts by created_at
        Path instances = tmp.resolve("instances.jsonl");
        Files.writeString(instances, String.join("\n",
                instance("acme__tool-2", second, "2021-05-01T00:00:00Z",
                        "export_csv drops the header\\n\\nExporting a table as comma separated values loses rows.",
                        "pkg/export.py"),
                instance("acme__tool-1", first, "2020-01-01T00:00:00Z",
                        "parse_header fails on a config file\\n\\nA header line with two colons is split wrongly.",
                        "pkg/parser.py")) + "\n");
        Path out = tmp.resolve("out");
        int code = NeuralTextCli.run("eval", "--swebench", instances.toString(), "--mirrors", mirrors.toString(),
                "--work", tmp.resolve("work").toString(), "--no-dense", "--peers", "grep", "--out", out.toString());
        assertThat(code).isZero();
        assertThat(out.resolve("swebench.md")).content().contains("| default | 2 | 100.0 | 100.0 | 100.0 | 1.000 |");

        JsonNode repo = new ObjectMapper().readTree(out.resolve("swebench.json").toFile()).at("/repositories/0");
        assertThat(repo.at("/repo").asText()).isEqualTo("acme/tool");
        assertThat(repo.at("/instances/0/id").asText()).isEqualTo("acme__tool-1");
        assertThat(repo.at("/instances/0/answers/default/rank").asInt()).isEqualTo(1);
        // the second commit adds one file: the refresh indexes only it
        assertThat(repo.at("/instances/1/changedFiles").asInt()).isEqualTo(1);
        assertThat(repo.at("/instances/1/answers/default/files/0").asText()).isEqualTo("pkg/export.py");
        assertThat(repo.at("/systems/default/mrr@10").asDouble()).isCloseTo(1.0, within(1e-9));
        assertThat(repo.at("/systems/grep/instances").asInt()).isEqualTo(2);
        // the first commit's tree has no export.py: the first answer cannot name it
        assertThat(repo.at("/instances/0/answers/default/files").toString()).doesNotContain("export.py");
        // chunk level: only the second instance has a fix commit in the mirror; its changed line is in the first chunk
        assertThat(out.resolve("swebench.md")).content().contains("Instances with chunk gold: 1 of 2; no fix commit "
                + "found in the mirror: 1; fix does not touch a gold file: 0.");
        assertThat(repo.at("/instances/0/fixCommit").isNull()).isTrue();
        assertThat(repo.at("/instances/0/chunkAnswers").size()).isZero();
        assertThat(repo.at("/instances/1/fixCommit").asText()).isEqualTo(fix);
        assertThat(repo.at("/instances/1/changedLines/pkg~1export.py/0").asText()).isEqualTo("3-3");
        assertThat(repo.at("/instances/1/chunkAnswers/default/rank").asInt()).isEqualTo(1);
        assertThat(repo.at("/instances/1/chunkAnswers/default/chunks/0").asText()).startsWith("pkg/export.py:1-");
        assertThat(repo.at("/chunkSystems/default/instances").asInt()).isEqualTo(1);
        assertThat(repo.at("/chunkSystems/grep/instances").asInt()).isEqualTo(1);
    }

    @Test
    void aMissingMirrorsFolderIsAUsageErrorNamingTheOption() throws IOException {
        Path instances = Files.writeString(tmp.resolve("i.jsonl"), "");
        assertThat(NeuralTextCli.run("eval", "--swebench", instances.toString(), "--no-dense")).isEqualTo(2);
    }

    @Test
    void anInstanceWithoutGoldFilesIsRejectedWithItsLine() throws IOException {
        Path instances = Files.writeString(tmp.resolve("i.jsonl"), "{\"instance_id\": \"x\", \"repo\": \"a/b\", "
                + "\"base_commit\": \"abc\", \"problem_statement\": \"text\", \"gold_files\": []}\n");
        Files.createDirectories(tmp.resolve("m"));
        assertThat(NeuralTextCli.run("eval", "--swebench", instances.toString(), "--mirrors",
                tmp.resolve("m").toString(), "--no-dense")).isEqualTo(2);
    }

    private static String instance(String id, String commit, String created, String issue, String gold) {
        return "{\"instance_id\": \"" + id + "\", \"repo\": \"acme/tool\", \"mirror\": \"acme+tool\", \"base_commit\": \""
                + commit + "\", \"created_at\": \"" + created + "\", \"problem_statement\": \"" + issue
                + "\", \"gold_files\": [\"" + gold + "\"]}";
    }

    private static String git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("git %s: %s", cmd, out).isZero();
        return out;
    }
}
