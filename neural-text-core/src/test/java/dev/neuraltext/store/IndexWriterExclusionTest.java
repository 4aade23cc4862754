package dev.neuraltext.store;

import static dev.neuraltext.filter.PayloadFilter.all;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer per index folder, attachments committed with the generation, and readers racing a writer's GC. */
class IndexWriterExclusionTest {

    @TempDir
    Path tmp;

    private static InMemoryCaseStore store(int chunks) {
        InMemoryCaseStore s = InMemoryCaseStore.create();
        List<IndexedCase> cases = new ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            cases.add(new IndexedCase(ChunkInput.of("c" + i, "retry policy number " + i), null, null));
        }
        s.upsert(cases);
        return s;
    }

    @Test
    void aSecondWriterFailsAtOnceWithTheLockMessageAndTheIndexStaysAsItWas() throws IOException {
        Path dir = tmp.resolve("ix");
        InMemoryCaseStore first = store(3);
        first.save(dir, first.fingerprint());
        String current = Files.readString(dir.resolve(IndexFiles.CURRENT));
        try (IndexWriteLock held = IndexWriteLock.acquire(dir)) {
            InMemoryCaseStore second = store(5);
            assertThatThrownBy(() -> second.save(dir, second.fingerprint()))
                    .isInstanceOf(IndexLockedException.class)
                    .hasMessageContaining("is being updated by another process; try again when it finishes");
            // the holder itself saves through its lock
            assertThat(held.guards(dir)).isTrue();
        }
        assertThat(Files.readString(dir.resolve(IndexFiles.CURRENT))).isEqualTo(current);
        assertThat(InMemoryCaseStore.load(dir, first.fingerprint()).count(all())).isEqualTo(3);
    }

    @Test
    void aWriterHoldingTheLockSavesThroughItAndAReleasedLockIsRefused() {
        Path dir = tmp.resolve("ix");
        InMemoryCaseStore s = store(4);
        IndexWriteLock lock = IndexWriteLock.acquire(dir);
        s.save(lock, s.fingerprint(), Map.of());
        lock.close();
        assertThat(InMemoryCaseStore.load(dir, s.fingerprint()).count(all())).isEqualTo(4);
        assertThatThrownBy(() -> s.save(lock, s.fingerprint(), Map.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released");
    }

    @Test
    void attachmentsComeBackWithTheirGenerationAndAFlippedByteIsCorruption() throws IOException {
        Path dir = tmp.resolve("ix");
        InMemoryCaseStore s = store(2);
        byte[] manifest = "files: a, b\n".getBytes(StandardCharsets.UTF_8);
        s.save(dir, s.fingerprint(), Map.of("files.tsv", manifest));
        InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, s.fingerprint());
        assertThat(loaded.loadedAttachment("files.tsv")).hasValue(manifest);
        assertThat(loaded.loadedAttachment("other")).isEmpty();
        assertThat(s.loadedAttachment("files.tsv")).isEmpty();

        Path gen = dir.resolve(Files.readString(dir.resolve(IndexFiles.CURRENT)).trim());
        Path file = gen.resolve(IndexFiles.ATTACHMENT_PREFIX + "files.tsv");
        byte[] bytes = Files.readAllBytes(file);
        bytes[16] ^= 0x01;
        Files.write(file, bytes);
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, s.fingerprint()))
                .isInstanceOf(CorruptIndexException.class).hasMessageContaining("attachment-files.tsv");
    }

    @Test
    void attachmentNamesAreChecked() {
        InMemoryCaseStore s = store(1);
        assertThatThrownBy(() -> s.save(tmp.resolve("ix"), s.fingerprint(), Map.of("../x", new byte[0])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'../x'");
    }

    @Test
    void aReaderWhoseGenerationIsCollectedMeanwhileReadsTheNewOne() {
        Path dir = tmp.resolve("ix");
        InMemoryCaseStore s = store(1);
        s.save(dir, s.fingerprint());
        AtomicInteger calls = new AtomicInteger();
        // the first read fails as if its generation had been deleted, after two saves moved CURRENT on
        int result = IndexFiles.readCurrent(dir, () -> {
            if (calls.incrementAndGet() == 1) {
                store(2).save(dir, s.fingerprint());
                store(3).save(dir, s.fingerprint());
                throw new CorruptIndexException("index file gen-1/chunks.bin is missing", null);
            }
            return (int) InMemoryCaseStore.load(dir, s.fingerprint()).count(all());
        });
        assertThat(result).isEqualTo(3);
        assertThat(calls).hasValue(2);
        assertThat(dir.resolve("gen-1")).doesNotExist();
        // without a new generation the failure is real and reported
        assertThatThrownBy(() -> IndexFiles.readCurrent(dir, () -> {
            throw new CorruptIndexException("flipped", null);
        })).isInstanceOf(CorruptIndexException.class).hasMessage("flipped");
    }
}
