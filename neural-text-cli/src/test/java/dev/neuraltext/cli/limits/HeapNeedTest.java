package dev.neuraltext.cli.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.ingest.ScanResult;
import dev.neuraltext.ingest.SourceFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeapNeedTest {

    private static ScanResult scan(int files, long bytesEach) {
        List<SourceFile> list = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            list.add(new SourceFile("src/F" + i + ".java", Path.of("/r/src/F" + i + ".java"), "java", bytesEach,
                    "h" + i));
        }
        return new ScanResult(list, List.of());
    }

    @Test
    void aHeapWellBelowTheEstimateIsRefusedBeforeAnythingIsReadNamingTheOption() {
        ScanResult big = scan(1_000, 100_000); // 95 MiB of source
        assertThatThrownBy(() -> HeapNeed.require(big, 64L << 20, false)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("indexing 1,000 files (95 MiB of source) needs about")
                .hasMessageContaining("this JVM may use at most 64 MiB: nothing was indexed and the index is unchanged")
                .hasMessageContaining("JAVA_OPTS=-Xmx1g neural-text index");
    }

    @Test
    void enoughHeapOrAHeapNearTheEstimatePasses() {
        ScanResult big = scan(1_000, 100_000);
        HeapNeed.require(big, 4L << 30, true);
        HeapNeed.require(big, (long) (HeapNeed.estimate(100_000_000L, false) * 0.8), false);
        HeapNeed.require(scan(10, 1_000), 32L << 20, true);
    }

    @Test
    void denseVectorsNeedMore() {
        ScanResult mid = scan(100, 150_000); // 14 MiB: enough heap for keywords alone, not with vectors
        long heap = 96L << 20;
        HeapNeed.require(mid, heap, false);
        assertThatThrownBy(() -> HeapNeed.require(mid, heap, true)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("this JVM may use at most 96 MiB");
        assertThat(HeapNeed.estimate(1_000_000, true)).isGreaterThan(HeapNeed.estimate(1_000_000, false));
    }

    @Test
    void theSuggestionIsARoundValueAboveTheNeed() {
        assertThat(HeapNeed.suggested(100L << 20)).isEqualTo("256m");
        assertThat(HeapNeed.suggested(300L << 20)).isEqualTo("512m");
        assertThat(HeapNeed.suggested(700L << 20)).isEqualTo("1g");
        assertThat(HeapNeed.outOfMemory()).contains("the index folder is as it was before this run")
                .contains("JAVA_OPTS=-Xmx2g");
    }
}
