package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.ScanResult;
import dev.neuraltext.ingest.SkipReason;
import dev.neuraltext.ingest.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Core's DirectoryIngestor finds this module through ServiceLoader and chunks every fixture language by syntax. */
class DirectoryIngestorWiringTest {

    private static final List<String> FIXTURES = List.of("Shapes.kt", "Ledger.scala", "inventory.py", "cart.ts",
            "router.js", "queue.go", "matrix.rs", "buffer.c", "graph.cpp", "Account.cs", "greeter.rb",
            "UserRepository.php", "Temperature.swift", "stack.ex", "Parse.hs", "timer.lua", "deploy.sh");

    @TempDir
    Path root;

    @Test
    void everyFixtureLanguageIsIndexedAndChunkedBySyntax() throws IOException {
        for (String f : FIXTURES) {
            Files.writeString(root.resolve(f), SyntaxTreeChunkerLanguagesTest.fixture(f));
        }
        Files.writeString(root.resolve("build.zig"), "const std = @import(\"std\");\n");
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        ScanResult scan = ingestor.scan();

        assertThat(scan.skipped()).noneMatch(s -> s.reason() == SkipReason.UNSUPPORTED_TYPE);
        assertThat(scan.files()).hasSize(FIXTURES.size() + 1);
        for (SourceFile file : scan.files()) {
            List<ChunkInput> chunks = ingestor.chunk(file).chunks();
            if (file.language().equals("zig")) {
                // no zig grammar on Maven Central: the language table says plain-text windows
                assertThat(chunks).allSatisfy(c -> assertThat(c.metadata())
                        .containsEntry(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_TEXT));
                continue;
            }
            assertThat(chunks).as(file.path()).anySatisfy(c -> assertThat(c.metadata().get(ChunkMetadata.SYMBOL_TYPE))
                    .isIn("function", "method", "type", "module"));
        }
        assertThat(ingestor.chunkingConfiguration()).contains("syntax=treesitter-v2 rules=");
    }
}
