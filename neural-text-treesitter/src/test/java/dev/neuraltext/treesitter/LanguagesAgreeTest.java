package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.path.LanguageTable;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * This module's syntax rules and core's language table name the same languages: every language the table sends to
 * the syntax chunker has rules here, and every language with rules here is one the table sends.
 */
class LanguagesAgreeTest {

    @Test
    void theSyntaxRulesServeExactlyTheTablesSyntaxLanguages() {
        assertThat(new TreeSet<>(SyntaxTreeChunker.languages()))
                .as("languages of syntax-rules.yaml vs core languages.yaml's `chunker: syntax`")
                .isEqualTo(new TreeSet<>(LanguageTable.standard().syntaxLanguages()));
        assertThat(new TreeSet<>(new TreeSitterChunkerProvider().languages()))
                .isEqualTo(new TreeSet<>(LanguageTable.standard().syntaxLanguages()));
    }

    @Test
    void everyRuleNamesALanguageOfTheTable() {
        Map<String, LanguageRules> rules = LanguageRules.load();
        for (LanguageRules r : rules.values()) {
            assertThat(LanguageTable.standard().language(r.language())).as(r.language()).isPresent();
            if (!r.promote().isEmpty()) {
                assertThat(rules).as(r.language() + " promotes to a language with rules").containsKey(r.promote());
            }
        }
    }
}
