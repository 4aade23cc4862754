package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelatedCommandTest {

    private static final String POLICY = "src/main/java/com/acme/retry/RetryPolicy.java";
    private static final String CALLER = "src/main/java/com/acme/http/Resender.java";

    @TempDir
    Path tmp;

    private Path indexed(boolean withTests) throws IOException {
        Path root = CliFixture.tree(tmp.resolve("repo"));
        CliFixture.write(root, CALLER, """
                package com.acme.http;

                import com.acme.retry.RetryPolicy;

                final class Resender {
                    private final RetryPolicy policy = new RetryPolicy(100);

                    long pause(int attempt) {
                        return policy.backoffDelay(attempt);
                    }
                }
                """);
        List<String> args = new ArrayList<>(List.of("index", root.toString(), "--no-dense"));
        if (withTests) {
            args.add("--with-tests");
        }
        assertThat(CliFixture.run(args.toArray(String[]::new)).exitCode()).isZero();
        return root;
    }

    private static List<String> field(JsonNode doc, String name) {
        List<String> out = new ArrayList<>();
        doc.path("hits").forEach(h -> out.add(h.path(name).asText()));
        return out;
    }

    @Test
    void aFileAnswersWithItsCallersAndTestsAsJson() throws IOException {
        Path root = indexed(true);
        String idx = root.resolve(".neural-text").toString();
        CliFixture.Result r = CliFixture.run("related", POLICY, "--index", idx, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(field(doc, "path")).contains(CALLER, "src/test/java/com/acme/retry/RetryPolicyTest.java")
                .doesNotContain(POLICY);
        int caller = field(doc, "path").indexOf(CALLER);
        assertThat(doc.path("hits").get(caller).path("relation").asText()).isEqualTo("used-by");
        assertThat(doc.path("hits").get(caller).path("names").toString()).contains("RetryPolicy");
        assertThat(doc.path("hits").get(caller).path("startLine").asInt()).isPositive();
        assertThat(doc.path("names").toString()).contains("RetryPolicy", "backoffDelay");
        assertThat(doc.path("notes")).isEmpty();
    }

    @Test
    void aLineOrASymbolNarrowsTheTargetAndAPathFromHereIsAccepted() throws IOException {
        Path root = indexed(false);
        String idx = root.resolve(".neural-text").toString();
        // line 19 lies in backoffDelay
        CliFixture.Result line = CliFixture.run("related", POLICY + ":19", "--index", idx);
        assertThat(line.exitCode()).as(line.err()).isZero();
        assertThat(line.out()).contains(CALLER).contains("used-by backoffDelay")
                .contains("names looked up: backoffDelay)");
        assertThat(line.out()).contains("note: the index holds no test sources");
        CliFixture.Result symbol = CliFixture.run("related", root.resolve(POLICY).toString(), "--symbol",
                "backoffDelay", "--index", idx, "--relations", "used-by");
        assertThat(symbol.exitCode()).as(symbol.err()).isZero();
        assertThat(symbol.out()).contains(CALLER).doesNotContain("    uses ");
    }

    @Test
    void badTargetsSayWhatIsWrong() throws IOException {
        Path root = indexed(false);
        String idx = root.resolve(".neural-text").toString();
        CliFixture.Result missing = CliFixture.run("related", "RetryPolicy.java", "--index", idx);
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("no indexed file 'RetryPolicy.java'").contains(POLICY);
        CliFixture.Result symbol = CliFixture.run("related", POLICY, "--symbol", "nope", "--index", idx);
        assertThat(symbol.exitCode()).isEqualTo(2);
        assertThat(symbol.err()).contains("defines no symbol 'nope'");
        CliFixture.Result both = CliFixture.run("related", POLICY + ":3", "--symbol", "backoffDelay", "--index", idx);
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("not both");
        CliFixture.Result relation = CliFixture.run("related", POLICY, "--relations", "callers", "--index", idx);
        assertThat(relation.exitCode()).isEqualTo(2);
        assertThat(relation.err()).contains("unknown relation 'callers'");
        CliFixture.Result noIndex = CliFixture.run("related", POLICY, "--index", tmp.resolve("none").toString());
        assertThat(noIndex.exitCode()).isEqualTo(3);
    }
}
