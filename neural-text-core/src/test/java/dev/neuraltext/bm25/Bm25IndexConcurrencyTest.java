package dev.neuraltext.bm25;

import static dev.neuraltext.filter.PayloadFilter.matchKeyword;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.filter.Payload;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.LegResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class Bm25IndexConcurrencyTest {

    @Test
    void searchesRunSafelyWhileOneWriterAddsReplacesAndDeletes() throws Exception {
        Bm25Index index = Bm25Index.builder().build();
        // the caller's payload table (a store keeps it); payloads are written before their document, never removed
        Map<String, Payload> payloads = new ConcurrentHashMap<>();
        PayloadFilter even = matchKeyword("parity", "even");
        String[] words = {"ChatModel", "retry", "policy", "HashMap", "stream", "buffer", "parse", "json"};
        for (int i = 0; i < 500; i++) {
            index.upsert("seed-" + i, Map.of("name", "Seed" + i, "body", words[i % words.length] + " seed"));
            payloads.put("seed-" + i, new Payload(Map.of("parity", i % 2 == 0 ? "even" : "odd"), Map.of()));
        }
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong searches = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            expected.add("seed-" + i);
        }

        Thread writer = new Thread(() -> {
            try {
                start.await();
                Random random = new Random(1);
                for (int op = 0; op < 5_000; op++) {
                    String id = (random.nextBoolean() ? "seed-" : "new-") + random.nextInt(800);
                    if (random.nextInt(4) == 0) {
                        index.delete(id);
                        expected.remove(id);
                    } else {
                        payloads.put(id, new Payload(Map.of("parity", op % 2 == 0 ? "even" : "odd"), Map.of()));
                        index.upsert(id, Map.of("name", id, "body", words[random.nextInt(words.length)] + " "
                                + words[random.nextInt(words.length)]));
                        expected.add(id);
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            } finally {
                done.set(true);
            }
        }, "bm25-writer");

        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            int seed = r;
            readers.add(new Thread(() -> {
                try {
                    start.await();
                    Random random = new Random(100 + seed);
                    while (!done.get()) {
                        String query = words[random.nextInt(words.length)] + " " + words[random.nextInt(words.length)];
                        List<LegResult> results = random.nextBoolean()
                                ? index.search(query, 10, null)
                                : index.search(query, 10, id -> even.test(payloads.get(id)));
                        Set<String> seen = new HashSet<>();
                        for (int k = 0; k < results.size(); k++) {
                            LegResult cur = results.get(k);
                            // equal scores come in indexing order, which the writer changes under the readers
                            boolean ordered = k == 0 || results.get(k - 1).score() >= cur.score();
                            if (!ordered || !seen.add(cur.id()) || Double.isNaN(cur.score()) || cur.score() <= 0) {
                                throw new AssertionError("bad order or score: " + results);
                            }
                        }
                        index.size();
                        searches.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }, "bm25-reader-" + r));
        }

        writer.start();
        readers.forEach(Thread::start);
        start.countDown();
        writer.join(60_000);
        for (Thread reader : readers) {
            reader.join(60_000);
        }

        assertThat(failures).isEmpty();
        assertThat(searches.get()).isPositive();
        assertThat(index.size()).isEqualTo(expected.size());
        for (String id : expected) {
            assertThat(index.contains(id)).as(id).isTrue();
        }
        // every live document still contains its words: a search for all of them returns exactly the live set
        List<LegResult> all = index.search(String.join(" ", words), 10_000, null);
        assertThat(all).extracting(LegResult::id).containsExactlyInAnyOrderElementsOf(expected);
    }
}
