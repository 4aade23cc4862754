package dev.neuraltext.ingest;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.Chunker;
import dev.neuraltext.chunk.ExtractionResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Loads test fixtures from {@code src/test/resources/ingest/}. */
final class Fixtures {

    private Fixtures() {
    }

    static String read(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/ingest/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Chunks a fixture as if it lived at {@code path}. */
    static List<ChunkInput> chunk(Chunker chunker, String fixture, String path) {
        return chunker.chunk(new ExtractionResult(path, read(fixture), Map.of(ChunkMetadata.PATH, path), Map.of()));
    }

    static Map<String, ChunkInput> byId(List<ChunkInput> chunks) {
        return chunks.stream().collect(Collectors.toMap(ChunkInput::id, c -> c, (a, b) -> {
            throw new AssertionError("duplicate id " + a.id());
        }, java.util.LinkedHashMap::new));
    }
}
