package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static dev.neuraltext.mcp.McpServerIT.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.store.IndexWriteLock;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What users of peer tools ask for, through the real server: a repository the server cannot write to (the index
 * lives in memory and the server says how to keep it elsewhere, or it lives in {@code --index DIR}), an index folder
 * copied to another path or machine (it loads and finds nothing to re-index, or, damaged, is rebuilt with a clear
 * note), and files that change while the server reads them (answers stay well-formed; the index converges).
 */
class McpPeersIT {

    @TempDir
    Path tmp;

    @Test
    void aRepositoryTheServerCannotWriteSearchesInMemoryAndSaysToUseIndexElsewhere() throws Exception {
        Path root = McpServerIT.tree(tmp.resolve("ro"));
        // as root, permissions do not stop writes: a file where the index folder would go does, as a read-only
        // file system does (creating the folder fails)
        Files.writeString(root.resolve(".neural-text"), "not a folder");
        boolean chmod = !"root".equals(System.getProperty("user.name"));
        if (chmod) {
            setWritable(root, false);
        }
        List<String> before = listing(root);
        try {
            List<String> logs = new CopyOnWriteArrayList<>();
            try (McpServerIT.Server server = McpServerIT.client(root, logs)) {
                McpServerIT.awaitReady(server.client());
                assertThat(text(call(server.client(), "search", Map.of("query", "backoffDelay"))))
                        .startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java");
                assertThat(structured(call(server.client(), "status", Map.of())).get("writer")).isEqualTo(false);
                assertThat(logs).anyMatch(l -> l.startsWith("cannot write the index in " + root.resolve(".neural-text"))
                        && l.contains("searching in memory only") && l.contains("--index DIR"));
                call(server.client(), "search", Map.of("query", "retry again"));
                assertThat(logs.stream().filter(l -> l.startsWith("cannot write the index"))).hasSize(1);
            }
            Path elsewhere = tmp.resolve("elsewhere");
            List<String> logs2 = new CopyOnWriteArrayList<>();
            try (McpServerIT.Server server = McpServerIT.client(root, logs2, "--index", elsewhere.toString())) {
                McpServerIT.awaitReady(server.client());
                assertThat(structured(call(server.client(), "status", Map.of())).get("writer")).isEqualTo(true);
                assertThat(logs2).noneMatch(l -> l.startsWith("cannot write"));
            }
            assertThat(dev.neuraltext.store.InMemoryCaseStore.exists(elsewhere)).isTrue();
            assertThat(listing(root)).isEqualTo(before);
        } finally {
            if (chmod) {
                setWritable(root, true);
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void anIndexFolderCopiedToAnotherPathLoadsAsItIsOrIsRebuiltWithAClearNote() throws Exception {
        Path a = McpServerIT.tree(tmp.resolve("machine-a/proj"));
        Map<String, Object> digestA;
        try (McpServerIT.Server server = McpServerIT.client(a, new CopyOnWriteArrayList<>())) {
            McpServerIT.awaitReady(server.client());
            digestA = (Map<String, Object>) structured(call(server.client(), "status", Map.of("digest", true)))
                    .get("digest");
        }
        // another machine: another path, every file's time new (as a copy or a clone gives)
        Path b = tmp.resolve("machine-b/somewhere/else/proj");
        copy(a, b);
        List<String> logs = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server server = McpServerIT.client(b, logs)) {
            McpServerIT.awaitReady(server.client());
            assertThat(logs).anyMatch(l -> l.startsWith("opened the saved index in " + b.resolve(".neural-text")));
            McpSchema_Reindex r = McpSchema_Reindex.of(structured(call(server.client(), "reindex", Map.of())));
            assertThat(r.changed()).as("files re-indexed after the copy").isZero();
            Map<String, Object> digestB = (Map<String, Object>) structured(call(server.client(), "status",
                    Map.of("digest", true))).get("digest");
            assertThat(digestB).isEqualTo(digestA);
            assertThat(text(call(server.client(), "search", Map.of("query", "backoffDelay"))))
                    .startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java");
        }
        // a damaged copy: the largest index file cut in half
        Path c = tmp.resolve("machine-c/proj");
        copy(a, c);
        Path victim;
        try (Stream<Path> files = Files.list(c.resolve(".neural-text"))) {
            victim = files.filter(p -> !p.getFileName().toString().equals(IndexWriteLock.FILE_NAME))
                    .filter(Files::isRegularFile).max(Comparator.comparingLong(McpPeersIT::size)).orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(victim.toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        List<String> logsC = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server server = McpServerIT.client(c, logsC)) {
            McpServerIT.awaitReady(server.client());
            assertThat(logsC).anyMatch(l -> l.startsWith("cannot use the index in " + c.resolve(".neural-text"))
                    && l.endsWith("rebuilding it"));
            assertThat(text(call(server.client(), "search", Map.of("query", "backoffDelay"))))
                    .startsWith("1. src/main/java/com/acme/retry/RetryPolicy.java");
            Map<String, Object> digestC = (Map<String, Object>) structured(call(server.client(), "status",
                    Map.of("digest", true))).get("digest");
            assertThat(digestC).isEqualTo(digestA);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void filesThatChangeWhileTheServerReadsThemGiveWellFormedAnswersAndTheIndexConverges() throws Exception {
        ChurnRepo repo = new ChurnRepo(tmp.resolve("busy"), 99);
        repo.create(60);
        Path hot = repo.root.resolve("src/a/Hot.java");
        repo.write("src/a/Hot.java", "final class Hot {\n}\n");
        List<String> logs = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (McpServerIT.Server server = McpProcesses.hashingServer(repo.root, tmp.resolve("busy-index"), logs, 0)) {
            McpServerIT.awaitReady(server.client());
            Thread writer = new Thread(() -> {
                int n = 0;
                while (!stop.get()) {
                    StringBuilder s = new StringBuilder("final class Hot {\n");
                    for (int i = 0; i < 2_000 + (n % 7) * 500; i++) {
                        s.append("    int field").append(n).append('_').append(i).append(";\n");
                    }
                    try {
                        Files.writeString(hot, s.append("}\n")); // truncates, then writes: readers see any prefix
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    n++;
                }
            });
            writer.start();
            try {
                for (int i = 0; i < 40; i++) {
                    var got = call(server.client(), "get", Map.of("path", "src/a/Hot.java", "startLine", 1,
                            "endLine", 5));
                    if (got.isError()) { // caught between truncation and write: an empty file has no line 1
                        assertThat(text(got)).contains("has 0 lines");
                    } else {
                        assertThat(text(got)).contains("final class Hot");
                    }
                    var found = call(server.client(), "search", Map.of("query", "Hot field"));
                    assertThat(found.isError()).isFalse();
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            McpCrashIT.settle(server.client());
            Map<String, Object> live = (Map<String, Object>) structured(call(server.client(), "status",
                    Map.of("digest", true))).get("digest");
            try (McpProcesses.FreshIndex fresh = new McpProcesses.FreshIndex(repo.root, tmp.resolve("fresh"))) {
                assertThat(live.toString()).isEqualTo(fresh.digest().structured().toString());
            }
        }
    }

    /** The counts of a {@code reindex} answer. */
    private record McpSchema_Reindex(int changed) {
        static McpSchema_Reindex of(Map<String, Object> s) {
            return new McpSchema_Reindex(((List<?>) s.get("added")).size() + ((List<?>) s.get("modified")).size()
                    + ((List<?>) s.get("deleted")).size());
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals(IndexWriteLock.FILE_NAME)) {
                    Files.copy(p, target); // new modification times, as on another machine
                }
            }
        }
    }

    private static List<String> listing(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> root.relativize(p) + (Files.isDirectory(p) ? "/" : " " + size(p))).sorted().toList();
        }
    }

    private static void setWritable(Path root, boolean writable) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                p.toFile().setWritable(writable);
            }
        }
    }
}
