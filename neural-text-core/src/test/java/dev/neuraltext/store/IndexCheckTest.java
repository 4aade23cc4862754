package dev.neuraltext.store;

import static dev.neuraltext.filter.PayloadFilter.all;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.store.IndexCheck.FileReport;
import dev.neuraltext.store.IndexCheck.FileStatus;
import dev.neuraltext.store.IndexCheck.GenerationReport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexCheckTest {

    private static final int DIM = 4;

    @TempDir
    Path tmp;

    /** {@code n} chunks, the first {@code dense} of them with a dense vector, saved with a file-manifest attachment. */
    private static Path saved(Path dir, int n, int dense) {
        InMemoryCaseStore s = InMemoryCaseStore.create();
        List<IndexedCase> cases = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            float[] v = i < dense ? new float[] {1, i, 0, 1} : null;
            cases.add(new IndexedCase(new ChunkInput("c" + i, "parse date number " + i, Map.of(), Map.of(), Map.of()), v, null));
        }
        s.upsert(cases);
        s.save(dir, s.fingerprint().withDense("fake", DIM), Map.of("files", new byte[] {1, 2, 3}));
        return dir;
    }

    private static FileReport file(GenerationReport g, String name) {
        return g.files().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aHealthyIndexReportsEveryFileWholeWithCountsAndCoverage() {
        Path dir = saved(tmp.resolve("i"), 10, 6);
        IndexCheck.Report r = IndexCheck.check(dir);
        assertThat(r.healthy()).isTrue();
        assertThat(r.current()).isEqualTo("gen-1");
        assertThat(r.libraryVersion()).isEqualTo(IndexFiles.VERSION);
        GenerationReport g = r.generations().get(0);
        assertThat(g.current()).isTrue();
        assertThat(g.files()).extracting(FileReport::name)
                .contains("manifest.bin", "chunks.bin", "bm25.bin", "vectors.bin", "attachment-files");
        assertThat(g.files()).allMatch(f -> f.status() == FileStatus.OK && f.storedCrc() == f.computedCrc()
                && f.formatVersion() == IndexFiles.VERSION);
        assertThat(g.chunks()).isEqualTo(10);
        assertThat(g.denseCoverage()).isEqualTo(new DenseCoverage(10, 6));
        assertThat(g.bm25()).isTrue();
        assertThat(g.loaded()).isTrue();
        assertThat(g.problem()).isEmpty();
    }

    @Test
    void aFlippedByteIsReportedWithBothChecksums() throws IOException {
        Path dir = saved(tmp.resolve("i"), 10, 10);
        Path chunks = dir.resolve("gen-1/chunks.bin");
        byte[] b = Files.readAllBytes(chunks);
        b[b.length / 2] ^= 0x20;
        Files.write(chunks, b);
        IndexCheck.Report r = IndexCheck.check(dir);
        assertThat(r.healthy()).isFalse();
        GenerationReport g = r.generations().get(0);
        FileReport f = file(g, "chunks.bin");
        assertThat(f.status()).isEqualTo(FileStatus.CHECKSUM_MISMATCH);
        assertThat(f.storedCrc()).isNotEqualTo(f.computedCrc());
        assertThat(f.detail()).contains(Long.toHexString(f.storedCrc())).contains(Long.toHexString(f.computedCrc()));
        assertThat(file(g, "bm25.bin").ok()).isTrue();
        assertThat(g.loaded()).isFalse();
        assertThat(g.problem()).startsWith("chunks.bin: ");
    }

    @Test
    void truncatedMissingAndBadMagicFilesAreNamed() throws IOException {
        Path dir = saved(tmp.resolve("i"), 10, 10);
        Path bm25 = dir.resolve("gen-1/bm25.bin");
        byte[] b = Files.readAllBytes(bm25);
        Files.write(bm25, Arrays.copyOf(b, b.length - 5));
        Files.delete(dir.resolve("gen-1/vectors.bin"));
        Path attachment = dir.resolve("gen-1/attachment-files");
        byte[] a = Files.readAllBytes(attachment);
        a[0] = 'X';
        Files.write(attachment, a);
        GenerationReport g = IndexCheck.check(dir).generations().get(0);
        assertThat(file(g, "bm25.bin").status()).isEqualTo(FileStatus.TRUNCATED);
        assertThat(file(g, "bm25.bin").manifestBytes()).isEqualTo(b.length);
        assertThat(file(g, "vectors.bin").status()).isEqualTo(FileStatus.MISSING);
        assertThat(file(g, "attachment-files").status()).isEqualTo(FileStatus.BAD_MAGIC);
        assertThat(g.healthy()).isFalse();
    }

    @Test
    void aNewerFormatVersionIsReportedAndRefusedWithBothVersionsAndWhatToDo() throws IOException {
        Path dir = saved(tmp.resolve("i"), 10, 10);
        Path manifest = dir.resolve("gen-1/manifest.bin");
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(manifest));
        int newer = IndexFiles.VERSION + 2;
        bytes.putInt(4, newer);
        CRC32 crc = new CRC32();
        crc.update(bytes.array(), 0, bytes.capacity() - 8);
        bytes.putLong(bytes.capacity() - 8, crc.getValue());
        Files.write(manifest, bytes.array());
        FileReport f = file(IndexCheck.check(dir).generations().get(0), "manifest.bin");
        assertThat(f.status()).isEqualTo(FileStatus.NEWER_VERSION);
        assertThat(f.formatVersion()).isEqualTo(newer);
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, InMemoryCaseStore.create().fingerprint().withDense("fake", DIM)))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining(manifest.toString())
                .hasMessageContaining("written by format version " + newer)
                .hasMessageContaining("this neural-text reads version " + IndexFiles.VERSION)
                .hasMessageContaining("upgrade neural-text or rebuild the index with `neural-text index`");
    }

    @Test
    void dropDamagedFallsBackToTheOlderWholeGenerationAndRemovesOnlyTheDamagedOne() throws IOException {
        Path dir = tmp.resolve("i");
        saved(dir, 10, 10);
        saved(dir, 12, 12);
        assertThat(IndexCheck.check(dir).generations()).extracting(GenerationReport::name)
                .containsExactly("gen-2", "gen-1");
        Path chunks = dir.resolve("gen-2/chunks.bin");
        byte[] b = Files.readAllBytes(chunks);
        b[20] ^= 1;
        Files.write(chunks, b);
        IndexCheck.DropResult dropped = IndexCheck.dropDamaged(dir);
        assertThat(dropped.removed()).containsExactly(dir.resolve("gen-2").toString());
        assertThat(dropped.current()).isEqualTo("gen-1");
        assertThat(dir.resolve("gen-1")).isDirectory();
        assertThat(dir.resolve("gen-2")).doesNotExist();
        IndexCheck.Report after = IndexCheck.check(dir);
        assertThat(after.healthy()).isTrue();
        assertThat(after.current()).isEqualTo("gen-1");
        InMemoryCaseStore loaded = InMemoryCaseStore.builder().load(dir,
                InMemoryCaseStore.builder().fingerprintAsSaved(dir));
        assertThat(loaded.count(all())).isEqualTo(10);
    }

    @Test
    void dropDamagedWithoutAnOlderGenerationRemovesCurrentSoThatTheNextIndexRebuilds() throws IOException {
        Path dir = saved(tmp.resolve("i"), 10, 10);
        Files.write(dir.resolve("gen-1/vectors.bin"), new byte[3]);
        IndexCheck.DropResult dropped = IndexCheck.dropDamaged(dir);
        assertThat(dropped.removed()).containsExactly(dir.resolve("CURRENT").toString(),
                dir.resolve("gen-1").toString());
        assertThat(dropped.current()).isEmpty();
        assertThat(InMemoryCaseStore.exists(dir)).isFalse();
        assertThat(IndexCheck.check(dir).indexFound()).isFalse();
    }

    @Test
    void aDamagedOlderGenerationIsReportedButLeavesTheIndexUsable() throws IOException {
        Path dir = tmp.resolve("i");
        saved(dir, 10, 10);
        saved(dir, 11, 11);
        Files.delete(dir.resolve("gen-1/bm25.bin"));
        IndexCheck.Report r = IndexCheck.check(dir);
        assertThat(r.healthy()).isTrue();
        assertThat(r.generations()).extracting(GenerationReport::healthy).containsExactly(true, false);
        assertThat(IndexCheck.dropDamaged(dir).removed()).isEmpty();
        assertThat(dir.resolve("gen-1")).isDirectory();
    }

    @Test
    void dropDamagedNeverTouchesAHealthyIndex() {
        Path dir = tmp.resolve("i");
        saved(dir, 10, 10);
        saved(dir, 11, 11);
        IndexCheck.DropResult dropped = IndexCheck.dropDamaged(dir);
        assertThat(dropped.removed()).isEmpty();
        assertThat(dropped.current()).isEqualTo("gen-2");
        assertThat(dir.resolve("gen-1")).isDirectory();
        assertThat(dir.resolve("gen-2")).isDirectory();
    }

    @Test
    void dropDamagedWaitsForNoWriter() {
        Path dir = saved(tmp.resolve("i"), 3, 3);
        try (IndexWriteLock held = IndexWriteLock.acquire(dir)) {
            assertThatThrownBy(() -> IndexCheck.dropDamaged(dir)).isInstanceOf(IndexLockedException.class);
        }
    }

    @Test
    void aFolderThatIsNoIndexIsReportedAsSuch() throws IOException {
        Files.createDirectories(tmp.resolve("empty"));
        IndexCheck.Report r = IndexCheck.check(tmp.resolve("empty"));
        assertThat(r.indexFound()).isFalse();
        assertThat(r.healthy()).isFalse();
        assertThatThrownBy(() -> IndexCheck.check(tmp.resolve("absent")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absent");
    }
}
