package dev.neuraltext.cli.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelatedDatasetTest {

    private static ChunkInput definition(String path, String symbol, String type, int line) {
        return ChunkInput.of(path + "#" + symbol, symbol, Map.of(ChunkMetadata.PATH, path, ChunkMetadata.SYMBOL, symbol,
                ChunkMetadata.SYMBOL_TYPE, type, ChunkMetadata.TYPE, "code", ChunkMetadata.START_LINE,
                Integer.toString(line)));
    }

    @Test
    void aDefinitionIsAskedWithTheOtherFilesNamingItAsAWholeIdentifier() {
        Map<String, String> texts = Map.of(
                "a/Policy.java", "class Policy { long delayFor() {} void run() {} }",
                "b/Client.java", "new Policy().delayFor(); Policy_x; Policy",
                "c/Other.java", "PolicyMaker delayForever",
                "d/Twin.java", "class Twin { void run() {} }",
                "e/doc.md", "see delayFor");
        List<ChunkInput> chunks = List.of(definition("a/Policy.java", "Policy", "type", 1),
                definition("a/Policy.java", "Policy.delayFor", "method", 1),
                definition("a/Policy.java", "Policy.run", "method", 1),
                definition("d/Twin.java", "Twin.run", "method", 1),
                definition("d/Twin.java", "Twin", "type", 1),
                ChunkInput.of("e/doc.md#0", "see delayFor", Map.of(ChunkMetadata.PATH, "e/doc.md",
                        ChunkMetadata.TYPE, "doc", ChunkMetadata.SYMBOL_TYPE, "section")));
        List<RelatedDataset.Query> q = RelatedDataset.generate("r", texts, chunks, 10, 36);
        // run is defined in two files (ambiguous), Twin is named by no other file: both left out
        assertThat(q).extracting(RelatedDataset.Query::name).containsExactlyInAnyOrder("Policy", "delayFor");
        RelatedDataset.Query delay = q.stream().filter(x -> x.name().equals("delayFor")).findFirst().orElseThrow();
        assertThat(delay.referencing()).containsExactly("b/Client.java", "e/doc.md"); // not delayForever
        RelatedDataset.Query policy = q.stream().filter(x -> x.name().equals("Policy")).findFirst().orElseThrow();
        assertThat(policy.referencing()).containsExactly("b/Client.java");
        // grep -F also lists the substring match, grep -w is the gold rule
        assertThat(RelatedDataset.grep(texts, policy, false)).containsExactly("b/Client.java", "c/Other.java");
        assertThat(RelatedDataset.grep(texts, policy, true)).isEqualTo(policy.referencing());
        // the same seed samples the same definitions
        assertThat(RelatedDataset.generate("r", texts, chunks, 1, 36))
                .isEqualTo(RelatedDataset.generate("r", texts, chunks, 1, 36));
    }

    @Test
    void metricsMatchHandComputedValues() {
        List<String> gold = List.of("a", "b", "c", "d");
        double[] m = RelatedMain.metrics(List.of("x", "a", "y", "b", "z", "c"), gold);
        assertThat(m[0]).isZero(); // Acc@1
        assertThat(m[1]).isEqualTo(1.0); // Acc@5
        assertThat(m[2]).isEqualTo(0.5); // R@5: a, b of 4
        assertThat(m[3]).isEqualTo(0.4); // P@5: 2 of 5
        assertThat(RelatedMain.metrics(List.of(), gold)).containsExactly(0, 0, 0, 0);
        assertThat(RelatedMain.metrics(List.of("c"), gold)).containsExactly(1, 1, 0.25, 1);
    }
}
