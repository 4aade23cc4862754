package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.eval.EvalDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GrepPeerTest {

    private static GrepPeer indexed() {
        GrepPeer grep = new GrepPeer();
        grep.index(List.of(
                new EvalDocument("a", "Retry", "retry the call; retry again, then give up", Map.of()),
                new EvalDocument("b", "Backoff", "wait before the next retry with exponential backoff", Map.of()),
                new EvalDocument("c", "Other", "nothing relevant here", Map.of()),
                new EvalDocument("d", "Container", "call withReuse(true) to keep the container", Map.of())),
                ProgressBar.silent());
        return grep;
    }

    @Test
    void ranksByDistinctWordsThenOccurrencesAndLeavesOutNonMatches() {
        // a: retry x4 (title too), no backoff; b: retry x1, backoff x2 -> b matches 2 distinct words
        assertThat(indexed().search("Retry with BACKOFF", 10).ids()).containsExactly("b", "a");
        assertThat(indexed().search("retry", 10).ids()).containsExactly("a", "b");
        assertThat(indexed().search("retry", 1).ids()).containsExactly("a");
        assertThat(indexed().search("xylophone", 10).ids()).isEmpty();
    }

    @Test
    void queryWordsDropStopWordsAndWrappingPunctuationButKeepCallParentheses() {
        assertThat(GrepPeer.words("How do I call `withReuse(true)`?")).containsExactly("how", "do", "i", "call",
                "withreuse(true)");
        assertThat(GrepPeer.words("the (retry) of a call")).containsExactly("retry", "call");
        assertThat(indexed().search("`withReuse(true)`", 10).ids()).containsExactly("d");
    }

    @Test
    void equalCountsAreOrderedById() {
        GrepPeer grep = new GrepPeer();
        grep.index(List.of(new EvalDocument("z", "", "alpha", Map.of()), new EvalDocument("m", "", "alpha", Map.of())),
                ProgressBar.silent());
        assertThat(grep.search("alpha", 10).ids()).containsExactly("m", "z");
    }
}
