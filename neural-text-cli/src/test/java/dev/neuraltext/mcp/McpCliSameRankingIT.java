package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP server's {@code search} tool ranks as {@code neural-text search} does on the same index, chunk by chunk and
 * file by file ({@code groupBy: "file"} and {@code --group-by file}): both go through the same retriever, ranking stage
 * and file grouping. The server and the CLI are separate {@code java -jar} processes.
 */
class McpCliSameRankingIT {

    @TempDir
    Path tmp;

    private static final List<String> QUERIES = List.of("backoffDelay", "RetryPolicy",
            "how long to wait between attempts", "publishing the artifacts", "exponential backoff retries");

    @Test
    @SuppressWarnings("unchecked")
    void theSearchToolAndTheCliReturnTheSameRanking() throws Exception {
        Path root = McpServerIT.tree(tmp.resolve("root"));
        McpServerIT.write(root, "src/main/java/com/acme/retry/Backoff.java", """
                package com.acme.retry;

                /** Backoff strategies for retries. */
                public interface Backoff {
                    /** The delay before the given attempt. */
                    long delay(int attempt);
                }
                """);
        try (McpServerIT.Server s = McpServerIT.client(root, new ArrayList<>())) {
            McpServerIT.awaitReady(s.client());
            List<String> differing = new ArrayList<>();
            for (String q : QUERIES) {
                McpSchema.CallToolResult r = McpServerIT.call(s.client(), "search",
                        Map.of("query", q, "limit", 5, "budget", 0));
                List<String> mcpIds = ((List<Map<String, Object>>) McpServerIT.structured(r).get("hits")).stream()
                        .map(h -> (String) h.get("id")).toList();
                JsonNode cli = cli(root, "search", "--index", root.resolve(".neural-text").toString(), "--no-dense",
                        "--limit", "5", "--json", q);
                List<String> cliIds = new ArrayList<>();
                cli.get("hits").forEach(h -> cliIds.add(h.get("id").asText()));
                assertThat(mcpIds).as("query '%s'", q).isNotEmpty().isEqualTo(cliIds);

                // the default answer is packed into 2,000 tokens, as search --budget 2000 packs it: same hits, same
                // reading order, same text
                McpSchema.CallToolResult packed = McpServerIT.call(s.client(), "search", Map.of("query", q, "limit", 5));
                List<Map<String, Object>> packedHits = (List<Map<String, Object>>) McpServerIT.structured(packed)
                        .get("hits");
                JsonNode cliPacked = cli(root, "search", "--index", root.resolve(".neural-text").toString(),
                        "--no-dense", "--limit", "5", "--budget", "2000", "--json", q);
                List<String> cliPackedTexts = new ArrayList<>();
                cliPacked.get("hits").forEach(h -> cliPackedTexts.add(h.get("id").asText() + "\n"
                        + h.get("text").asText()));
                assertThat(packedHits.stream().map(h -> h.get("id") + "\n" + h.get("text")).toList())
                        .as("packed '%s'", q).isNotEmpty().isEqualTo(cliPackedTexts);
                assertThat((Map<String, Object>) McpServerIT.structured(packed).get("budget")).containsEntry("tokens", 2000);

                McpSchema.CallToolResult f = McpServerIT.call(s.client(), "search",
                        Map.of("query", q, "limit", 3, "groupBy", "file"));
                List<String> mcpFiles = ((List<Map<String, Object>>) McpServerIT.structured(f).get("files")).stream()
                        .map(h -> (String) h.get("path")).toList();
                JsonNode cliF = cli(root, "search", "--index", root.resolve(".neural-text").toString(), "--no-dense",
                        "--limit", "3", "--group-by", "file", "--json", q);
                List<String> cliFiles = new ArrayList<>();
                cliF.get("files").forEach(h -> cliFiles.add(h.get("path").asText()));
                assertThat(mcpFiles).as("files for '%s'", q).isNotEmpty().isEqualTo(cliFiles);

                // without the ranking stage, both give the fused order
                McpSchema.CallToolResult plain = McpServerIT.call(s.client(), "search",
                        Map.of("query", q, "limit", 5, "ranking", "off", "budget", 0));
                List<Map<String, Object>> plainHits = (List<Map<String, Object>>) McpServerIT.structured(plain)
                        .get("hits");
                JsonNode cliPlain = cli(root, "search", "--index", root.resolve(".neural-text").toString(),
                        "--no-dense", "--limit", "5", "--no-ranking", "--json", q);
                List<String> cliPlainIds = new ArrayList<>();
                cliPlain.get("hits").forEach(h -> cliPlainIds.add(h.get("id").asText()));
                assertThat(plainHits.stream().map(h -> (String) h.get("id")).toList()).as("unranked '%s'", q)
                        .isNotEmpty().isEqualTo(cliPlainIds);
                if (!cliPlainIds.equals(cliIds)) {
                    differing.add(q);
                }
            }
            // the check above can fail: on some queries the ranking stage changes the order
            assertThat(differing).as("queries the ranking stage re-orders").isNotEmpty();
            McpSchema.CallToolResult bad = McpServerIT.call(s.client(), "search",
                    Map.of("query", "retry", "ranking", "best"));
            assertThat(bad.isError()).isTrue();
            // the SDK checks the tool's input schema first; the tool's own check backs it for clients that do not
            assertThat(McpServerIT.text(bad)).contains("/ranking").contains("whole-repository");
        }
    }

    private static JsonNode cli(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(McpServerIT.javaBin(), "-jar",
                Path.of(System.getProperty("nt.buildDirectory", "target"), "neural-text.jar").toAbsolutePath()
                        .toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return new ObjectMapper().readTree(out);
    }
}
