package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.search.SearchHit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FileGroupsTest {

    private static SearchHit hit(String id, String path, double score) {
        return new SearchHit(id, id, path == null ? Map.of() : Map.of("path", path), Map.of(), score, score, Map.of());
    }

    @Test
    void filesAreRankedByHalvingEvidenceAndKeepTheirBestSpans() {
        List<SearchHit> hits = List.of(hit("a1", "A.java", 0.9), hit("b1", "B.java", 0.8), hit("b2", "B.java", 0.7),
                hit("b3", "B.java", 0.6), hit("b4", "B.java", 0.5), hit("loose", null, 0.85));
        List<FileGroups.FileHit> files = FileGroups.group(hits, 10, 2);
        // B: 0.8 + 0.35 + 0.15 + 0.0625 = 1.3625; A: 0.9; loose: 0.85
        assertThat(files).extracting(FileGroups.FileHit::path).containsExactly("B.java", "A.java", "loose");
        assertThat(files.get(0).evidence()).isCloseTo(1.3625, within(1e-12));
        assertThat(files.get(0).hits()).extracting(SearchHit::id).containsExactly("b1", "b2");
        assertThat(files.get(0).matched()).isEqualTo(4);
        assertThat(FileGroups.group(hits, 1, 3)).hasSize(1);
        assertThatThrownBy(() -> FileGroups.group(hits, 0, 3)).hasMessageContaining("limit");
    }
}
