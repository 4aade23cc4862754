package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.treesitter.TSLanguage;
import org.treesitter.TSNode;

/**
 * Loading grammars (every language's loads here; a missing one is a clear failure), the parse budget and the Lua
 * scanner's reset.
 */
class GrammarsTest {

    @Test
    void everyLanguagesGrammarLoadsOnThisPlatform() {
        Grammars grammars = new Grammars();
        for (LanguageRules rules : LanguageRules.load().values()) {
            assertThat(grammars.language(rules.grammar()).abiVersion()).as(rules.language()).isBetween(13, 15);
        }
    }

    @Test
    void aGrammarThatDoesNotLoadIsNamedWithItsCause() {
        Grammars grammars = new Grammars();
        assertThatThrownBy(() -> grammars.language("org.treesitter.TreeSitterNoSuchLanguage"))
                .isInstanceOf(Grammars.GrammarUnavailableException.class)
                .hasMessageContaining("org.treesitter.TreeSitterNoSuchLanguage")
                .hasMessageContaining("ClassNotFoundException");
    }

    @Test
    void charactersOutsideTheBasicPlaneAcrossReadPiecesKeepOffsetsExact() {
        // 4 KiB pieces are 2,048 UTF-16 units: shift an emoji across every piece boundary
        for (int pad = 2040; pad < 2056; pad++) {
            String text = "# " + "x".repeat(pad) + "\ud83d\ude00\n\ndef after_emoji():\n    return 1\n";
            List<ChunkInput> chunks = SyntaxTreeChunkerLanguagesTest.chunk("e.py", "python", text);
            assertThat(chunks).anySatisfy(c -> assertThat(c.metadata())
                    .containsEntry(ChunkMetadata.SYMBOL, "after_emoji").containsEntry(ChunkMetadata.START_LINE, "3"));
        }
    }

    @Test
    void aSpentBudgetCancelsTheParse() {
        Grammars grammars = new Grammars();
        String big = "def f(x):\n    return x\n".repeat(20_000);
        ParsedSource cancelled = Grammars.parse(grammars.language("org.treesitter.TreeSitterPython"), big, 0);
        ParsedSource parsed = Grammars.parse(grammars.language("org.treesitter.TreeSitterPython"), big,
                TimeUnit.SECONDS.toNanos(60));
        assertThat(cancelled).isNull();
        assertThat(parsed.root().getNamedChildCount()).isEqualTo(20_000);
    }

    @Test
    void luaParsesTheSameWhateverWasParsedBefore() {
        // "= require(" is where a string may start: tree-sitter-lua's scanner, started from stale native memory,
        // read a string start there; every parse after the first one in a JVM got such memory. The first
        // (comment) is LuaScannerReset's
        TSLanguage lua = new Grammars().language("org.treesitter.TreeSitterLua");
        String text = "local ffi = require(\"ffi\")\nreturn ffi\n";
        String expected = "(chunk (comment) (local_variable_declaration (variable_list (variable name: (identifier)))"
                + " (expression_list value: (call function: (variable name: (identifier)) arguments: (argument_list"
                + " (expression_list (string)))))) (return_statement (expression_list (variable name: (identifier)))))";
        for (int i = 0; i < 32; i++) {
            ParsedSource parsed = Grammars.parse(lua, text, TimeUnit.SECONDS.toNanos(60));
            assertThat(parsed.root().toString()).as("parse %d", i).isEqualTo(expected);
        }
    }

    @Test
    void theLuaResetCommentIsNoPartOfTheFile() {
        TSLanguage lua = new Grammars().language("org.treesitter.TreeSitterLua");
        String text = "#!/usr/bin/env lua\nlocal x = 'a' -- note\n";
        ParsedSource parsed = Grammars.parse(lua, text, TimeUnit.SECONDS.toNanos(60));
        TSNode root = parsed.root();
        assertThat(root.getNamedChild(0).getType()).isEqualTo("shebang");
        TSNode reset = root.getNamedChild(1);
        assertThat(parsed.isInserted(reset)).isTrue();
        TSNode local = root.getNamedChild(2);
        assertThat(parsed.isInserted(local)).isFalse();
        assertThat(text.substring(parsed.start(local), parsed.end(local))).isEqualTo("local x = 'a'");
        TSNode note = root.getNamedChild(3);
        assertThat(text.substring(parsed.start(note), parsed.end(note))).isEqualTo("-- note");
        assertThat(parsed.end(root)).isEqualTo(text.length());
    }
}
