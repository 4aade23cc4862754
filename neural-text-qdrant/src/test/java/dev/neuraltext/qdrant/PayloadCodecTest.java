package dev.neuraltext.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadCodecTest {

    @Test
    void roundTripsTextMetadataAndLists() {
        ChunkInput chunk = new ChunkInput("p#A.m()", "body",
                Map.of("path", "p", "startLine", "7", "neg", "-3", "zeros", "007", "big", "99999999999999999999"),
                Map.of("tags", List.of("a", "12"), "none", List.of()), Map.of("name", "m"));
        Map<String, Value> payload = PayloadCodec.encode(chunk);
        assertThat(payload.get("startLine").getIntegerValue()).isEqualTo(7);
        assertThat(payload.get("neg").getIntegerValue()).isEqualTo(-3);
        assertThat(payload.get("zeros").getStringValue()).isEqualTo("007");
        assertThat(payload.get("big").getStringValue()).isEqualTo("99999999999999999999");
        assertThat(payload.get("none").getListValue().getValuesCount()).isZero();

        PayloadCodec.Decoded d = PayloadCodec.decode(payload);
        assertThat(d.id()).isEqualTo("p#A.m()");
        assertThat(d.text()).isEqualTo("body");
        assertThat(d.metadata()).isEqualTo(chunk.metadata());
        assertThat(d.listMetadata()).isEqualTo(chunk.listMetadata());
    }

    @Test
    void minusZeroReadsBackAsZero() {
        Map<String, Value> payload = PayloadCodec.encode(ChunkInput.of("i", "t", Map.of("n", "-0")));
        assertThat(PayloadCodec.decode(payload).metadata()).containsEntry("n", "0");
    }

    @Test
    void reservedKeysAreRejectedAndForeignPointsSkipped() {
        assertThatThrownBy(() -> PayloadCodec.encode(ChunkInput.of("i", "t", Map.of("_chunk_id", "x"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'_chunk_id' of chunk 'i'");
        assertThat(PayloadCodec.decode(Map.of("title", Value.newBuilder().setStringValue("x").build()))).isNull();
    }
}
