package dev.neuraltext.retrieve;

import static dev.neuraltext.retrieve.QueryAnalyzer.QueryShape.IDENTIFIER;
import static dev.neuraltext.retrieve.QueryAnalyzer.QueryShape.NATURAL_LANGUAGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QueryAnalyzerTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "ChatModel",
        "@DefaultBean",
        "java.util.concurrent.ConcurrentHashMap",
        "StringUtils isBlank",
        "StringUtils#isBlank",
        "isBlank()",
        "`isBlank()`",
        "init_IA64_64Bit",
        "USER_HOME",
        "Pair apply",                               // short keyword query, no stop words
        "tokenizer",                                // one plain word
        "std::vector",
        "utf8 decoder",
    })
    void identifierShaped(String query) {
        assertThat(QueryAnalyzer.classify(query)).as(query).isEqualTo(IDENTIFIER);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "how are fused scores normalised",
        "Checks if a CharSequence is empty",
        "Formats a date/time into a specific pattern",
        "why does StringUtils.isBlank return true",
        "hash code for an array",
        "convert string to number safely",         // four plain words, no code marks
        "what is RRF?",
        "date/time",                                // '/' is not an identifier character
        "",
        "   ",
    })
    void naturalLanguage(String query) {
        assertThat(QueryAnalyzer.classify(query)).as(query).isEqualTo(NATURAL_LANGUAGE);
    }

    @Test
    void longQueriesAreIdentifierShapedOnlyWhenEveryTokenIsCodeMarked() {
        assertThat(QueryAnalyzer.classify("ChatModel EmbeddingModel ToolSpecification isBlank")).isEqualTo(IDENTIFIER);
        assertThat(QueryAnalyzer.classify("ChatModel EmbeddingModel tool spec")).isEqualTo(NATURAL_LANGUAGE);
        assertThat(QueryAnalyzer.classify("ChatModel streaming tool")).isEqualTo(IDENTIFIER); // 3 tokens: short
        // "Builder" and "build" carry no code mark and the query has more than 3 tokens
        assertThat(QueryAnalyzer.classify("ReflectionDiffBuilder getRight Builder build")).isEqualTo(NATURAL_LANGUAGE);
    }

    @Test
    void aStopWordMakesItNaturalLanguageEvenWhenShort() {
        assertThat(QueryAnalyzer.classify("the ChatModel")).isEqualTo(NATURAL_LANGUAGE);
        assertThat(QueryAnalyzer.classify("ChatModel The")).isEqualTo(NATURAL_LANGUAGE); // case-insensitive
    }

    @Test
    void wrappingPunctuationIsStripped() {
        assertThat(QueryAnalyzer.tokens("\"isBlank()\", (ChatModel). [x]")).containsExactly("isBlank()", "ChatModel", "x");
        assertThat(QueryAnalyzer.classify("(StringUtils.isBlank)")).isEqualTo(IDENTIFIER);
    }

    @Test
    void codeMarks() {
        assertThat(QueryAnalyzer.isCodeMarked("isBlank")).isTrue();      // lower -> upper
        assertThat(QueryAnalyzer.isCodeMarked("XMLParser")).isTrue();    // acronym then word
        assertThat(QueryAnalyzer.isCodeMarked("a.b")).isTrue();
        assertThat(QueryAnalyzer.isCodeMarked("snake_case")).isTrue();
        assertThat(QueryAnalyzer.isCodeMarked("sha256")).isTrue();
        assertThat(QueryAnalyzer.isCodeMarked("@Inject")).isTrue();
        assertThat(QueryAnalyzer.isCodeMarked("run()")).isTrue();
        assertThat(QueryAnalyzer.isCodeMarked("JSON")).isTrue();
        assertThat(QueryAnalyzer.isCodeMarked("Builder")).isFalse();
        assertThat(QueryAnalyzer.isCodeMarked("tokenizer")).isFalse();
        assertThat(QueryAnalyzer.isCodeMarked("A")).isFalse();
    }

    @Test
    void nullIsRejected() {
        assertThatThrownBy(() -> QueryAnalyzer.classify(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("query");
    }
}
