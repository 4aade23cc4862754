package dev.neuraltext.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.Fuzz;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Random text through the tokenizer and the identifier expander: no exception, and their invariants hold. */
class TextAnalysisFuzzTest {

    private static final CodeDomainTokenizer TOKENIZER = CodeDomainTokenizer.standard();

    @Test
    void tokenizerNeverThrowsAndGivesNonBlankTermsDeterministically() {
        int n = Fuzz.run("tokenizer", 20_000, 2_000, (random, i) -> {
            String text = RandomText.next(random);
            List<String> terms = TOKENIZER.tokenize(text);
            assertThat(terms).allSatisfy(t -> assertThat(t).isNotBlank());
            assertThat(TOKENIZER.tokenize(text)).isEqualTo(terms);
            // terms of a piece are terms of the text it is part of, wherever it stands between spaces
            assertThat(TOKENIZER.tokenize("zz " + text + " zz")).containsAll(terms);
        });
        assertThat(n).isPositive();
    }

    @Test
    void expanderNeverThrowsAndKeepsTheText() {
        int n = Fuzz.run("expander", 20_000, 1_500, (random, i) -> {
            String text = RandomText.next(random);
            String expanded = CamelCaseExpander.expand(text);
            assertThat(expanded).isNotNull();
            assertThat(CamelCaseExpander.expand(text)).isEqualTo(expanded);
        });
        assertThat(n).isPositive();
    }
}
