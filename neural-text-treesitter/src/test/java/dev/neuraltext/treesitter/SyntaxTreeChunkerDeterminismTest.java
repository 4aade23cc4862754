package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * A file's chunks do not depend on what was chunked before it in the same JVM. tree-sitter-lua's external scanner
 * used to start each parse from whatever its freshly allocated state held, so a Lua file's chunks changed with the
 * files parsed before it (lazy.nvim: 486 / 482 / 476 chunks over three index runs).
 */
class SyntaxTreeChunkerDeterminismTest {

    private static final List<String> LUA_FIXTURES = List.of("lua/loader.lua", "lua/highlights.lua",
            "lua/events.lua", "timer.lua");

    /** Parses in one JVM reuse the native heap; a few rounds make a stale scanner state all but certain. */
    private static final int ROUNDS = 8;

    @Test
    void aLuaFileChunksTheSameAfterOtherLuaFilesWereChunked() {
        String loader = fixture("lua/loader.lua");
        List<String> first = chunkSignatures("lua/loader.lua", "lua", loader);
        // the file opens with code where a string may start ("= require("), before any comment or string
        assertThat(chunkRows("lua/loader.lua", "lua", loader)).containsExactly(
                "{header} header/header 1-43",
                "find function/function 16-28",
                "M.load function/function 31-37 doc",
                "M.reset function/function 39-41");
        for (int round = 0; round < ROUNDS; round++) {
            for (String other : LUA_FIXTURES) {
                chunkSignatures(other, "lua", fixture(other));
                assertThat(chunkSignatures("lua/loader.lua", "lua", loader))
                        .as("loader.lua chunked after %s, round %d", other, round).isEqualTo(first);
            }
        }
    }

    @Test
    void aLuaFileWithoutStringsOrCommentsBeforeItsFunctionsKeepsThem() {
        // the minimal trigger: an expression where a string may start ("= {"), and no string or comment after it
        // that would have overwritten the scanner's stale state before the functions
        String text = "local Clock = {}\n\nfunction Clock.now()\n  return os.time()\nend\n\n"
                + "function Clock.since(t)\n  return Clock.now() - t\nend\n\nreturn Clock\n";
        for (int i = 0; i < 4 * ROUNDS; i++) {
            assertThat(chunkRows("clock.lua", "lua", text)).as("parse %d", i).containsExactly(
                    "{header} header/header 1-11",
                    "Clock.now function/function 3-5",
                    "Clock.since function/function 7-9");
        }
    }

    @Test
    void aShebangLineStaysTheFilesFirstLine() {
        for (int i = 0; i < ROUNDS; i++) {
            assertThat(chunkRows("lua/events.lua", "lua", fixture("lua/events.lua"))).as("parse %d", i)
                    .containsExactly(
                            "{header} header/header 1-18",
                            "Events.on function/function 4-7",
                            "Events.emit function/function 9-16");
        }
    }

    @Test
    void everyLanguagesFixturesChunkTheSameInAnyOrder() {
        Map<String, String> languageOf = new LinkedHashMap<>();
        SyntaxTreeChunkerLanguagesTest.fixtures().map(Arguments::get)
                .forEach(a -> languageOf.put((String) a[0], (String) a[1]));
        LUA_FIXTURES.forEach(f -> languageOf.put(f, "lua"));
        Map<String, List<String>> first = new LinkedHashMap<>();
        languageOf.forEach((file, language) -> first.put(file, chunkSignatures(file, language, fixture(file))));
        List<String> files = new ArrayList<>(languageOf.keySet());
        Random random = new Random(20261204L);
        for (int round = 0; round < ROUNDS; round++) {
            Collections.shuffle(files, random);
            for (String file : files) {
                assertThat(chunkSignatures(file, languageOf.get(file), fixture(file)))
                        .as("%s in round %d", file, round).isEqualTo(first.get(file));
            }
        }
    }

    /** Each chunk as {@code symbol type/kind startLine-endLine [doc]}. */
    private static List<String> chunkRows(String file, String language, String text) {
        return chunks(file, language, text).stream().map(SyntaxTreeChunkerLanguagesTest::row).toList();
    }

    /** Each chunk as its id, lines and text. */
    private static List<String> chunkSignatures(String file, String language, String text) {
        return chunks(file, language, text).stream().map(c -> c.id() + " "
                + c.metadata().get(ChunkMetadata.START_LINE) + "-" + c.metadata().get(ChunkMetadata.END_LINE)
                + "\n" + c.text()).toList();
    }

    private static List<ChunkInput> chunks(String file, String language, String text) {
        List<ChunkInput> chunks = SyntaxTreeChunkerLanguagesTest.chunk(file, language, text);
        assertThat(chunks).as("%s is chunked by its syntax tree", file).noneSatisfy(c -> assertThat(c.metadata())
                .containsEntry(ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_TEXT));
        return chunks;
    }

    private static String fixture(String file) {
        try {
            return SyntaxTreeChunkerLanguagesTest.fixture(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read test fixture " + file, e);
        }
    }
}
