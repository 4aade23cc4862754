package dev.neuraltext.bm25;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class Bm25IndexRegistryTest {

    @Test
    void createsOnDemandListsAndDrops() {
        Bm25IndexRegistry registry = Bm25IndexRegistry.create();
        assertThat(registry.names()).isEmpty();
        Bm25Index docs = registry.getOrCreate("docs");
        assertThat(registry.getOrCreate("docs")).isSameAs(docs);
        Bm25Index code = registry.getOrCreate("code");
        assertThat(code).isNotSameAs(docs);
        assertThat(registry.names()).containsExactly("code", "docs");
        assertThat(registry.get("code")).containsSame(code);
        assertThat(registry.drop("code")).isTrue();
        assertThat(registry.drop("code")).isFalse();
        assertThat(registry.get("code")).isEmpty();
        assertThat(registry.names()).containsExactly("docs");
        assertThat(registry.getOrCreate("code")).isNotSameAs(code);
    }

    @Test
    void usesTheFactory() {
        Bm25IndexRegistry registry = new Bm25IndexRegistry(() -> Bm25Index.builder().fieldWeight("name", 2).build());
        assertThat(registry.getOrCreate("x").fieldWeights()).containsEntry("name", 2.0);
        assertThatThrownBy(() -> registry.getOrCreate(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> new Bm25IndexRegistry(() -> null).getOrCreate("y"))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void concurrentCallersGetOneIndexPerName() throws Exception {
        AtomicInteger created = new AtomicInteger();
        Bm25IndexRegistry registry = new Bm25IndexRegistry(() -> {
            created.incrementAndGet();
            return Bm25Index.builder().build();
        });
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Bm25Index>> tasks = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                tasks.add(() -> registry.getOrCreate("shared"));
            }
            List<Future<Bm25Index>> futures = pool.invokeAll(tasks, 30, TimeUnit.SECONDS);
            Bm25Index first = futures.get(0).get();
            for (Future<Bm25Index> f : futures) {
                assertThat(f.get()).isSameAs(first);
            }
            assertThat(created.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
