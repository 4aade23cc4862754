package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.treesitter.TSTree;

/** Loading grammars (every language's loads here; a missing one is a clear failure) and the parse budget. */
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
        TSTree cancelled = Grammars.parse(grammars.language("org.treesitter.TreeSitterPython"), big, 0);
        TSTree parsed = Grammars.parse(grammars.language("org.treesitter.TreeSitterPython"), big,
                TimeUnit.SECONDS.toNanos(60));
        assertThat(cancelled).isNull();
        assertThat(parsed.getRootNode().getNamedChildCount()).isEqualTo(20_000);
    }
}
