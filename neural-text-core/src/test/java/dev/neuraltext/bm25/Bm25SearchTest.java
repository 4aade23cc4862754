package dev.neuraltext.bm25;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.fusion.LegResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The pruned search against exhaustive scoring on random corpora: every live document scored through
 * {@link Bm25Index#explain} (which reads every posting of every query term), sorted by score and indexing order,
 * filtered, cut.
 * The two must agree exactly: same ids, same order, same scores to the last bit.
 */
class Bm25SearchTest {

    @Test
    void prunedSearchEqualsExhaustiveScoringOnRandomCorpora() {
        assertThat(compare(12, 50, 900, 25, 1000, 0.1)).isGreaterThan(5_000);
    }

    @Test
    void prunedSearchEqualsExhaustiveScoringAcrossManyBlocks() {
        // frequent terms span many blocks of postings, so block bounds, windows and skipped windows all happen
        assertThat(13_000 / InvertedIndex.BLOCK_SIZE).isGreaterThan(50);
        assertThat(compare(1, 13_000, 1, 12, 2000, 0.1)).isGreaterThan(50);
    }

    @Test
    void prunedSearchEqualsExhaustiveScoringWithManyDeletedDocumentsInTheBlocks() {
        // 45% deleted stays below the compaction threshold: the blocks keep the deleted postings
        assertThat(compare(3, 4_000, 2_000, 15, 3000, 0.45)).isGreaterThan(50);
    }

    @Test
    void prunedSearchEqualsExhaustiveScoringWhenManyDocumentsTie() {
        // every document is one of a few texts repeated many times, as copied or generated code is: most scores tie
        assertThat(compareDuplicated(4, 3_000, 6, 40, 4000)).isGreaterThan(500);
    }

    /**
     * Corpora of {@code documents} documents drawn from {@code distinct} texts (so scores tie in large groups), with
     * deletes and replacements; returns how many results were compared.
     */
    private static int compareDuplicated(int corpora, int documents, int distinct, int queries, long seed) {
        int compared = 0;
        for (int corpus = 0; corpus < corpora; corpus++) {
            Random random = new Random(seed + corpus);
            Bm25Index index = Bm25Index.builder().build();
            int vocabulary = 30 + random.nextInt(50);
            List<Map<String, String>> texts = new ArrayList<>();
            for (int t = 0; t < distinct; t++) {
                texts.add(Map.of("name", words(random, vocabulary, 1), "body", words(random, vocabulary, 5 + t * 3)));
            }
            List<String> ids = new ArrayList<>();
            for (int d = 0; d < documents; d++) {
                String id = "doc-" + random.nextInt(1_000_000) + "-" + d; // ids in no relation to indexing order
                index.upsert(id, texts.get(random.nextInt(distinct)));
                ids.add(id);
            }
            for (int k = 0; k < documents / 10; k++) {
                String id = ids.get(random.nextInt(ids.size()));
                if (random.nextBoolean()) {
                    index.delete(id);
                } else {
                    index.upsert(id, texts.get(random.nextInt(distinct)));
                }
            }
            for (int q = 0; q < queries; q++) {
                String query = words(random, vocabulary, 1 + random.nextInt(6));
                int limit = 1 + random.nextInt(random.nextBoolean() ? 10 : 200);
                Predicate<String> accept = q % 3 == 0 ? id -> id.hashCode() % 4 != 0 : null;
                List<LegResult> expected = exhaustive(index, ids, query, limit, accept);
                assertThat(index.search(query, limit, accept)).as("corpus %d, query '%s', limit %d", corpus, query,
                        limit).isEqualTo(expected);
                compared += expected.size();
            }
        }
        return compared;
    }

    /**
     * Random corpora of {@code minDocs + random(spread)} documents, of which {@code changed} (a fraction) are then
     * deleted or replaced at random; returns how many results were compared.
     */
    private static int compare(int corpora, int minDocs, int spread, int queries, long seed, double changed) {
        int compared = 0;
        for (int corpus = 0; corpus < corpora; corpus++) {
            Random random = new Random(seed + corpus);
            // a Zipf-like vocabulary: few frequent terms, many rare ones, so bounds differ and pruning kicks in
            int vocabulary = 20 + random.nextInt(400);
            Bm25Index index = corpus % 3 == 0 ? Bm25Index.builder().clearFieldSettings().build()
                    : Bm25Index.builder().build();
            Map<String, Integer> group = new HashMap<>();
            List<String> ids = new ArrayList<>();
            int documents = minDocs + random.nextInt(spread);
            for (int d = 0; d < documents; d++) {
                String id = "doc-" + d;
                index.upsert(id, Map.of("name", words(random, vocabulary, 1 + random.nextInt(2)),
                        "body", words(random, vocabulary, random.nextInt(60))));
                group.put(id, random.nextInt(5));
                ids.add(id);
            }
            for (int k = 0; k < documents * changed; k++) { // deletes and replacements: holes and compactions
                String id = ids.get(random.nextInt(ids.size()));
                if (random.nextBoolean()) {
                    index.delete(id);
                } else {
                    index.upsert(id, Map.of("body", words(random, vocabulary, 1 + random.nextInt(30))));
                }
            }
            for (int q = 0; q < queries; q++) {
                String query = words(random, vocabulary, 1 + random.nextInt(12));
                int limit = 1 + random.nextInt(random.nextBoolean() ? 10 : 200);
                int excluded = random.nextInt(6); // 5 = no filter
                Predicate<String> accept = excluded == 5 ? null : id -> group.get(id) != excluded;
                List<LegResult> expected = exhaustive(index, ids, query, limit, accept);
                List<LegResult> actual = index.search(query, limit, accept);
                assertThat(actual).as("corpus %d, query '%s', limit %d, excluded %d", corpus, query, limit, excluded)
                        .isEqualTo(expected);
                compared += actual.size();
            }
        }
        return compared;
    }

    private static List<LegResult> exhaustive(Bm25Index index, List<String> ids, String query, int limit,
            Predicate<String> accept) {
        List<LegResult> all = new ArrayList<>();
        for (String id : ids) {
            index.explain(query, id).ifPresent(why -> {
                if (!why.terms().isEmpty() && why.score() > 0 && (accept == null || accept.test(id))) {
                    all.add(new LegResult(id, why.score()));
                }
            });
        }
        all.sort(Comparator.comparingDouble(LegResult::score).reversed()
                .thenComparingInt(r -> index.ordinal(r.id())));
        return all.subList(0, Math.min(limit, all.size()));
    }

    /** {@code count} words drawn with a skewed distribution from {@code vocabulary} distinct words. */
    private static String words(Random random, int vocabulary, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            double u = random.nextDouble();
            int rank = (int) (vocabulary * u * u * u); // cubic skew: low ranks frequent
            text.append('w').append(letters(rank)).append(' ');
        }
        return text.toString();
    }

    private static String letters(int n) {
        StringBuilder s = new StringBuilder();
        do {
            s.append((char) ('a' + n % 26));
            n /= 26;
        } while (n > 0);
        return s.toString();
    }
}
