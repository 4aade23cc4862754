package dev.neuraltext.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CamelCaseExpanderTest {

    @Test
    void splitsIdentifiersIntoWords() {
        assertThat(CamelCaseExpander.expand("ChatModel is a LangChain4j interface"))
                .isEqualTo("Chat Model is a Lang Chain 4 j interface");
        assertThat(CamelCaseExpander.expand("HTTPServerConfig")).isEqualTo("HTTP Server Config");
        assertThat(CamelCaseExpander.expand("Base64Encoder utf8")).isEqualTo("Base 64 Encoder utf 8");
        assertThat(CamelCaseExpander.expand("@DefaultBean java.util.concurrent.ConcurrentHashMap<K, V>"))
                .isEqualTo("@Default Bean java.util.concurrent.Concurrent Hash Map<K, V>");
    }

    @Test
    void underscoresBetweenWordsBecomeOneSpace() {
        assertThat(CamelCaseExpander.expand("MAX_VALUE snake__case")).isEqualTo("MAX VALUE snake case");
        assertThat(CamelCaseExpander.expand("_private __init__ x_")).isEqualTo("_private __init__ x_");
    }

    @Test
    void plainTextIsUntouched() {
        String plain = "Plain words, punctuation (and CAPS) stay as they are: 42 times.\n\tNew line.";
        assertThat(CamelCaseExpander.expand(plain)).isSameAs(plain);
        assertThat(CamelCaseExpander.expand("")).isEmpty();
        assertThat(CamelCaseExpander.expand("Größe 日本語")).isEqualTo("Größe 日本語");
    }

    @Test
    void agreesWithTheTokenizerParts() {
        CodeDomainTokenizer noStops = CodeDomainTokenizer.builder().stopWords(java.util.List.of()).stemming(false)
                .digitJoins(false).build();
        String text = "ChatModel HTTPServerConfig LangChain4j MAX_VALUE";
        // the expanded text's words are exactly the identifier parts
        assertThat(noStops.tokenize(CamelCaseExpander.expand(text)))
                .containsExactly("chat", "model", "http", "server", "config", "lang", "chain", "4", "j", "max", "value");
    }

    @Test
    void isIdempotentOnRandomInput() {
        Random random = new Random(11);
        for (int n = 0; n < 10_000; n++) {
            String text = RandomText.next(random);
            String once = CamelCaseExpander.expand(text);
            if (!CamelCaseExpander.expand(once).equals(once)) {
                throw new AssertionError("not idempotent on '" + text + "'");
            }
            // only spaces are added, and only where underscores or nothing were
            if (!once.replace(" ", "").replace("_", "").equals(text.replace(" ", "").replace("_", ""))) {
                throw new AssertionError("changed more than spacing: '" + text + "' became '" + once + "'");
            }
        }
    }

    @Test
    void nullIsACallerMistake() {
        assertThatThrownBy(() -> CamelCaseExpander.expand(null)).isInstanceOf(NullPointerException.class);
    }
}
