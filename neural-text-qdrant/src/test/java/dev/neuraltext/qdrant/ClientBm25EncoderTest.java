package dev.neuraltext.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.common.hash.Hashing;
import dev.neuraltext.bm25.Bm25Index;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.text.CodeDomainTokenizer;
import io.qdrant.client.grpc.Points;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ClientBm25EncoderTest {

    private static ClientBm25Encoder whitespace(Map<String, Double> averages, double fallback) {
        return new ClientBm25Encoder(s -> s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+")),
                Bm25Params.defaults(), averages, fallback);
    }

    @Test
    void murmur3MatchesGuavasReferenceImplementation() {
        assertThat(ClientBm25Encoder.murmur3("hello".getBytes(StandardCharsets.UTF_8))).isEqualTo(0x248bfa47);
        assertThat(ClientBm25Encoder.murmur3(new byte[0])).isZero();
        Random random = new Random(7);
        for (int i = 0; i < 2000; i++) {
            byte[] data = new byte[random.nextInt(40)];
            random.nextBytes(data);
            assertThat(ClientBm25Encoder.murmur3(data)).isEqualTo(Hashing.murmur3_32_fixed().hashBytes(data).asInt());
        }
    }

    @Test
    void termIndexIsNonNegativeAndStable() {
        assertThat(ClientBm25Encoder.termIndex("hello")).isEqualTo(0x248bfa47);
        for (String t : List.of("chatmodel", "chat", "model", "ß", "日本", "")) {
            assertThat(ClientBm25Encoder.termIndex(t)).isNotNegative().isEqualTo(ClientBm25Encoder.termIndex(t));
        }
    }

    @Test
    void documentValuesAreBm25fSaturatedTermFrequencies() {
        // body "a b a": tf(a) = 2, tf(b) = 1, len 3; k1 = 1.2, b = 0.75, body weight 1.
        // avglen 3: norm = 0.25 + 0.75 * 3/3 = 1; a = 2 / (1.2 + 2) = 0.625; b = 1 / 2.2
        Points.SparseVector v = whitespace(Map.of("body", 3.0), 99).document(Map.of("body", "a b a"));
        assertThat(value(v, "a")).isCloseTo(0.625, within(1e-6));
        assertThat(value(v, "b")).isCloseTo(1 / 2.2, within(1e-6));
        // avglen 6 (the fallback): norm = 0.25 + 0.375 = 0.625; tf~(a) = 3.2 -> 3.2 / 4.4; tf~(b) = 1.6 -> 1.6 / 2.8
        Points.SparseVector w = whitespace(Map.of(), 6).document(Map.of("body", "a b a"));
        assertThat(value(w, "a")).isCloseTo(3.2 / 4.4, within(1e-6));
        assertThat(value(w, "b")).isCloseTo(1.6 / 2.8, within(1e-6));
        assertThat(whitespace(Map.of(), 3).document(Map.of("body", "   ")).getIndicesCount()).isZero();
    }

    @Test
    void nameFieldIsWeightedBinaryAndFullyLengthNormalised() {
        // name "a a" (weight 8, b 1, binary: tf 1), len 2, avglen 2: 8 * 1 / 1 = 8; body "a" len 1 avglen 1: 1.
        // tf~(a) = 9 -> 9 / (1.2 + 9)
        Points.SparseVector v = whitespace(Map.of("name", 2.0, "body", 1.0), 99)
                .document(Map.of("name", "a a", "body", "a"));
        assertThat(value(v, "a")).isCloseTo(9 / 10.2, within(1e-6));
        assertThat(v.getIndicesCount()).isEqualTo(1);
    }

    @Test
    void qdrantsIdfTimesTheseWeightsEqualsTheEmbeddedBm25fScore() {
        List<ChunkInput> corpus = List.of(
                new ChunkInput("1", "x", Map.of(), Map.of(), Map.of("name", "StringUtils.isBlank",
                        "body", "public static boolean isBlank(CharSequence cs) { return cs == null || cs.isEmpty(); }")),
                new ChunkInput("2", "x", Map.of(), Map.of(), Map.of("name", "StringUtils.isEmpty",
                        "body", "return cs == null || cs.length() == 0;")),
                new ChunkInput("3", "x", Map.of(), Map.of(), Map.of("name", "DateUtils.parseDate",
                        "signature", "Date parseDate(String str, String... parsePatterns)",
                        "body", "return parseDateWithLeniency(str, null, parsePatterns, true);")),
                ChunkInput.of("4", "blank lines are empty lines without text"),
                new ChunkInput("5", "x", Map.of(), Map.of(), Map.of("name", "CharSequenceUtils",
                        "body", "static int indexOf(CharSequence cs, int searchChar, int start) { }")));
        CodeDomainTokenizer tokenizer = CodeDomainTokenizer.standard();
        Map<String, Double> averages = ClientBm25Encoder.averageLengths(corpus, tokenizer::tokenize);
        ClientBm25Encoder encoder = new ClientBm25Encoder(tokenizer::tokenize, Bm25Params.defaults(), averages, 1);
        Bm25Index index = Bm25Index.builder().build();
        Map<String, Points.SparseVector> vectors = new HashMap<>();
        Map<Integer, Integer> df = new HashMap<>();
        for (ChunkInput c : corpus) {
            index.upsert(c.id(), c.bm25Fields());
            Points.SparseVector v = encoder.document(c);
            vectors.put(c.id(), v);
            v.getIndicesList().forEach(i -> df.merge(i, 1, Integer::sum));
        }
        for (String query : List.of("isBlank", "blank", "parse date", "CharSequence cs null", "StringUtils")) {
            Points.SparseVector q = encoder.query(query);
            List<LegResult> expected = index.search(query, 10);
            assertThat(expected).as(query).isNotEmpty();
            for (LegResult r : expected) {
                // what Qdrant computes: sum over query indices of value * idf * document value
                double score = 0;
                Points.SparseVector d = vectors.get(r.id());
                for (int i = 0; i < q.getIndicesCount(); i++) {
                    int pos = d.getIndicesList().indexOf(q.getIndices(i));
                    if (pos >= 0) {
                        int n = df.get(q.getIndices(i));
                        double idf = Math.log(1 + (corpus.size() - n + 0.5) / (n + 0.5));
                        score += q.getValues(i) * idf * d.getValues(pos);
                    }
                }
                assertThat(score).as("%s on %s", query, r.id()).isCloseTo(r.score(), within(1e-5 * r.score()));
            }
        }
    }

    @Test
    void queryValuesAreTermCountsWithSortedUniqueIndices() {
        Points.SparseVector q = whitespace(Map.of(), 3).query("x y x z x");
        assertThat(value(q, "x")).isEqualTo(3);
        assertThat(value(q, "y")).isEqualTo(1);
        assertThat(value(q, "z")).isEqualTo(1);
        assertThat(q.getIndicesList()).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void theStandardTokenizerSendsCompoundAndParts() {
        Points.SparseVector q = ClientBm25Encoder.standard(Bm25Params.defaults(), Map.of(), 256).query("ChatModel");
        assertThat(q.getIndicesList()).contains(ClientBm25Encoder.termIndex("chatmodel"),
                ClientBm25Encoder.termIndex("chat"), ClientBm25Encoder.termIndex("model"));
    }

    @Test
    void averageLengthsMustBePositive() {
        assertThatThrownBy(() -> whitespace(Map.of(), 0)).hasMessageContaining("0.0");
        assertThatThrownBy(() -> whitespace(Map.of(), Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> whitespace(Map.of("name", -1.0), 1)).hasMessageContaining("'name'");
    }

    private static double value(Points.SparseVector v, String term) {
        int idx = v.getIndicesList().indexOf(ClientBm25Encoder.termIndex(term));
        assertThat(idx).as("term %s present", term).isNotNegative();
        return v.getValues(idx);
    }
}
