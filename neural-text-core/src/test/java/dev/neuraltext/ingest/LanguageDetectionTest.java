package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Languages by extension, name and shebang for the 19 languages; their test-source patterns; no-provider fallback. */
class LanguageDetectionTest {

    @TempDir
    Path root;

    @Test
    void everyExtensionOfTheNineteenLanguagesHasALanguage() {
        Map<String, String> expected = Map.ofEntries(Map.entry("A.java", "java"), Map.entry("a.kt", "kotlin"),
                Map.entry("b.kts", "kotlin"), Map.entry("a.scala", "scala"), Map.entry("a.sc", "scala"),
                Map.entry("a.py", "python"), Map.entry("a.pyi", "python"), Map.entry("a.ts", "typescript"),
                Map.entry("a.tsx", "tsx"), Map.entry("a.js", "javascript"), Map.entry("a.jsx", "javascript"),
                Map.entry("a.mjs", "javascript"), Map.entry("a.go", "go"), Map.entry("a.rs", "rust"),
                Map.entry("a.c", "c"), Map.entry("a.h", "c"), Map.entry("a.cc", "cpp"), Map.entry("a.cpp", "cpp"),
                Map.entry("a.hpp", "cpp"), Map.entry("a.cs", "csharp"), Map.entry("a.rb", "ruby"),
                Map.entry("a.php", "php"), Map.entry("a.swift", "swift"), Map.entry("a.ex", "elixir"),
                Map.entry("a.exs", "elixir"), Map.entry("A.hs", "haskell"), Map.entry("a.lua", "lua"),
                Map.entry("a.zig", "zig"), Map.entry("a.sh", "shell"), Map.entry("a.bash", "shell"),
                Map.entry("Gemfile", "ruby"), Map.entry("Rakefile", "ruby"));
        expected.forEach((file, language) -> assertThat(DirectoryIngestor.languageOf(file)).as(file).isEqualTo(language));
        for (String language : expected.values()) {
            if (!language.equals("java") && !language.equals("zig")) {
                assertThat(DirectoryIngestor.SYNTAX_LANGUAGES).contains(language);
            }
        }
        // no tree-sitter-zig artifact on Maven Central: zig is indexed, as plain-text windows
        assertThat(DirectoryIngestor.SYNTAX_LANGUAGES).doesNotContain("zig", "java", "markdown", "text");
    }

    @Test
    void shebangsNameTheirLanguage() {
        assertThat(lang("#!/usr/bin/env bash\necho hi\n")).isEqualTo("shell");
        assertThat(lang("#!/usr/bin/python3\nprint(1)\n")).isEqualTo("python");
        assertThat(lang("#!/usr/bin/env node\n")).isEqualTo("javascript");
        assertThat(lang("#!/usr/bin/env ruby\n")).isEqualTo("ruby");
        assertThat(lang("#!/usr/bin/env elixir\n")).isEqualTo("elixir");
        assertThat(lang("#!/usr/bin/env runhaskell\n")).isEqualTo("haskell");
        assertThat(lang("#!/usr/bin/env lua\n")).isEqualTo("lua");
    }

    private static String lang(String content) {
        return DirectoryIngestor.extensionlessLanguage(content.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void testSourcesOfEachLanguageAreSkippedByDefault() throws IOException {
        List<String> tests = List.of("lib/greeter_spec.rb", "src/CartSpec.kt", "src/LedgerSuite.scala",
                "Sources/AppTests.swift", "queue_test.go", "test_buffer.c", "spec/helper.rb", "web/__tests__/a.js",
                "src/cart.spec.ts", "test_inventory.py", "test/stack_test.exs", "Tests/AppTests/A.swift");
        List<String> sources = List.of("lib/greeter.rb", "src/Cart.kt", "src/Ledger.scala", "Sources/App.swift",
                "queue.go", "buffer.c", "lib/stack.ex", "src/Parse.hs", "lua/timer.lua", "src/main.zig", "bin/run.sh");
        for (String f : tests) {
            write(f);
        }
        for (String f : sources) {
            write(f);
        }
        ScanResult scan = DirectoryIngestor.builder(root).build().scan();
        assertThat(scan.files()).extracting(SourceFile::path).containsExactlyInAnyOrderElementsOf(sources);
        assertThat(scan.skipped()).noneMatch(s -> s.reason() == SkipReason.UNSUPPORTED_TYPE);
    }

    @Test
    void withoutASyntaxChunkerOnTheClassPathTheNineteenLanguagesAreWindows() throws IOException {
        write("Temperature.swift");
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        SourceFile swift = ingestor.scan().files().get(0);
        List<ChunkInput> chunks = ingestor.chunk(swift).chunks();
        assertThat(chunks).isNotEmpty().allSatisfy(c -> assertThat(c.metadata())
                .containsEntry(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_TEXT)
                .containsEntry(ChunkMetadata.LANGUAGE, "swift"));
        assertThat(ingestor.chunkingConfiguration()).startsWith("chunkers-v2 ").endsWith(" syntax=none");
    }

    private void write(String rel) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "x = 1\n");
    }
}
