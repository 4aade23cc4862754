package dev.neuraltext.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.SearchTimings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServedRootsTest {

    private static final ServedRoots TWO = new ServedRoots(List.of(new ServedRoots.Root("lib", null),
            new ServedRoots.Root("app", null)));

    private static SearchHit hit(String path, double score) {
        return new SearchHit(path + "#x", "x\nbody", Map.of("path", path, "startLine", "1"), Map.of(), score, score,
                Map.of());
    }

    private static SearchResponse response(int above, SearchHit... hits) {
        return new SearchResponse(List.of(hits), above, false, Set.of(Leg.BM25), false,
                new SearchTimings(Duration.ZERO, Duration.ofMillis(2), Duration.ZERO, Duration.ofMillis(3)));
    }

    @Test
    void namesAreTheFolderNamesWithASuffixForARepeatedOne() {
        assertThat(ServedRoots.names(List.of(Path.of("/w/lib"), Path.of("/x/app"), Path.of("/y/lib"),
                Path.of("/z/lib")))).containsExactly("lib", "app", "lib-2", "lib-3");
    }

    @Test
    void qualifiedPathsNameTheirRoot() {
        ServedRoots.Located l = TWO.locate("path", "app/src/Main.java");
        assertThat(l.root().name()).isEqualTo("app");
        assertThat(l.relative()).isEqualTo("src/Main.java");
        assertThatThrownBy(() -> TWO.locate("path", "src/Main.java")).hasMessageContaining("`path` 'src/Main.java' "
                + "names no root").hasMessageContaining("[lib, app]");
        assertThatThrownBy(() -> TWO.locate("id", "lib/")).hasMessageContaining("names no root");
        assertThat(TWO.qualified(TWO.first(), "a/B.java")).isEqualTo("lib/a/B.java");
    }

    @Test
    void answersMergeByScoreAboveTheThresholdFirstEachHitQualified() {
        SearchResponse lib = response(1, hit("a.java", 0.9), hit("b.java", 0.8));
        SearchResponse app = response(2, hit("c.java", 0.85), hit("d.java", 0.3), hit("e.java", 0.95));
        SearchResponse merged = TWO.merge(TWO.all(), List.of(lib, app), 2);
        // above: lib a (0.9); app c (0.85), d (0.3); below: lib b (0.8), app e (0.95)
        assertThat(merged.hits()).extracting(h -> h.metadata().get("path")).containsExactly("lib/a.java",
                "app/c.java", "app/d.java"); // as many as the longest root answer
        assertThat(merged.totalAboveThreshold()).isEqualTo(3);
        assertThat(merged.hits()).extracting(SearchHit::id).containsExactly("lib/a.java#x", "app/c.java#x",
                "app/d.java#x");
        assertThat(merged.hits().get(0).metadata()).containsEntry("root", "lib");
        assertThat(merged.timings().total()).isEqualTo(Duration.ofMillis(6));
        SearchResponse wide = TWO.merge(TWO.all(), List.of(lib, app), 5);
        assertThat(wide.hits()).extracting(h -> h.metadata().get("path")).containsExactly("lib/a.java",
                "app/c.java", "app/d.java", "app/e.java", "lib/b.java");
    }
}
