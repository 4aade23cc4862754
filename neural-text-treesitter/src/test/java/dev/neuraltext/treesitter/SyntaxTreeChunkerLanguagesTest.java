package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.chunk.ExtractionResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One small fixture per language (written for these tests): the chunks' symbols, kinds, code lines and whether a
 * doc comment was kept apart from the code. Each row is {@code symbol symbolType/symbolKind startLine-endLine [doc]}.
 */
class SyntaxTreeChunkerLanguagesTest {

    static Stream<Arguments> fixtures() {
        return Stream.of(
                Arguments.of("Shapes.kt", "kotlin", List.of(
                        "Shape type/interface 6-8 doc",
                        "Shape.area method/method 7-7",
                        "Circle type/class 13-16 doc",
                        "Circle.area method/method 15-15 doc",
                        "Registry type/object 18-22",
                        "Registry.register method/method 19-21",
                        "totalArea function/function 25-27 doc")),
                Arguments.of("Ledger.scala", "scala", List.of(
                        "Entry type/class 6-6 doc",
                        "Ledger type/trait 9-11 doc",
                        "Ledger.balance method/method 10-10",
                        "MemoryLedger type/class 13-19",
                        "MemoryLedger.balance method/method 17-18 doc",
                        "Ledger~2 type/object 21-23",
                        "Ledger.empty method/method 22-22")),
                Arguments.of("inventory.py", "python", List.of(
                        "Inventory type/class 7-20 doc",
                        "Inventory.__init__ constructor/constructor 10-11",
                        "Inventory.size method/method 13-16 doc",
                        "Inventory.add_item method/method 18-20",
                        "restock function/function 23-25 doc")),
                Arguments.of("cart.ts", "typescript", List.of(
                        "CartLine type/interface 4-7 doc",
                        "Cart type/class 12-21 doc",
                        "Cart.constructor constructor/constructor 15-15",
                        "Cart.addLine method/method 18-20 doc",
                        "Currency type/enum 23-26",
                        "totalOf function/function 29-31 doc")),
                Arguments.of("router.js", "javascript", List.of(
                        "addRoute function/function 6-8 doc",
                        "Router type/class 10-15",
                        "Router.resolve method/method 12-14 doc",
                        "notFound function/function 17-19")),
                Arguments.of("queue.go", "go", List.of(
                        "Queue type/struct 10-12 doc",
                        "Queue.Push method/method 15-17 doc",
                        "New function/function 20-22 doc")),
                Arguments.of("matrix.rs", "rust", List.of(
                        "Matrix type/struct 5-9 doc",
                        "Matrix~2 type/impl 11-16",
                        "Matrix.zeros method/method 13-15 doc",
                        "Transpose type/trait 19-21 doc",
                        "Transpose.transpose method/method 20-20",
                        "Layout type/enum 23-26",
                        "helpers module/module 28-32",
                        "helpers.square function/function 29-31")),
                Arguments.of("buffer.c", "c", List.of(
                        "buffer type/struct 5-8 doc",
                        "buffer_append function/function 13-17 doc",
                        "buffer_data function/function 19-21")),
                Arguments.of("graph.cpp", "cpp", List.of(
                        "Graph type/class 6-15 doc",
                        "Graph.size method/method 11-11",
                        "Graph::addEdge function/function 18-21 doc")),
                Arguments.of("Account.cs", "csharp", List.of(
                        "Account type/class 6-20 doc",
                        "Account.Account constructor/constructor 10-13",
                        "Account.Deposit method/method 16-19 doc",
                        "IAudit type/interface 22-25",
                        "IAudit.Record method/method 24-24",
                        "Kind type/enum 27-27")),
                Arguments.of("greeter.rb", "ruby", List.of(
                        "Greeting module/module 4-20 doc",
                        "Greeting.Greeter type/class 6-19 doc",
                        "Greeting.Greeter.initialize constructor/constructor 7-9",
                        "Greeting.Greeter.hello method/method 12-14 doc",
                        "Greeting.Greeter.default method/method 16-18")),
                Arguments.of("UserRepository.php", "php", List.of(
                        "UserRepository type/class 10-24 doc",
                        "UserRepository.__construct constructor/constructor 14-17",
                        "UserRepository.find method/method 20-23 doc",
                        "helper_format function/function 26-29")),
                Arguments.of("Temperature.swift", "swift", List.of(
                        "Temperature type/struct 4-11 doc",
                        "Temperature.fahrenheit method/method 8-10 doc",
                        "Thermometer type/protocol 13-15",
                        "Thermometer.read method/method 14-14",
                        "Station type/class 17-23",
                        "Station.init constructor/constructor 18-18",
                        "Station.read method/method 20-22",
                        "roundOne function/function 26-28 doc")),
                Arguments.of("stack.ex", "elixir", List.of(
                        "Demo.Stack module/module 1-17",
                        "Demo.Stack.push function/function 9-11 doc",
                        "Demo.Stack.pop function/function 13-14",
                        "Demo.Stack.helper function/function 16-16")),
                Arguments.of("Parse.hs", "haskell", List.of(
                        "Token type/data 6-7 doc",
                        "tokenize function/function 10-14 doc",
                        "Pretty type/class 16-17")),
                Arguments.of("timer.lua", "lua", List.of(
                        "Timer.new function/function 5-7 doc",
                        "Timer:tick function/function 10-12 doc",
                        "clamp function/function 14-16")),
                Arguments.of("deploy.sh", "shell", List.of(
                        "build_release function/function 7-10 doc",
                        "upload function/function 12-14")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void chunksEveryDefinitionWithItsKindLinesAndDoc(String file, String language, List<String> expected)
            throws IOException {
        String text = fixture(file);
        List<ChunkInput> chunks = chunk(file, language, text);

        List<String> actual = chunks.stream()
                .filter(c -> !c.metadata().get(ChunkMetadata.SYMBOL_TYPE).equals(ChunkMetadata.SYMBOL_TYPE_HEADER))
                .map(SyntaxTreeChunkerLanguagesTest::row).toList();
        assertThat(actual).containsExactlyElementsOf(expected);
        for (ChunkInput c : chunks) {
            assertThat(c.metadata()).containsEntry(ChunkMetadata.LANGUAGE, language).containsEntry(ChunkMetadata.PATH,
                    file);
            assertThat(c.id()).startsWith(file + "#");
            String doc = c.fields().get(ChunkMetadata.FIELD_DOC);
            if (doc != null && !language.equals("python")) {
                // the doc comment is kept apart: in the doc field and above the code in the text, not in the body
                assertThat(c.fields().get(ChunkMetadata.FIELD_BODY)).doesNotContain(doc.strip());
                assertThat(c.text()).contains(doc.strip());
            }
        }
        assertThat(chunks.stream().map(ChunkInput::id).distinct()).hasSameSizeAs(chunks);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void codeLinesOfEachChunkAreTheFilesLines(String file, String language, List<String> expected)
            throws IOException {
        String text = fixture(file);
        String[] lines = text.split("\n", -1);
        for (ChunkInput c : chunk(file, language, text)) {
            int start = Integer.parseInt(c.metadata().get(ChunkMetadata.START_LINE));
            int end = Integer.parseInt(c.metadata().get(ChunkMetadata.END_LINE));
            assertThat(start).isBetween(1, end);
            assertThat(end).isLessThanOrEqualTo(lines.length);
            // the chunk's code starts with the file's line at startLine
            assertThat(c.fields().get(ChunkMetadata.FIELD_BODY).lines().findFirst().orElse(""))
                    .isEqualTo(lines[start - 1]);
        }
    }

    static String row(ChunkInput c) {
        Map<String, String> m = c.metadata();
        return c.id().substring(c.id().indexOf('#') + 1) + " " + m.get(ChunkMetadata.SYMBOL_TYPE) + "/"
                + m.get(ChunkMetadata.SYMBOL_KIND) + " " + m.get(ChunkMetadata.START_LINE) + "-"
                + m.get(ChunkMetadata.END_LINE) + (c.fields().containsKey(ChunkMetadata.FIELD_DOC) ? " doc" : "");
    }

    static List<ChunkInput> chunk(String file, String language, String text) {
        return SyntaxTreeChunker.create().chunk(new ExtractionResult(file, text,
                Map.of(ChunkMetadata.PATH, file, ChunkMetadata.LANGUAGE, language), Map.of()));
    }

    static String fixture(String file) throws IOException {
        try (InputStream in = SyntaxTreeChunkerLanguagesTest.class.getResourceAsStream("/fixtures/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
