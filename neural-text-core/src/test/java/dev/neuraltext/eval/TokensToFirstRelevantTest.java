package dev.neuraltext.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.eval.TokensToFirstRelevant.AnswerPiece;
import dev.neuraltext.search.TokenCount;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TokensToFirstRelevantTest {

    @Test
    void tokenCountIsCharactersOverFourRoundedUp() {
        assertThat(TokenCount.of("")).isZero();
        assertThat(TokenCount.of("abcd")).isEqualTo(1);
        assertThat(TokenCount.of("abcde")).isEqualTo(2);
    }

    @Test
    void countsThroughTheFirstOverlappingPiece() {
        List<AnswerPiece> answer = List.of(
                new AnswerPiece(new RetrievedSpan("src/A.java", 1, 10), 100),
                new AnswerPiece(new RetrievedSpan("src/B.java", 20, 30), 50),
                new AnswerPiece(new RetrievedSpan("src/B.java", 40, 50), 70));
        assertThat(TokensToFirstRelevant.count(answer, List.of(new SpanTarget("B.java", 45, 46))))
                .hasValue(220);
        assertThat(TokensToFirstRelevant.count(answer, List.of(SpanTarget.file("src/B.java")))).hasValue(150);
        assertThat(TokensToFirstRelevant.count(answer, List.of(SpanTarget.file("C.java")))).isEmpty();
    }

    @Test
    void recallAndMedianTreatUnreachedQueriesAsBeyondEveryBudget() {
        List<OptionalInt> counts = List.of(OptionalInt.of(400), OptionalInt.of(900), OptionalInt.empty());
        assertThat(TokensToFirstRelevant.recallWithin(counts, 500)).isEqualTo(1.0 / 3);
        assertThat(TokensToFirstRelevant.recallWithin(counts, 2_000)).isEqualTo(2.0 / 3);
        assertThat(TokensToFirstRelevant.median(counts)).hasValue(900);
        assertThat(TokensToFirstRelevant.median(List.of(OptionalInt.of(1), OptionalInt.empty()))).isEmpty();
        assertThat(TokensToFirstRelevant.median(List.of(OptionalInt.of(1), OptionalInt.of(4)))).hasValue(3);
    }

    @Test
    void refusesNegativeTokens() {
        assertThatThrownBy(() -> new AnswerPiece(new RetrievedSpan("a", 0, 0), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
