package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IncrementalIndexerTest {

    @TempDir
    Path tmp;

    /** A store stand-in recording every call. */
    static final class RecordingSink implements ChunkSink {
        final Map<String, ChunkInput> store = new TreeMap<>();
        final List<String> upserted = new ArrayList<>();
        final List<String> deleted = new ArrayList<>();

        @Override
        public void upsert(List<ChunkInput> chunks) {
            chunks.forEach(c -> {
                store.put(c.id(), c);
                upserted.add(c.id());
            });
        }

        @Override
        public void delete(Collection<String> ids) {
            ids.forEach(store::remove);
            deleted.addAll(ids);
        }

        void reset() {
            upserted.clear();
            deleted.clear();
        }
    }

    @Test
    void onlyChangedFilesAreReindexedAndDeletedFilesRemoved() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("r"));
        Files.writeString(root.resolve("A.java"), "class A {\n  int f() { return 1; }\n  int g() { return 2; }\n}\n");
        Files.writeString(root.resolve("B.md"), "# B\nbee\n");
        Files.writeString(root.resolve("C.txt"), "sea of text\n");
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        IncrementalIndexer indexer = IncrementalIndexer.builder(ingestor).batchSize(2).build();
        RecordingSink sink = new RecordingSink();

        IndexUpdate first = indexer.update(IndexManifest.empty(""), sink);
        assertThat(first.filesAdded()).isEqualTo(3);
        assertThat(sink.store.keySet()).containsExactly("A.java#A", "A.java#A.f()", "A.java#A.g()", "B.md#B",
                "C.txt#1");
        assertThat(first.upsertedBySymbolType()).isEqualTo(Map.of("method", 2, "section", 1, "text", 1, "type", 1));
        assertThat(first.manifest().chunkCount()).isEqualTo(5);

        Path manifestFile = tmp.resolve("idx/manifest.tsv");
        first.manifest().save(manifestFile);
        IndexManifest reloaded = IndexManifest.load(manifestFile).orElseThrow();
        assertThat(reloaded).isEqualTo(first.manifest());

        // nothing changed: nothing sent
        sink.reset();
        // a new process builds a new ingestor: its configuration must read the same, or everything is re-indexed
        IndexUpdate noop = IncrementalIndexer.builder(DirectoryIngestor.builder(root).build()).build()
                .update(reloaded, sink);
        assertThat(sink.upserted).isEmpty();
        assertThat(sink.deleted).isEmpty();
        assertThat(noop.filesUnchanged()).isEqualTo(3);
        assertThat(noop.changed()).isFalse();

        // modify A (g removed, h added), add D, delete C
        Files.writeString(root.resolve("A.java"), "class A {\n  int f() { return 10; }\n  int h() { return 3; }\n}\n");
        Files.writeString(root.resolve("D.md"), "# D\ndee\n");
        Files.delete(root.resolve("C.txt"));
        sink.reset();
        IndexUpdate second = indexer.update(noop.manifest(), sink);
        assertThat(sink.upserted).containsExactly("A.java#A", "A.java#A.f()", "A.java#A.h()", "D.md#D");
        assertThat(sink.deleted).containsExactly("A.java#A.g()", "C.txt#1");
        assertThat(second.filesAdded()).isEqualTo(1);
        assertThat(second.filesModified()).isEqualTo(1);
        assertThat(second.filesDeleted()).isEqualTo(1);
        assertThat(second.filesUnchanged()).isEqualTo(1);
        assertThat(sink.store.keySet()).containsExactly("A.java#A", "A.java#A.f()", "A.java#A.h()", "B.md#B",
                "D.md#D");
        assertThat(sink.store.get("A.java#A.f()").text()).contains("return 10;");

        // the incremental result equals a fresh full index of the new tree
        RecordingSink fresh = new RecordingSink();
        IndexUpdate full = indexer.update(IndexManifest.empty(""), fresh);
        assertThat(sink.store).isEqualTo(fresh.store);
        assertThat(second.manifest()).isEqualTo(full.manifest());
    }

    @Test
    void changedChunkingConfigurationReindexesEverything() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("r2"));
        Files.writeString(root.resolve("B.md"), "# B\nbee\n");
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        RecordingSink sink = new RecordingSink();
        IndexUpdate first = IncrementalIndexer.builder(ingestor).build().update(IndexManifest.empty(""), sink);
        IndexManifest otherConfig = new IndexManifest("chunkers-v0", first.manifest().files());
        sink.reset();
        IndexUpdate again = IncrementalIndexer.builder(ingestor).build().update(otherConfig, sink);
        assertThat(again.filesModified()).isEqualTo(1);
        assertThat(sink.upserted).containsExactly("B.md#B");
        assertThat(sink.deleted).isEmpty();
    }

    @Test
    void manifestDetectsTruncationAndEscapesOddPaths() throws IOException {
        IndexManifest m = new IndexManifest("cfg\twith tab", Map.of("dir/we\\ird\tname.md",
                new IndexManifest.FileEntry("abc", "markdown", List.of(new IndexManifest.ChunkRef("x#A\nB", "section")))));
        Path file = tmp.resolve("m.tsv");
        m.save(file);
        assertThat(IndexManifest.load(file)).contains(m);
        assertThat(IndexManifest.load(tmp.resolve("missing.tsv"))).isEmpty();

        List<String> lines = Files.readAllLines(file);
        Files.write(file, lines.subList(0, lines.size() - 1));
        assertThatThrownBy(() -> IndexManifest.load(file)).isInstanceOf(NonRetriableNeuralTextException.class)
                .hasMessageContaining("truncated");
        Files.writeString(file, "something else\n");
        assertThatThrownBy(() -> IndexManifest.load(file)).hasMessageContaining("corrupt index manifest");
        assertThat(Files.list(tmp).filter(p -> p.toString().endsWith(".tmp"))).isEmpty();
    }

    @Test
    void aFileDeletedBetweenTheScanAndItsReadIsSkippedOnceAndTheRunGoesOn() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("vanish"));
        Files.writeString(root.resolve("a.txt"), "alpha text\n");
        Files.writeString(root.resolve("b.txt"), "beta text\n");
        Files.writeString(root.resolve("c.txt"), "gamma text\n");
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        // the listener runs after a.txt's batch, i.e. after the scan listed b.txt but before b.txt is read
        IncrementalIndexer indexer = deletingAfterFirstBatch(ingestor, root.resolve("b.txt"));
        RecordingSink sink = new RecordingSink();

        IndexUpdate u = indexer.update(IndexManifest.empty(""), sink);

        assertThat(u.manifest().files()).containsOnlyKeys("a.txt", "c.txt");
        assertThat(u.scan().files()).extracting(SourceFile::path).containsExactly("a.txt", "c.txt");
        assertThat(u.scan().skipped()).filteredOn(s -> s.path().equals("b.txt")).singleElement()
                .satisfies(s -> assertThat(s.reason()).isEqualTo(SkipReason.UNREADABLE));
        assertThat(u.scan().skippedByReason()).containsEntry(SkipReason.UNREADABLE, 1);
        assertThat(sink.store.values()).extracting(c -> c.metadata().get("path")).containsOnly("a.txt", "c.txt");
    }

    @Test
    void aFileDeletedBetweenScanAndReadLosesItsOldChunks() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("vanish2"));
        Files.writeString(root.resolve("a.txt"), "alpha text\n");
        Files.writeString(root.resolve("b.txt"), "beta text\n");
        DirectoryIngestor ingestor = DirectoryIngestor.builder(root).build();
        RecordingSink sink = new RecordingSink();
        IndexUpdate first = IncrementalIndexer.builder(ingestor).build().update(IndexManifest.empty(""), sink);
        Files.writeString(root.resolve("a.txt"), "alpha text changed\n");
        Files.writeString(root.resolve("b.txt"), "beta text changed\n");
        IncrementalIndexer indexer = deletingAfterFirstBatch(ingestor, root.resolve("b.txt"));

        IndexUpdate u = indexer.update(first.manifest(), sink);

        assertThat(u.manifest().files()).containsOnlyKeys("a.txt");
        assertThat(sink.store.values()).extracting(c -> c.metadata().get("path")).containsOnly("a.txt");
    }

    /** An indexer of one chunk per batch that deletes {@code file} after the first batch (after the scan listed it). */
    private static IncrementalIndexer deletingAfterFirstBatch(DirectoryIngestor ingestor, Path file) {
        return IncrementalIndexer.builder(ingestor).batchSize(1).progress(p -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).build();
    }
}
