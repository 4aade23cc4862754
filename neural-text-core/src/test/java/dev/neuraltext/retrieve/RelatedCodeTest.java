package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.ingest.ChunkSink;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.IncrementalIndexer;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelatedCodeTest {

    @TempDir
    static Path root;

    static InMemoryCaseStore store;

    @BeforeAll
    static void index() throws IOException {
        write("src/main/java/demo/RetryPolicy.java", """
                package demo;

                /** How often to try again. */
                public final class RetryPolicy {
                    private final Backoff backoff = new Backoff();

                    /** The delay before attempt n: grows as the test expects (no use of its grows). */
                    public long delayFor(int attempt) {
                        return clamp(backoff.delay(attempt) + Jitter.random());
                    }

                    private long clamp(long millis) {
                        return Math.min(millis, 60_000);
                    }
                }
                """);
        write("src/main/java/demo/Backoff.java", """
                package demo;

                final class Backoff {
                    long delay(int attempt) {
                        return 100L << attempt;
                    }
                }
                """);
        write("src/main/java/demo/Jitter.java", """
                package demo;

                final class Jitter {
                    static long random() {
                        return 7;
                    }
                }
                """);
        write("src/main/java/demo/Client.java", """
                package demo;

                public final class Client {
                    private final RetryPolicy policy = new RetryPolicy();

                    long wait(int attempt) {
                        return policy.delayFor(attempt);
                    }
                }
                """);
        write("src/main/java/demo/Unrelated.java", """
                package demo;

                /** Retry logic lives elsewhere; this class has a policy of its own, and no backoff. */
                final class Unrelated {
                    int retry(int policy) {
                        return (int) clamp(policy + 1);
                    }

                    static long clamp(long v) {
                        return v;
                    }
                }
                """);
        write("scripts/retry_tool.py", """
                import client

                def run(policy):
                    # the Python side calls the same policy by its snake-case name
                    return client.retry_policy(policy).delay_for(3)
                """);
        write("src/test/java/demo/RetryPolicyTest.java", """
                package demo;

                class RetryPolicyTest {
                    void grows() {
                        new RetryPolicy().delayFor(2);
                    }
                }
                """);
        write("src/test/java/demo/BackoffTest.java", """
                package demo;

                class BackoffTest {
                    void doubles() {
                        // nothing here names the policy class
                    }
                }
                """);
        write("docs/retries.md", """
                # Retries

                Configure a `RetryPolicy` to control how often a call is tried again.
                """);
        store = InMemoryCaseStore.create();
        HybridCaseRetriever r = HybridCaseRetriever.builder(store).build();
        IncrementalIndexer.builder(DirectoryIngestor.builder(root).withTests(true).build()).build()
                .update(IndexManifest.empty(""), ChunkSink.of(r::index, r::delete));
    }

    private static void write(String path, String text) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static Map<String, String> relationByFile(RelatedResult result) {
        return result.hits().stream().collect(Collectors.toMap(RelatedHit::path, h -> h.relation().label(),
                (a, b) -> a, java.util.LinkedHashMap::new));
    }

    @Test
    void aWholeFileFindsItsCallersTestsDocsAndTheDefinitionsItUses() {
        RelatedResult r = RelatedCode.over(store).find(new RelatedRequest(
                "src/main/java/demo/RetryPolicy.java", 0, null, 20));
        Map<String, String> by = relationByFile(r);
        assertThat(by).containsEntry("src/main/java/demo/Client.java", "used-by")
                .containsEntry("src/test/java/demo/RetryPolicyTest.java", "test")
                .containsEntry("docs/retries.md", "doc")
                .containsEntry("src/main/java/demo/Backoff.java", "uses")
                .containsEntry("src/main/java/demo/Jitter.java", "uses")
                .containsEntry("scripts/retry_tool.py", "used-by");
        // the test method naming the class is a test; its own name in the Javadoc is no use of it
        assertThat(r.hits()).filteredOn(h -> h.path().endsWith("RetryPolicyTest.java"))
                .allSatisfy(h -> assertThat(h.relation()).isEqualTo(Relation.TEST));
        // names as parts only (retry, policy) are not a use; nor a test that does not name it
        assertThat(by).doesNotContainKeys("src/main/java/demo/Unrelated.java", "src/test/java/demo/BackoffTest.java",
                "src/main/java/demo/RetryPolicy.java");
        assertThat(r.names()).contains("RetryPolicy", "delayFor")
                .doesNotContain("clamp"); // private: a namesake elsewhere is no user
        assertThat(r.testsIndexed()).isTrue();
        assertThat(r.hits().get(0).hit().score()).isEqualTo(1.0);
        assertThat(r.hits()).allSatisfy(h -> assertThat(h.hit().score()).isBetween(0.0, 1.0));
        // the exact Java caller outranks the snake-case Python spelling, which counts half
        assertThat(List.copyOf(by.keySet()).indexOf("src/main/java/demo/Client.java"))
                .isLessThan(List.copyOf(by.keySet()).indexOf("scripts/retry_tool.py"));
    }

    @Test
    void aLineNarrowsTheTargetToTheInnermostChunk() {
        // line 9 is inside delayFor: its users, and the definitions it calls
        RelatedResult r = RelatedCode.over(store).find(new RelatedRequest(
                "src/main/java/demo/RetryPolicy.java", 9, null, 20));
        assertThat(r.targets()).containsExactly("RetryPolicy.delayFor");
        assertThat(r.names()).containsExactly("delayFor");
        Map<String, String> by = relationByFile(r);
        assertThat(by).containsEntry("src/main/java/demo/Client.java", "used-by")
                .containsEntry("src/main/java/demo/Backoff.java", "uses")
                .doesNotContainKey("docs/retries.md"); // the page names the class, not the method
    }

    @Test
    void aSymbolNamesTheTarget() {
        RelatedResult r = RelatedCode.over(store).find(new RelatedRequest(
                "src/main/java/demo/Backoff.java", 0, "delay", 5));
        assertThat(r.names()).containsExactly("delay");
        assertThat(relationByFile(r)).containsEntry("src/main/java/demo/RetryPolicy.java", "used-by");
        assertThat(r.hits()).hasSizeLessThanOrEqualTo(5);
    }

    @Test
    void aOneWordNameInAnotherCaseIsAWordNotAUse() {
        RelatedResult r = RelatedCode.over(store).find(new RelatedRequest(
                "src/main/java/demo/Backoff.java", 0, "Backoff", 20));
        assertThat(r.files()).contains("src/main/java/demo/RetryPolicy.java")
                .doesNotContain("src/main/java/demo/Unrelated.java");
    }

    @Test
    void relationsFilterTheAnswer() {
        RelatedResult r = RelatedCode.over(store).find(new RelatedRequest(
                "src/main/java/demo/RetryPolicy.java", 0, null, 20, java.util.Set.of(Relation.USES)));
        assertThat(r.hits()).isNotEmpty().allSatisfy(h -> assertThat(h.relation()).isEqualTo(Relation.USES));
        assertThat(r.hits().get(0).hit().score()).isEqualTo(1.0);
        assertThat(r.files()).containsExactlyInAnyOrder("src/main/java/demo/Backoff.java",
                "src/main/java/demo/Jitter.java");
    }

    @Test
    void badTargetsAreNamed() {
        RelatedCode related = RelatedCode.over(store);
        assertThatThrownBy(() -> related.find(RelatedRequest.file("RetryPolicy.java")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no indexed file 'RetryPolicy.java'")
                .hasMessageContaining("src/main/java/demo/RetryPolicy.java");
        assertThatThrownBy(() -> related.find(new RelatedRequest("src/main/java/demo/Backoff.java", 0, "nope", 5)))
                .hasMessageContaining("defines no symbol 'nope'").hasMessageContaining("delay");
        assertThatThrownBy(() -> related.find(new RelatedRequest("src/main/java/demo/Backoff.java", 999, null, 5)))
                .hasMessageContaining("line 999");
        assertThatThrownBy(() -> new RelatedRequest("a.java", 3, "x", 5)).hasMessageContaining("not both");
    }

    @Test
    void namesAreIdentifiersWorthLookingUp() {
        assertThat(RelatedCode.isName("RetryPolicy")).isTrue();
        assertThat(RelatedCode.isName("id")).isFalse();
        assertThat(RelatedCode.isName("return")).isFalse();
        assertThat(RelatedCode.compound("retry_policy")).isEqualTo(RelatedCode.compound("RetryPolicy"));
        assertThat(RelatedCode.severalWords("RetryPolicy")).isTrue();
        assertThat(RelatedCode.severalWords("retry_policy")).isTrue();
        assertThat(RelatedCode.severalWords("Mutable")).isFalse();
        assertThat(RelatedCode.severalWords("__init__")).isFalse();
        assertThat(RelatedCode.severalWords("HTTP")).isFalse();
    }
}
