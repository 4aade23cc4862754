package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.awaitReady;
import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.client;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static dev.neuraltext.mcp.McpServerIT.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.store.IndexCheck;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code neural-text mcp} meeting a damaged saved index at start, through a real server process and the SDK client:
 * the server stays up, {@code status} names the damaged file and says it rebuilds from the files, and once rebuilt it
 * answers from a whole new generation.
 */
class McpDamagedIndexIT {

    @TempDir
    Path tmp;

    @Test
    void aFlippedByteInTheSavedChunksIsNamedInStatusAndTheServerRebuildsInTheBackground() throws Exception {
        Path root = McpServerIT.services(tmp.resolve("proj"), 800, 20);
        Path indexDir = root.resolve(".neural-text");
        try (McpServerIT.Server server = client(root, new CopyOnWriteArrayList<>())) {
            awaitReady(server.client());
        }
        String damagedGen = Files.readString(indexDir.resolve("CURRENT"), StandardCharsets.US_ASCII).trim();
        Path chunks = indexDir.resolve(damagedGen).resolve("chunks.bin");
        byte[] b = Files.readAllBytes(chunks);
        b[b.length / 3] ^= 0x08;
        Files.write(chunks, b);

        List<String> logs = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server server = client(root, logs)) {
            McpSyncClient client = server.client();
            McpSchema.CallToolResult first = call(client, "status", Map.of());
            assertThat(first.isError()).isFalse();
            String damage = (String) structured(first).get("damage");
            assertThat(damage).contains(chunks.toString()).contains("fails its checksum");
            assertThat(text(first)).contains("Damage: the saved index was damaged (")
                    .containsAnyOf("rebuilding it from the files", "rebuilt from the files");
            McpSchema.CallToolResult early = call(client, "search", Map.of("query", "handle799"));
            assertThat(early.isError()).isFalse();
            awaitReady(client);
            McpSchema.CallToolResult done = call(client, "status", Map.of());
            assertThat(text(done)).contains("rebuilt from the files").contains("State: ready");
            assertThat(structured(done)).containsEntry("files", 800);
            McpSchema.CallToolResult later = call(client, "search", Map.of("query", "handle799"));
            assertThat(structured(later)).containsEntry("indexComplete", true);
            assertThat(text(later)).startsWith("1. src/main/java/big/p19/Service799.java");
            assertThat(logs).anyMatch(l -> l.contains("(damaged: ") && l.contains("chunks.bin"));
        }
        IndexCheck.Report after = IndexCheck.check(indexDir);
        assertThat(after.healthy()).as("%s", after).isTrue();
        assertThat(after.current()).isNotEqualTo(damagedGen);
    }
}
