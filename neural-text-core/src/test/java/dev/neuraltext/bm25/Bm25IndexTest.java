package dev.neuraltext.bm25;

import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static dev.neuraltext.filter.PayloadFilter.mustNot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.LegResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class Bm25IndexTest {

    private static final double EPS = 1e-9;

    /** Plain BM25: one field, weight 1, the params' b, every occurrence counted. */
    private static Bm25Index plain() {
        return Bm25Index.builder().clearFieldSettings().build();
    }

    private static void body(Bm25Index index, String id, String text) {
        index.upsert(id, Map.of("body", text));
    }

    private static List<String> ids(List<LegResult> results) {
        return results.stream().map(LegResult::id).toList();
    }

    @Test
    void scoresFollowTheBm25FormulaOnAThreeDocumentCorpus() {
        Bm25Index index = plain();
        body(index, "d1", "apple banana apple"); // 3 terms
        body(index, "d2", "banana cherry"); // 2 terms
        body(index, "d3", "cherry date elderberry fig"); // 4 terms; avgdl = 3, N = 3
        double k1 = 1.2;
        double b = 0.75;

        // apple: df 1, idf = ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = ln(8/3) = 0.980829
        double idfApple = Math.log(1 + 2.5 / 1.5);
        assertThat(idfApple).isCloseTo(0.980829, within(1e-6));
        // d1: tf 2, length 3 = avgdl, so the norm is 1: 0.980829 * 2 / (1.2 + 2) = 0.613018
        List<LegResult> apple = index.search("apple", 10, null);
        assertThat(ids(apple)).containsExactly("d1");
        assertThat(apple.get(0).score()).isCloseTo(idfApple * 2 / (k1 + 2), within(EPS)).isCloseTo(0.613018, within(1e-6));

        // banana and cherry: df 2 each, idf = ln(1 + 1.5 / 2.5) = ln(1.6) = 0.470004
        double idf2 = Math.log(1.6);
        double normD2 = 1 - b + b * 2 / 3.0; // 0.75
        double normD1 = 1 - b + b * 3 / 3.0; // 1.0
        double normD3 = 1 - b + b * 4 / 3.0; // 1.25
        double d2 = 2 * idf2 * 1 / (1 + k1 * normD2); // both terms, tf 1: 0.494741
        double d1 = idf2 * 1 / (1 + k1 * normD1); // banana: 0.213638
        double d3 = idf2 * 1 / (1 + k1 * normD3); // cherry: 0.188002
        assertThat(d2).isCloseTo(0.494741, within(1e-6));
        assertThat(d1).isCloseTo(0.213638, within(1e-6));
        assertThat(d3).isCloseTo(0.188002, within(1e-6));

        List<LegResult> results = index.search("banana cherry", 10, null);
        assertThat(ids(results)).containsExactly("d2", "d1", "d3");
        assertThat(results.get(0).score()).isCloseTo(d2, within(EPS));
        assertThat(results.get(1).score()).isCloseTo(d1, within(EPS));
        assertThat(results.get(2).score()).isCloseTo(d3, within(EPS));
        assertThat(ids(index.search("banana cherry", 2, null))).containsExactly("d2", "d1");

        Bm25Explanation why = index.explain("banana cherry", "d2").orElseThrow();
        assertThat(why.score()).isCloseTo(d2, within(EPS));
        assertThat(why.documents()).isEqualTo(3);
        assertThat(why.terms()).extracting(Bm25Explanation.TermExplanation::term).containsExactly("banana", "cherry");
        Bm25Explanation.TermExplanation banana = why.terms().get(0);
        assertThat(banana.df()).isEqualTo(2);
        assertThat(banana.idf()).isCloseTo(idf2, within(EPS));
        assertThat(banana.tfTilde()).isCloseTo(1 / normD2, within(EPS));
        assertThat(banana.fields()).containsOnlyKeys("body");
        assertThat(banana.fields().get("body").length()).isEqualTo(2);
        assertThat(banana.fields().get("body").averageLength()).isCloseTo(3.0, within(EPS));
        assertThat(why.toString()).contains("banana", "cherry", "body: tf 1, length 2 / avg 3.00");
        assertThat(index.explain("apple", "d2").orElseThrow().terms()).isEmpty();
        assertThat(index.explain("apple", "nope")).isEmpty();
    }

    @Test
    void explainGivesExactlyTheScoreSearchReturnsOnARandomMultiFieldCorpus() {
        Random random = new Random(11);
        String[] vocabulary = {"alpha", "beta", "gamma", "ChatModel", "HashMap", "retry", "policy", "x1", "parseDate"};
        Bm25Index index = Bm25Index.builder().build();
        for (int i = 0; i < 300; i++) {
            index.upsert("doc-" + i, Map.of("name", vocabulary[random.nextInt(vocabulary.length)] + i,
                    "signature", sentence(random, vocabulary, 3),
                    // some bodies longer than a byte: their norms are computed from the int length, not the table
                    "body", sentence(random, vocabulary, random.nextInt(6) == 0 ? 200 + random.nextInt(300) : 12)));
        }
        for (int i = 0; i < 40; i++) { // deletes and replacements change N, df and the average lengths
            index.delete("doc-" + random.nextInt(300));
            index.upsert("doc-" + random.nextInt(300), Map.of("body", sentence(random, vocabulary, 5)));
        }
        int checked = 0;
        int longBodies = 0;
        for (int q = 0; q < 50; q++) {
            String query = sentence(random, vocabulary, 1 + random.nextInt(4));
            for (LegResult hit : index.search(query, 20)) {
                Bm25Explanation why = index.explain(query, hit.id()).orElseThrow();
                longBodies += why.terms().stream().map(t -> t.fields().get("body"))
                        .anyMatch(f -> f != null && f.length() >= FieldScoring.LONG_LENGTH) ? 1 : 0;
                // the same scorer in the same order of operations: equal to the last bit
                assertThat(why.score()).as(query + " / " + hit.id()).isEqualTo(hit.score());
                assertThat(why.terms().stream().mapToDouble(Bm25Explanation.TermExplanation::contribution).sum())
                        .isCloseTo(hit.score(), within(EPS));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(500);
        assertThat(longBodies).isGreaterThan(20);
    }

    private static String sentence(Random random, String[] vocabulary, int words) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < words; w++) {
            text.append(vocabulary[random.nextInt(vocabulary.length)]).append(' ');
        }
        return text.toString();
    }

    @Test
    void customParamsChangeTheScore() {
        Bm25Index index = Bm25Index.builder().clearFieldSettings().params(new Bm25Params(2.0, 0.0)).build();
        body(index, "d1", "apple apple apple banana");
        body(index, "d2", "banana");
        // b = 0: no length normalisation; apple df 1 of N 2: idf = ln(1 + 1.5 / 1.5) = ln 2; tf 3: 3 / (3 + 2)
        assertThat(index.search("apple", 1, null).get(0).score()).isCloseTo(Math.log(2) * 3 / 5, within(EPS));
    }

    @Test
    void fieldWeightsAndPerFieldLengthNormalisationFollowBm25F() {
        Bm25Index index = Bm25Index.builder().clearFieldSettings()
                .fieldWeight("name", 3).fieldB("name", 1.0).build();
        index.upsert("A", Map.of("name", "retry", "body", "policy backoff"));
        index.upsert("B", Map.of("name", "policy", "body", "retry retry loop"));
        // retry: df 2 of N 2: idf = ln(1 + 0.5 / 2.5) = ln 1.2
        double idf = Math.log(1.2);
        // A: name tf 1, length 1 = avg name length 1, b 1: tf~ = 3 * 1 / 1 = 3 -> 3 / 4.2
        double a = idf * 3 / (1.2 + 3);
        // B: body tf 2, length 3, avg body length 2.5, b 0.75: norm 1.15, tf~ = 2 / 1.15
        double tfB = 2 / (0.25 + 0.75 * 3 / 2.5);
        double bScore = idf * tfB / (1.2 + tfB);
        assertThat(a).isCloseTo(0.130230, within(1e-6));
        assertThat(bScore).isCloseTo(0.107882, within(1e-6));

        List<LegResult> results = index.search("retry", 10, null);
        assertThat(ids(results)).containsExactly("A", "B");
        assertThat(results.get(0).score()).isCloseTo(a, within(EPS));
        assertThat(results.get(1).score()).isCloseTo(bScore, within(EPS));
        // a repeated query term counts twice
        assertThat(index.search("retry retry", 1, null).get(0).score()).isCloseTo(2 * a, within(EPS));

        Bm25Index lightName = Bm25Index.builder().clearFieldSettings().fieldWeight("name", 0.5).build();
        lightName.upsert("A", Map.of("name", "retry", "body", "policy backoff"));
        lightName.upsert("B", Map.of("name", "policy", "body", "retry retry loop"));
        // A: tf~ = 0.5 (name length = average, so norm 1 whatever b): 0.5 / 1.7 = 0.294 < B's 0.592
        assertThat(ids(lightName.search("retry", 10, null))).containsExactly("B", "A");
        assertThat(lightName.search("retry", 10, null).get(1).score()).isCloseTo(idf * 0.5 / 1.7, within(EPS));
    }

    @Test
    void theTypeBeatsItsConstructorByDefaultBecauseNameIsBinary() {
        Bm25Index index = Bm25Index.builder().build();
        index.upsert("ctor", Map.of("name", "Foo.Foo", "body", "x"));
        index.upsert("type", Map.of("name", "Foo", "body", "x"));
        // name weight 8, b 1, avg name length 1.5; foo: idf ln 1.2
        // type: tf 1, length 1: tf~ = 8 / (1 / 1.5) = 12; ctor: binary tf 1, length 2: tf~ = 8 / (2 / 1.5) = 6
        List<LegResult> results = index.search("Foo", 10, null);
        assertThat(ids(results)).containsExactly("type", "ctor");
        assertThat(results.get(0).score()).isCloseTo(Math.log(1.2) * 12 / 13.2, within(EPS));
        assertThat(results.get(1).score()).isCloseTo(Math.log(1.2) * 6 / 7.2, within(EPS));

        Bm25Index counting = Bm25Index.builder().binaryField("name", false).build();
        counting.upsert("ctor", Map.of("name", "Foo.Foo", "body", "x"));
        counting.upsert("type", Map.of("name", "Foo", "body", "x"));
        // ctor: tf 2: tf~ = 16 / (2 / 1.5) = 12, a tie broken by id
        List<LegResult> tie = counting.search("Foo", 10, null);
        assertThat(ids(tie)).containsExactly("ctor", "type");
        assertThat(tie.get(0).score()).isCloseTo(tie.get(1).score(), within(EPS));
    }

    @Test
    void aReExportedNameCountsInFullHoweverManyNamesTheHeaderLists() {
        Bm25Index index = Bm25Index.builder().build();
        index.upsert("header", Map.of("name", "mod.rs", "exports", "FromRequest FromRef Query Json Form Path State"));
        index.upsert("short", Map.of("name", "lib.rs", "exports", "Query"));
        index.upsert("mention", Map.of("name", "Json.from_request", "body", "impl FromRequest for Json"));
        // exports: weight 16, b 0 and binary: a list of seven names scores a name in it as a list of one does
        assertThat(ids(index.search("Query", 10, null))).containsExactlyInAnyOrder("header", "short");
        List<LegResult> query = index.search("Query", 10, null);
        assertThat(query.get(0).score()).isCloseTo(query.get(1).score(), within(EPS));
        // the re-export outranks a method whose name only shares the words
        assertThat(ids(index.search("FromRequest", 10, null))).startsWith("header");
    }

    @Test
    void theFilterIsEvaluatedInsideTheSearch() {
        Bm25Index index = plain();
        Map<String, Payload> payloads = new HashMap<>(); // the caller's payload table, as a store keeps it
        for (int i = 0; i < 6; i++) {
            // same length, decreasing term frequency: d0 best
            String text = "alpha ".repeat(6 - i) + "pad ".repeat(i);
            index.upsert("d" + i, Map.of("body", text));
            payloads.put("d" + i, new Payload(Map.of("group", i < 3 ? "top" : "rest"), Map.of()));
        }
        Function<PayloadFilter, Predicate<String>> where = filter -> id -> filter.test(payloads.get(id));
        assertThat(ids(index.search("alpha", 3, null))).containsExactly("d0", "d1", "d2");
        // the three best are excluded and the next three still come back
        assertThat(ids(index.search("alpha", 3, where.apply(mustNot(matchKeyword("group", "top"))))))
                .containsExactly("d3", "d4", "d5");
        assertThat(ids(index.search("alpha", 2, where.apply(matchKeyword("group", "rest"))))).containsExactly("d3", "d4");
        assertThat(index.search("alpha", 3, where.apply(matchKeyword("group", "none")))).isEmpty();
    }

    @Test
    void tiesGoToTheDocumentIndexedFirstAndAReplacedOneMovesLast() {
        Bm25Index index = plain();
        for (String id : List.of("c", "a", "d", "b")) {
            body(index, id, "same words here");
        }
        assertThat(ids(index.search("words", 10, null))).containsExactly("c", "a", "d", "b");
        assertThat(ids(index.search("words", 2, null))).containsExactly("c", "a");
        body(index, "c", "same words here");
        assertThat(ids(index.search("words", 10, null))).containsExactly("a", "d", "b", "c");
        assertThat(ids(index.search("words", 3, null))).containsExactly("a", "d", "b");
    }

    @Test
    void upsertReplacesAndDeleteRemoves() {
        Bm25Index index = plain();
        body(index, "a", "apple");
        body(index, "b", "apple banana");
        body(index, "a", "banana");
        assertThat(index.size()).isEqualTo(2);
        assertThat(ids(index.search("apple", 10, null))).containsExactly("b");
        assertThat(ids(index.search("banana", 10, null))).containsExactlyInAnyOrder("a", "b");
        assertThat(index.delete("b")).isTrue();
        assertThat(index.delete("b")).isFalse();
        assertThat(index.contains("b")).isFalse();
        assertThat(index.size()).isEqualTo(1);
        assertThat(index.search("apple", 10, null)).isEmpty();
        // after the delete, N = 1 and df(banana) = 1: idf = ln(1 + 0.5 / 1.5), single doc at average length
        assertThat(index.search("banana", 10, null).get(0).score())
                .isCloseTo(Math.log(1 + 0.5 / 1.5) / (1 + 1.2), within(EPS));
    }

    @Test
    void deletesAndReplacementsScoreLikeAFreshIndex() {
        Random random = new Random(3);
        String[] vocabulary = {"alpha", "beta", "gamma", "delta", "ChatModel", "HashMap", "retry", "policy", "x1"};
        Map<String, String> live = new LinkedHashMap<>();
        Bm25Index index = Bm25Index.builder().build();
        for (int i = 0; i < 400; i++) {
            String id = "doc-" + random.nextInt(300);
            if (random.nextInt(3) == 0) {
                index.delete(id);
                live.remove(id);
            } else {
                StringBuilder text = new StringBuilder();
                for (int w = 1 + random.nextInt(8); w > 0; w--) {
                    text.append(vocabulary[random.nextInt(vocabulary.length)]).append(' ');
                }
                index.upsert(id, Map.of("body", text.toString(), "name", id));
                live.remove(id);
                live.put(id, text.toString());
            }
        }
        for (int i = 0; i < 250; i++) { // deletes past half the index force a compaction
            String id = "doc-" + i;
            index.delete(id);
            live.remove(id);
        }
        for (int i = 0; i < 40; i++) { // doc ordinals are reused after the compaction
            String text = vocabulary[i % vocabulary.length] + " " + vocabulary[(i * 7) % vocabulary.length];
            index.upsert("late-" + i, Map.of("body", text, "name", "late-" + i));
            live.put("late-" + i, text);
        }
        Bm25Index fresh = Bm25Index.builder().build();
        live.forEach((id, text) -> fresh.upsert(id, Map.of("body", text, "name", id)));
        assertThat(index.size()).isEqualTo(live.size()).isEqualTo(fresh.size());
        for (String query : List.of("alpha", "chat model", "ChatModel retry", "hash x1", "doc 260", "delta gamma beta", "late")) {
            List<LegResult> expected = fresh.search(query, 50, null);
            List<LegResult> actual = index.search(query, 50, null);
            assertThat(ids(actual)).as(query).isEqualTo(ids(expected));
            for (int k = 0; k < actual.size(); k++) {
                assertThat(actual.get(k).score()).isCloseTo(expected.get(k).score(), within(EPS));
            }
        }
    }

    @Test
    void statisticsStayExactWhenOrdinalsAreReusedAfterACompaction() {
        Bm25Index index = plain();
        Bm25Index fresh = plain();
        for (int i = 0; i < 100; i++) {
            body(index, "doc" + i, "common " + word(i));
        }
        for (int i = 0; i < 64; i++) { // the 64th delete compacts: 36 documents renumbered 0..35
            index.delete("doc" + i);
        }
        for (int i = 64; i < 100; i++) {
            body(fresh, "doc" + i, "common " + word(i));
        }
        for (int i = 0; i < 100; i++) { // late63 gets ordinal 99, the old ordinal of word(99)'s only document
            String text = i == 63 ? "common " + word(99) : "common";
            body(index, "late" + i, text);
            body(fresh, "late" + i, text);
        }
        assertThat(index.size()).isEqualTo(136);
        List<LegResult> expected = fresh.search(word(99), 10, null);
        assertThat(ids(expected)).containsExactlyInAnyOrder("doc99", "late63");
        // word(99): df 2 of N 136; both its documents have 2 terms, avgdl = (36 * 2 + 99 * 1 + 2) / 136
        double norm = 0.25 + 0.75 * 2 / (173 / 136.0);
        assertThat(expected.get(0).score()).isCloseTo(Math.log(1 + 134.5 / 2.5) / (1 + 1.2 * norm), within(EPS));
        assertThat(index.search(word(99), 10, null)).isEqualTo(expected);
        assertThat(index.search("common " + word(99), 200, null))
                .isEqualTo(fresh.search("common " + word(99), 200, null));
    }

    /** A distinct letters-only word per number (digits would split into parts). */
    private static String word(int i) {
        return "q" + (char) ('a' + i / 26) + (char) ('a' + i % 26);
    }

    @Test
    void bulkUpsertEqualsSingleUpserts() {
        List<Bm25Index.Document> docs = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            docs.add(new Bm25Index.Document("id" + i, Map.of("name", "Type" + (i % 17), "body", "word" + (i % 31) + " common")));
        }
        docs.add(new Bm25Index.Document("id5", Map.of("body", "replaced")));
        Bm25Index bulk = Bm25Index.builder().build();
        bulk.upsertAll(docs);
        Bm25Index single = Bm25Index.builder().build();
        docs.forEach(d -> single.upsert(d.id(), d.fields()));
        assertThat(bulk.size()).isEqualTo(3000);
        assertThat(bulk.search("Type3 word7 replaced", 20, null)).isEqualTo(single.search("Type3 word7 replaced", 20, null));
    }

    @Test
    void queriesWithoutKnownTermsFindNothing() {
        Bm25Index index = plain();
        assertThat(index.search("anything", 5, null)).isEmpty();
        body(index, "a", "apple");
        assertThat(index.search("", 5, null)).isEmpty();
        assertThat(index.search("the of and", 5, null)).isEmpty();
        assertThat(index.search("unknown", 5, null)).isEmpty();
    }

    @Test
    void rejectsCallerMistakes() {
        Bm25Index index = plain();
        assertThatThrownBy(() -> index.search("x", 0, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit").hasMessageContaining("0");
        assertThatThrownBy(() -> index.upsert(" ", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id");
        assertThatThrownBy(() -> index.upsert("a", Map.of(" ", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fields");
        assertThatThrownBy(() -> Bm25Index.builder().fieldWeight("name", -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name").hasMessageContaining("-1");
        assertThatThrownBy(() -> Bm25Index.builder().fieldB("name", 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.5");
        assertThatThrownBy(() -> new Bm25Params(Double.NaN, 0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void descriptionNamesTheWholeConfiguration() {
        Bm25Index defaults = Bm25Index.builder().build();
        assertThat(defaults.description()).isEqualTo(Bm25Index.builder().build().description())
                .contains("k1=1.2", "b=0.75", "name:w8.0/b1.0", "signature:w3.0/b0.75", "body:w1.0/b0.75",
                        "exports:w16.0/b0.0", "binary=[exports, name]", defaults.tokenizer().id());
        assertThat(Bm25Index.builder().fieldWeight("name", 2).build().description())
                .isNotEqualTo(defaults.description());
        assertThat(defaults.fieldWeights()).containsEntry("name", 8.0).containsEntry("body", 1.0);
        assertThat(defaults.fieldBs()).containsEntry("name", 1.0);
    }
}
