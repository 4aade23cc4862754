package dev.neuraltext.qdrant;

import static dev.neuraltext.filter.PayloadFilter.all;
import static dev.neuraltext.filter.PayloadFilter.between;
import static dev.neuraltext.filter.PayloadFilter.isEmpty;
import static dev.neuraltext.filter.PayloadFilter.isNull;
import static dev.neuraltext.filter.PayloadFilter.matchAny;
import static dev.neuraltext.filter.PayloadFilter.matchExcept;
import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static dev.neuraltext.filter.PayloadFilter.matchText;
import static dev.neuraltext.filter.PayloadFilter.must;
import static dev.neuraltext.filter.PayloadFilter.mustNot;
import static dev.neuraltext.filter.PayloadFilter.range;
import static dev.neuraltext.filter.PayloadFilter.should;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import io.qdrant.client.grpc.Common.Condition;
import io.qdrant.client.grpc.Common.FieldCondition;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.IsEmptyCondition;
import io.qdrant.client.grpc.Common.IsNullCondition;
import io.qdrant.client.grpc.Common.Match;
import io.qdrant.client.grpc.Common.Range;
import io.qdrant.client.grpc.Common.RepeatedIntegers;
import io.qdrant.client.grpc.Common.RepeatedStrings;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QdrantFilterConverterTest {

    // ---- exact messages, one per node kind

    @Test
    void allIsTheEmptyFilter() {
        assertThat(QdrantFilterConverter.toFilter(all())).isEqualTo(Filter.getDefaultInstance());
    }

    @Test
    void keywordOfAStringIsAKeywordMatch() {
        assertThat(QdrantFilterConverter.toFilter(matchKeyword("type", "method")))
                .isEqualTo(Filter.newBuilder().addMust(field("type", Match.newBuilder().setKeyword("method"))).build());
    }

    @Test
    void keywordOfACanonicalIntegerIsAnIntegerMatch() {
        assertThat(QdrantFilterConverter.condition(matchKeyword("startLine", "-12")))
                .isEqualTo(field("startLine", Match.newBuilder().setInteger(-12)));
        // not canonical: leading zero, plus sign, decimals, beyond long
        for (String s : List.of("012", "+5", "1.0", "9223372036854775808")) {
            assertThat(QdrantFilterConverter.condition(matchKeyword("k", s)))
                    .as(s).isEqualTo(field("k", Match.newBuilder().setKeyword(s)));
        }
    }

    @Test
    void matchTextIsATextMatch() {
        assertThat(QdrantFilterConverter.condition(matchText("path", "/test/")))
                .isEqualTo(field("path", Match.newBuilder().setText("/test/")));
    }

    @Test
    void matchAnySplitsStringsAndIntegers() {
        assertThat(QdrantFilterConverter.condition(matchAny("tags", "http", "retry")))
                .isEqualTo(field("tags", Match.newBuilder().setKeywords(strings("http", "retry"))));
        assertThat(QdrantFilterConverter.condition(matchAny("n", "1", "2")))
                .isEqualTo(field("n", Match.newBuilder().setIntegers(ints(1, 2))));
        assertThat(QdrantFilterConverter.condition(matchAny("n", "a", "1", "b")))
                .isEqualTo(nested(Filter.newBuilder()
                        .addShould(field("n", Match.newBuilder().setKeywords(strings("a", "b"))))
                        .addShould(field("n", Match.newBuilder().setIntegers(ints(1))))
                        .build()));
        assertThat(QdrantFilterConverter.condition(new PayloadFilter.MatchAny("n", List.of())))
                .isEqualTo(nested(QdrantFilterConverter.matchNothing()));
    }

    @Test
    void matchExceptSplitsStringsAndIntegersAndRequiresBoth() {
        assertThat(QdrantFilterConverter.condition(matchExcept("type", "test", "doc")))
                .isEqualTo(field("type", Match.newBuilder().setExceptKeywords(strings("test", "doc"))));
        assertThat(QdrantFilterConverter.condition(matchExcept("n", "3")))
                .isEqualTo(field("n", Match.newBuilder().setExceptIntegers(ints(3))));
        assertThat(QdrantFilterConverter.condition(matchExcept("n", "x", "3")))
                .isEqualTo(nested(Filter.newBuilder()
                        .addMust(field("n", Match.newBuilder().setExceptKeywords(strings("x"))))
                        .addMust(field("n", Match.newBuilder().setExceptIntegers(ints(3))))
                        .build()));
    }

    @Test
    void rangeCopiesOnlyTheGivenBounds() {
        assertThat(QdrantFilterConverter.condition(between("startLine", 10.0, null)))
                .isEqualTo(Condition.newBuilder().setField(FieldCondition.newBuilder().setKey("startLine")
                        .setRange(Range.newBuilder().setGte(10))).build());
        assertThat(QdrantFilterConverter.condition(range("x", 1.0, null, 5.5, null)))
                .isEqualTo(Condition.newBuilder().setField(FieldCondition.newBuilder().setKey("x")
                        .setRange(Range.newBuilder().setGt(1).setLt(5.5))).build());
        Range r = QdrantFilterConverter.condition(range("x", null, -1.0, null, 2.0)).getField().getRange();
        assertThat(r.hasGt()).isFalse();
        assertThat(r.hasLt()).isFalse();
        assertThat(r.getGte()).isEqualTo(-1);
        assertThat(r.getLte()).isEqualTo(2);
    }

    @Test
    void isEmptyAndIsNull() {
        assertThat(QdrantFilterConverter.condition(isEmpty("tags"))).isEqualTo(Condition.newBuilder()
                .setIsEmpty(IsEmptyCondition.newBuilder().setKey("tags")).build());
        assertThat(QdrantFilterConverter.condition(isNull("tags"))).isEqualTo(Condition.newBuilder()
                .setIsNull(IsNullCondition.newBuilder().setKey("tags")).build());
    }

    @Test
    void booleanNodesNestOneToOne() {
        PayloadFilter f = must(matchKeyword("type", "method"),
                should(matchKeyword("domain", "a"), matchKeyword("domain", "b")),
                mustNot(matchKeyword("path", "x")));
        Filter expected = Filter.newBuilder()
                .addMust(field("type", Match.newBuilder().setKeyword("method")))
                .addMust(nested(Filter.newBuilder()
                        .addShould(field("domain", Match.newBuilder().setKeyword("a")))
                        .addShould(field("domain", Match.newBuilder().setKeyword("b"))).build()))
                .addMust(nested(Filter.newBuilder()
                        .addMustNot(field("path", Match.newBuilder().setKeyword("x"))).build()))
                .build();
        assertThat(QdrantFilterConverter.toFilter(f)).isEqualTo(expected);
        assertThat(QdrantFilterConverter.toFilter(should(matchKeyword("a", "1"))))
                .isEqualTo(Filter.newBuilder().addShould(field("a", Match.newBuilder().setInteger(1))).build());
        assertThat(QdrantFilterConverter.toFilter(mustNot(isEmpty("a"))))
                .isEqualTo(Filter.newBuilder().addMustNot(Condition.newBuilder()
                        .setIsEmpty(IsEmptyCondition.newBuilder().setKey("a"))).build());
    }

    @Test
    void emptyShouldMatchesNothingAndEmptyMustNotEverything() {
        assertThat(QdrantFilterConverter.toFilter(should())).isEqualTo(Filter.newBuilder()
                .addMustNot(nested(Filter.getDefaultInstance())).build());
        assertThat(QdrantFilterConverter.toFilter(mustNot())).isEqualTo(Filter.getDefaultInstance());
        Map<String, Value> payload = PayloadCodec.encode(ChunkInput.of("id", "t", Map.of("a", "x")));
        assertThat(QdrantSemantics.test(QdrantFilterConverter.toFilter(should()), payload)).isFalse();
        assertThat(QdrantSemantics.test(QdrantFilterConverter.toFilter(mustNot()), payload)).isTrue();
    }

    // ---- semantics: Qdrant's evaluation of the translation equals PayloadFilter.test

    @Test
    void handPickedCasesAgreeWithTheEmbeddedEvaluator() {
        ChunkInput chunk = new ChunkInput("c", "text", Map.of("type", "method", "startLine", "12", "v", "007"),
                Map.of("tags", List.of("http", "retry"), "nums", List.of("1", "20"), "empty", List.of()), Map.of());
        List<PayloadFilter> filters = List.of(
                matchKeyword("startLine", "12"), matchKeyword("startLine", "012"), matchKeyword("v", "007"),
                matchKeyword("v", "7"), matchAny("tags", "x", "retry"), matchAny("nums", "x", "20"),
                matchExcept("tags", "http", "retry"), matchExcept("tags", "http"), matchExcept("nums", "1", "20"),
                matchExcept("missing", "a"), matchExcept("empty", "a"), between("startLine", 12.0, 12.0),
                range("startLine", 12.0, null, null, null), between("v", 0.0, 10.0), between("nums", 15.0, null),
                isEmpty("empty"), isEmpty("missing"), isEmpty("tags"), isNull("type"), matchText("type", "eth"),
                should(), mustNot(), must(), must(should(), matchKeyword("type", "method")));
        Map<String, Value> payload = PayloadCodec.encode(chunk);
        for (PayloadFilter f : filters) {
            assertThat(QdrantSemantics.test(QdrantFilterConverter.toFilter(f), payload))
                    .as(f.toString()).isEqualTo(f.test(chunk.payload()));
        }
        // spot checks against hand-derived truth, so a shared mistake cannot hide
        assertThat(matchKeyword("startLine", "12").test(chunk.payload())).isTrue();
        assertThat(between("v", 0.0, 10.0).test(chunk.payload())).isFalse(); // "007" is not a number
        assertThat(matchExcept("tags", "http", "retry").test(chunk.payload())).isFalse();
        assertThat(matchExcept("empty", "a").test(chunk.payload())).isFalse();
    }

    @Test
    void randomFiltersAgreeWithTheEmbeddedEvaluator() {
        Random random = new Random(42);
        int agreements = 0;
        int matches = 0;
        for (int i = 0; i < 3000; i++) {
            ChunkInput chunk = randomChunk(random);
            PayloadFilter f = randomFilter(random, 3);
            boolean expected = f.test(chunk.payload());
            boolean actual = QdrantSemantics.test(QdrantFilterConverter.toFilter(f), PayloadCodec.encode(chunk));
            assertThat(actual).as("filter %s on %s", f, chunk).isEqualTo(expected);
            agreements++;
            matches += expected ? 1 : 0;
        }
        assertThat(agreements).isEqualTo(3000);
        assertThat(matches).as("the generator must produce both outcomes").isBetween(300, 2700);
    }

    private static final String[] KEYS = {"a", "b", "c"};
    private static final String[] STRINGS = {"x", "y", "007", "1.5", "xy"};
    private static final String[] INTS = {"12", "7", "-3", "0"};

    private static String value(Random r) {
        return r.nextBoolean() ? STRINGS[r.nextInt(STRINGS.length)] : INTS[r.nextInt(INTS.length)];
    }

    private static ChunkInput randomChunk(Random r) {
        Map<String, String> meta = new LinkedHashMap<>();
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (String k : KEYS) {
            switch (r.nextInt(3)) {
                case 0:
                    meta.put(k, value(r));
                    break;
                case 1: {
                    // lists hold one kind of value (see the converter's documented MatchExcept gap)
                    String[] pool = r.nextBoolean() ? STRINGS : INTS;
                    List<String> vs = new ArrayList<>();
                    for (int n = r.nextInt(3); n > 0; n--) {
                        vs.add(pool[r.nextInt(pool.length)]);
                    }
                    lists.put(k, vs);
                    break;
                }
                default:
                    break;
            }
        }
        return new ChunkInput("id", "text", meta, lists, Map.of());
    }

    private static String[] values(Random r) {
        String[] vs = new String[r.nextInt(3) + (r.nextInt(10) == 0 ? 0 : 1)];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = value(r);
        }
        return vs;
    }

    private static PayloadFilter randomFilter(Random r, int depth) {
        String k = KEYS[r.nextInt(KEYS.length)];
        int kind = r.nextInt(depth > 0 ? 12 : 9);
        switch (kind) {
            case 0:
                return matchKeyword(k, value(r));
            case 1:
                return matchText(k, r.nextBoolean() ? "x" : "y"); // letters only: see the documented number gap
            case 2:
                return matchAny(k, values(r));
            case 3:
                return matchExcept(k, values(r));
            case 4: {
                Double lo = r.nextBoolean() ? null : (double) (r.nextInt(30) - 5);
                Double hi = lo != null && r.nextBoolean() ? null : (double) (r.nextInt(30) - 5);
                return r.nextBoolean() ? range(k, lo, null, hi, null) : between(k, lo, hi);
            }
            case 5:
                return isEmpty(k);
            case 6:
                return isNull(k);
            case 7:
            case 8:
                return matchKeyword(k, value(r));
            default: {
                PayloadFilter[] children = new PayloadFilter[r.nextInt(3)];
                for (int i = 0; i < children.length; i++) {
                    children[i] = randomFilter(r, depth - 1);
                }
                return kind == 9 ? must(children) : kind == 10 ? should(children) : mustNot(children);
            }
        }
    }

    // ---- helpers

    private static Condition field(String key, Match.Builder match) {
        return Condition.newBuilder().setField(FieldCondition.newBuilder().setKey(key).setMatch(match)).build();
    }

    private static Condition nested(Filter f) {
        return Condition.newBuilder().setFilter(f).build();
    }

    private static RepeatedStrings strings(String... s) {
        return RepeatedStrings.newBuilder().addAllStrings(List.of(s)).build();
    }

    private static RepeatedIntegers ints(long... v) {
        RepeatedIntegers.Builder b = RepeatedIntegers.newBuilder();
        for (long x : v) {
            b.addIntegers(x);
        }
        return b.build();
    }

    /** Payload shape check used above: canonical integers are integer payload. */
    @Test
    void payloadSemanticsPrecondition() {
        assertThat(Payload.isCanonicalInteger("-3")).isTrue();
        assertThat(PayloadCodec.scalar("-3").getIntegerValue()).isEqualTo(-3);
    }
}
