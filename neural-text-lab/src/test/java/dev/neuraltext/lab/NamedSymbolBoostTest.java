package dev.neuraltext.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.cli.eval.IndexedChunk;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.fusion.FusedResult;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.fusion.Leg;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NamedSymbolBoostTest {

    private static ChunkInput java(String id, String title, String kind) {
        String cls = title.contains(".") ? title.substring(0, title.indexOf('.')) : title;
        return IndexedChunk.of(new EvalDocument(id, title, "void f() {}", Map.of("path",
                "src/" + cls + ".java", "className", cls, "symbol", title, "kind", kind)));
    }

    @Test
    void aQueryNamesItsCodeMarkedTokensOnly() {
        assertThat(NamedSymbolBoost.names("Keep StopWatch.formatSplitTime from clamping, see RetryPolicy.java"))
                .containsExactly("stopwatch.formatsplittime", "retrypolicy.java");
        assertThat(NamedSymbolBoost.names("call `withReuse(true)` on OwnerController")).containsExactly("withreuse",
                "ownercontroller");
        assertThat(NamedSymbolBoost.names("how do I reuse a container")).isEmpty();
    }

    @Test
    void theNamedSymbolMatchesFullyItsMembersAndClassLess() {
        ChunkInput type = java("src/StopWatch.java#StopWatch", "StopWatch", "type");
        ChunkInput method = java("src/StopWatch.java#StopWatch.formatSplitTime()", "StopWatch.formatSplitTime",
                "method");
        ChunkInput other = java("src/Other.java#Other.formatSplitTime()", "Other.formatSplitTime", "method");
        assertThat(NamedSymbolBoost.match(List.of("stopwatch.formatsplittime"), method)).isEqualTo(1);
        assertThat(NamedSymbolBoost.match(List.of("stopwatch"), type)).isEqualTo(1);
        assertThat(NamedSymbolBoost.match(List.of("stopwatch"), method)).isEqualTo(NamedSymbolBoost.CLASS_MEMBER);
        assertThat(NamedSymbolBoost.match(List.of("formatsplittime"), other)).isEqualTo(NamedSymbolBoost.MEMBER);
        assertThat(NamedSymbolBoost.match(List.of("stopwatch.java"), type)).isEqualTo(1);
        assertThat(NamedSymbolBoost.match(List.of("retrypolicy"), type)).isZero();
    }

    @Test
    void theBoostReordersButNeverDrops() {
        ChunkInput named = java("src/RetryPolicy.java#RetryPolicy", "RetryPolicy", "type");
        ChunkInput first = java("src/Backoff.java#Backoff", "Backoff", "type");
        List<FusedResult> fused = List.of(result(first.id(), 1.0), result(named.id(), 0.9));
        Map<String, ChunkInput> chunks = Map.of(named.id(), named, first.id(), first);
        assertThat(NamedSymbolBoost.apply("RetryPolicy", fused, chunks, 0.05)).containsExactly(first.id(),
                named.id());
        assertThat(NamedSymbolBoost.apply("RetryPolicy", fused, chunks, 0.3)).containsExactly(named.id(),
                first.id());
        assertThat(NamedSymbolBoost.apply("retry policy", fused, chunks, 0.3)).containsExactly(first.id(),
                named.id());
    }

    private static FusedResult result(String id, double score) {
        return new FusedResult(id, score, Map.of(Leg.BM25, new LegScore(Leg.BM25, 1, score)));
    }
}
