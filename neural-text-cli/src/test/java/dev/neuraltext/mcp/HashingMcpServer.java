package dev.neuraltext.mcp;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.testing.HashingEmbedder;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code neural-text mcp} as a process of its own, exactly as the CLI runs it, except that its dense model is the
 * deterministic {@link HashingEmbedder} (fast, the same vectors in every process), so that tests can compare a live
 * index's dense vectors with a fresh index's and kill the server in the middle of a backfill. The system property
 * {@code nt.test.embedDelayMillis} slows every embedding batch down by that many ms (a backfill long enough to be
 * killed in its middle).
 */
public final class HashingMcpServer {

    private HashingMcpServer() {
    }

    /** The embedder both the server process and the tests' fresh indexes use. */
    static Embedder embedder() {
        long delay = Long.getLong("nt.test.embedDelayMillis", 0);
        HashingEmbedder hashing = HashingEmbedder.create();
        if (delay <= 0) {
            return hashing;
        }
        return new Embedder() {
            @Override
            public List<float[]> embed(List<String> texts, TextRole role) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return hashing.embed(texts, role);
            }

            @Override
            public int dimension() {
                return hashing.dimension();
            }

            @Override
            public String modelId() {
                return hashing.modelId();
            }
        };
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        McpCommand command = new McpCommand();
        command.modelLoader = HashingMcpServer::embedder;
        System.exit(new CommandLine(command).execute(args));
    }
}
