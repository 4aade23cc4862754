package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.text.CodeDomainTokenizer;
import org.junit.jupiter.api.Test;

/** The ranking's words are BM25's terms: the tokenizer's split and stemmer. */
class QueryTermsTest {

    @Test
    void queryWordsAreTheTokenizersPartsStemmedStopWordsDropped() {
        QueryTerms t = QueryTerms.of("how retry policies are built for the HTTP2Server and max-retry-count");
        assertThat(t.words()).containsExactly("how", "retry", "policy", "built", "http2", "server", "max", "count");
        var terms = CodeDomainTokenizer.standard().tokenize("how retry policies are built for the HTTP2Server and "
                + "max-retry-count");
        assertThat(terms).containsAll(t.words());
    }

    @Test
    void fileAndFolderWordsAreStemmedLikeTheQuerysSoShortPluralsMeet() {
        // "arg" has three letters, too few for the prefix match: only the shared stemmer makes args.h name it
        assertThat(QueryTerms.of("fmt::arg named arguments").shareInFileName("include/fmt/args.h")).isEqualTo(1.0 / 4);
        assertThat(QueryTerms.of("the v3 errors").shareInFolders("src/v3/errors.ts")).isEqualTo(1.0 / 2);
        assertThat(QueryTerms.split("RouterGroup_test")).containsExactly("router", "group", "test");
        assertThat(QueryTerms.split("base64Encoder")).containsExactly("base64", "encoder");
    }
}
