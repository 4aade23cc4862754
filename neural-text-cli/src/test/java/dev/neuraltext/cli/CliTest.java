package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {

    @TempDir
    Path tmp;

    @Test
    void searchRanksForWholeRepositoryQuestionsUnlessToldNotTo() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("ranked"));
        assertThat(CliFixture.run("index", root.toString(), "--no-dense").exitCode()).isZero();
        String idx = root.resolve(".neural-text").toString();
        CliFixture.Result ranked = CliFixture.run("search", "how is the retry delay computed", "--index", idx);
        assertThat(ranked.exitCode()).as(ranked.err()).isZero();
        assertThat(ranked.out()).contains("ranked by kind.natural");
        CliFixture.Result plain = CliFixture.run("search", "how is the retry delay computed", "--index", idx,
                "--no-ranking", "--json");
        assertThat(plain.exitCode()).as(plain.err()).isZero();
        JsonNode hits = new ObjectMapper().readTree(plain.out()).get("hits");
        assertThat(hits.size()).isPositive();
        hits.forEach(h -> assertThat(h.get("rankSignals").size()).as(h.toString()).isZero());
        assertThat(plain.out()).doesNotContain("ranked by");
    }

    @Test
    void searchWithABudgetPacksTheAnswerAndSaysWhatTheRestCosts() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("packed"));
        assertThat(CliFixture.run("index", root.toString(), "--no-dense").exitCode()).isZero();
        String idx = root.resolve(".neural-text").toString();
        CliFixture.Result text = CliFixture.run("search", "backoffDelay", "--index", idx, "--budget", "100");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java:")
                .containsPattern("\\d+ results? in \\d+ tokens \\(budget 100\\), \\d+ above threshold");
        CliFixture.Result json = CliFixture.run("search", "backoffDelay", "--index", idx, "--budget", "2000", "--json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(json.out());
        assertThat(doc.get("budget").get("tokens").asInt()).isEqualTo(2000);
        assertThat(doc.get("budget").get("used").asInt()).isPositive().isLessThanOrEqualTo(2000);
        JsonNode top = doc.get("hits").get(0);
        assertThat(top.get("text").asText()).startsWith("src/main/java/com/acme/retry/RetryPolicy.java:")
                .contains("backoffDelay");
        assertThat(top.get("tokens").asInt()).isPositive();

        CliFixture.Result tooSmall = CliFixture.run("search", "backoffDelay", "--index", idx, "--budget", "50");
        assertThat(tooSmall.exitCode()).isEqualTo(2);
        assertThat(tooSmall.err()).contains("--budget: token budget must be at least 100, got 50");
        CliFixture.Result byFile = CliFixture.run("search", "backoffDelay", "--index", idx, "--budget", "500",
                "--group-by", "file");
        assertThat(byFile.exitCode()).isEqualTo(2);
        assertThat(byFile.err()).contains("--budget packs chunks; it does not combine with --group-by file");
    }

    @Test
    void indexThenSearchThenIncrementalUpdate() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("proj"));
        CliFixture.Result index = CliFixture.run("index", root.toString(), "--no-dense");
        assertThat(index.exitCode()).as(index.err()).isZero();
        // RetryPolicy: type + constructor + method; HttpClientConfig: type + method; guide.md: 3 sections
        assertThat(index.out()).contains("files:   3 (java 2, markdown 1); 3 added, 0 modified, 0 deleted, 0 unchanged")
                .contains("chunks:  8 (section 3, type 2, constructor 1, method 2)".replace(
                        "section 3, type 2, constructor 1, method 2", "section 3, method 2, type 2, constructor 1"))
                .contains("test source 1").contains("dense:   off (BM25 only)");
        // the file manifest is committed inside the store's generation, checksummed with it
        assertThat(Files.exists(root.resolve(".neural-text/gen-1/attachment-files.tsv"))).isTrue();
        assertThat(Files.exists(root.resolve(".neural-text/files.tsv"))).isFalse();

        Path idx = root.resolve(".neural-text");
        CliFixture.Result search = CliFixture.run("search", "backoffDelay", "--index", idx.toString(), "--limit", "2",
                "--no-extend");
        assertThat(search.exitCode()).as(search.err()).isZero();
        List<String> lines = search.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo(
                " 1. src/main/java/com/acme/retry/RetryPolicy.java:18  RetryPolicy.backoffDelay  (method)");
        assertThat(lines.get(1)).startsWith("    score 1.000  bm25 #1 (");
        assertThat(search.out()).contains("    | public long backoffDelay(int attempt) {")
                .containsPattern("2 results, \\d+ above threshold  \\[bm25; \\d+ ms\\]");

        CliFixture.Result filtered = CliFixture.run("search", "retry backoff", "--index", idx.toString(),
                "--filter", "type == 'doc'", "--json");
        assertThat(filtered.exitCode()).as(filtered.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(filtered.out());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("query", "index", "legs", "summary", "returned", "totalAboveThreshold",
                "extended", "reranked", "tookMs", "notes", "hits");
        assertThat(json.get("legs").toString()).isEqualTo("[\"bm25\"]");
        JsonNode top = json.get("hits").get(0);
        List<String> hitFields = new ArrayList<>();
        top.fieldNames().forEachRemaining(hitFields::add);
        assertThat(hitFields).containsExactly("rank", "id", "path", "startLine", "endLine", "symbol", "symbolType",
                "score", "fusedScore", "legs", "rankSignals", "metadata", "listMetadata", "snippet", "text");
        assertThat(top.get("id").asText()).isEqualTo("docs/guide.md#Guide > Retries");
        assertThat(top.get("startLine").asInt()).isEqualTo(7);
        assertThat(top.get("legs").get("bm25").get("rank").asInt()).isEqualTo(1);
        assertThat(top.get("listMetadata").get("tags").toString()).isEqualTo("[\"retry\",\"http\"]");
        for (JsonNode hit : json.get("hits")) {
            assertThat(hit.get("metadata").get("type").asText()).isEqualTo("doc");
        }

        // incremental: change one file, delete another
        CliFixture.write(root, "src/main/java/com/acme/http/HttpClientConfig.java", """
                package com.acme.http;

                /** Connection settings of the HTTP client. */
                public record HttpClientConfig(String host, int port) {
                }
                """);
        Files.delete(root.resolve("docs/guide.md"));
        CliFixture.Result again = CliFixture.run("index", root.toString(), "--no-dense");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).contains("0 added, 1 modified, 1 deleted, 1 unchanged")
                .contains("chunks:  4 (").contains("; 1 indexed now, 4 deleted");
        CliFixture.Result gone = CliFixture.run("search", "jitter", "--index", idx.toString(), "--json");
        assertThat(new ObjectMapper().readTree(gone.out()).get("hits")).isEmpty();
    }

    @Test
    void badInputGetsAMessageAndANonZeroExitNeverAStackTrace() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("p2"));
        Path idx = root.resolve(".neural-text");

        CliFixture.Result missingFolder = CliFixture.run("index", tmp.resolve("nope").toString(), "--no-dense");
        assertThat(missingFolder.exitCode()).isEqualTo(2);
        assertThat(missingFolder.err()).contains("folder not found:").doesNotContain("\tat ");

        CliFixture.Result noIndex = CliFixture.run("search", "x", "--index", idx.toString());
        assertThat(noIndex.exitCode()).isEqualTo(3);
        assertThat(noIndex.err()).contains("no index in").contains("neural-text index <folder>");

        assertThat(CliFixture.run("index", root.toString(), "--no-dense").exitCode()).isZero();

        CliFixture.Result empty = CliFixture.run("search", "  ", "--index", idx.toString());
        assertThat(empty.exitCode()).isEqualTo(2);
        assertThat(empty.err()).contains("the query is empty");

        CliFixture.Result badModel = CliFixture.run("search", "retry", "--index", idx.toString(), "--model", "bert-huge");
        assertThat(badModel.exitCode()).isEqualTo(2);
        assertThat(badModel.err()).contains("--model").contains("'bert-huge'").contains("bge-small-en-v1.5")
                .doesNotContain("\tat ");
        assertThat(CliFixture.run("index", root.toString(), "--model", "e5-large").exitCode()).isEqualTo(2);

        CliFixture.Result limit0 = CliFixture.run("search", "retry", "--index", idx.toString(), "--limit", "0");
        assertThat(limit0.exitCode()).isEqualTo(2);
        assertThat(limit0.err()).contains("--limit must be at least 1, got 0");

        CliFixture.Result badFilter = CliFixture.run("search", "retry", "--index", idx.toString(), "--filter",
                "type == ");
        assertThat(badFilter.exitCode()).isEqualTo(2);
        assertThat(badFilter.err()).contains("malformed --filter: column").contains("^").doesNotContain("\tat ");

        CliFixture.Result badLeg = CliFixture.run("search", "retry", "--index", idx.toString(), "--legs", "bm25,foo");
        assertThat(badLeg.exitCode()).isEqualTo(2);
        assertThat(badLeg.err()).contains("unknown leg 'foo'");

        // corrupt the store: search refuses with a message, index rebuilds
        try (var files = Files.walk(idx)) {
            for (Path p : files.filter(p -> p.getFileName().toString().equals("chunks.bin")).toList()) {
                byte[] b = Files.readAllBytes(p);
                b[b.length / 2] ^= 0x5A;
                Files.write(p, b);
            }
        }
        CliFixture.Result corrupt = CliFixture.run("search", "retry", "--index", idx.toString());
        assertThat(corrupt.exitCode()).isEqualTo(3);
        assertThat(corrupt.err()).contains("is unreadable").contains("rebuild it").doesNotContain("\tat ");
        CliFixture.Result rebuild = CliFixture.run("index", root.toString(), "--no-dense");
        assertThat(rebuild.exitCode()).as(rebuild.err()).isZero();
        assertThat(rebuild.err()).contains("note: rebuilding the index");
        assertThat(CliFixture.run("search", "retry", "--index", idx.toString()).exitCode()).isZero();
    }

    @Test
    void demoIndexesAndAnswersInOneStep() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("p3"));
        CliFixture.Result demo = CliFixture.run("demo", root.toString(), "how long to wait between attempts",
                "--no-dense", "--limit", "3");
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        assertThat(demo.out()).contains("Indexed ").contains("Query: how long to wait between attempts")
                .contains("RetryPolicy").contains("above threshold");
    }
}
