package dev.neuraltext.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one stop-word list: the function words, of which the index drops Lucene's English stop set. */
class StopWordsTest {

    @Test
    void theIndexDropsLucenesThirtyThreeWordsOfTheFunctionWords() {
        assertThat(CodeDomainTokenizer.englishStopWords()).hasSize(33).contains("a", "the", "with", "such")
                .doesNotContain("how", "which", "does");
        assertThat(CodeDomainTokenizer.englishFunctionWords()).hasSize(107)
                .containsAll(CodeDomainTokenizer.englishStopWords()).contains("how", "which", "does", "whom");
        assertThat(CodeDomainTokenizer.standard().id()).contains("stop=english,");
    }

    @Test
    void aFunctionWordOutsideTheIndexListStaysATerm() {
        assertThat(CodeDomainTokenizer.standard().tokenize("how the cache does eviction"))
                .containsExactly("how", "cache", "does", "eviction");
    }
}
