package dev.neuraltext.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.encode.TextRole;
import java.util.List;
import org.junit.jupiter.api.Test;

class HashingEmbedderTest {

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }

    @Test
    void vectorsHaveTheDeclaredDimensionAndUnitLength() {
        HashingEmbedder embedder = HashingEmbedder.create();
        assertThat(embedder.dimension()).isEqualTo(256);
        assertThat(embedder.modelId()).isEqualTo("hashing-char-ngrams/3-4/256");
        List<float[]> vectors = embedder.embed(List.of("RetryPolicy.backoffDelay", "a", "évènement 42"), TextRole.DOCUMENT);
        assertThat(vectors).hasSize(3).allSatisfy(v -> {
            assertThat(v).hasSize(256);
            assertThat(dot(v, v)).isCloseTo(1.0, within(1e-5));
        });
    }

    @Test
    void textWithoutLettersOrDigitsIsTheZeroVector() {
        float[] v = HashingEmbedder.create().embedQuery("  -- () ");
        assertThat(dot(v, v)).isZero();
    }

    @Test
    void sameTextSameVectorAndQueriesEmbedLikeDocuments() {
        HashingEmbedder a = HashingEmbedder.of(64, 2, 5);
        HashingEmbedder b = HashingEmbedder.of(64, 2, 5);
        String text = "Exponential backoff: the delay doubles with every attempt.";
        assertThat(a.embed(List.of(text), TextRole.DOCUMENT).get(0)).containsExactly(b.embedQuery(text));
        assertThat(a.embedQuery(text.toUpperCase())).containsExactly(b.embedQuery(text));
    }

    @Test
    void sharedSpellingMeansHigherCosine() {
        HashingEmbedder embedder = HashingEmbedder.create();
        float[] query = embedder.embedQuery("retry policy");
        float[] close = embedder.embedQuery("class RetryPolicy retries failed calls");
        float[] far = embedder.embedQuery("LinkedHashMap evicts the eldest entry");
        assertThat(dot(query, close)).isGreaterThan(dot(query, far) + 0.2);
    }

    @Test
    void badSettingsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> HashingEmbedder.of(0, 3, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension").hasMessageContaining("0");
        assertThatThrownBy(() -> HashingEmbedder.of(8, 4, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minGram 4").hasMessageContaining("maxGram 3");
        assertThatThrownBy(() -> HashingEmbedder.create().embed(null, TextRole.QUERY))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("texts");
    }
}
