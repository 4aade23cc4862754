package dev.neuraltext.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChunkMetadataTest {

    @Test
    void lineNumbersBecomeIntegersAndEverythingElseStaysText() {
        assertThat(ChunkMetadata.typedValue(ChunkMetadata.START_LINE, "18")).isEqualTo(18);
        assertThat(ChunkMetadata.typedValue(ChunkMetadata.END_LINE, "999999999")).isEqualTo(999_999_999);
        // too long for an int line number, or not a number: kept as written
        assertThat(ChunkMetadata.typedValue(ChunkMetadata.END_LINE, "1234567890")).isEqualTo("1234567890");
        assertThat(ChunkMetadata.typedValue(ChunkMetadata.START_LINE, "-3")).isEqualTo("-3");
        assertThat(ChunkMetadata.typedValue(ChunkMetadata.PATH, "42")).isEqualTo("42");
    }
}
