package dev.neuraltext.store;

import static dev.neuraltext.filter.PayloadFilter.all;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InMemoryCaseStorePersistenceTest {

    private static final int DIM = 8;

    @TempDir
    Path tmp;

    private static IndexFingerprint fingerprint(InMemoryCaseStore s) {
        return s.fingerprint().withDense("fake-model", DIM).withSparse("fake-sparse");
    }

    /** 60 chunks with metadata, list metadata, named fields, dense and (for two thirds) sparse vectors; some deleted. */
    private static InMemoryCaseStore populated() {
        InMemoryCaseStore s = InMemoryCaseStore.create();
        Random random = new Random(3);
        List<IndexedCase> cases = new ArrayList<>();
        String[] words = {"parse", "date", "http", "server", "config", "retry", "string", "utils", "array", "ünïcode"};
        for (int i = 0; i < 60; i++) {
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < 6; w++) {
                text.append(words[random.nextInt(words.length)]).append(' ');
            }
            float[] v = new float[DIM];
            for (int j = 0; j < DIM; j++) {
                v[j] = (float) random.nextGaussian();
            }
            Map<Integer, Float> sp = new HashMap<>();
            for (int j = 0; j < 4; j++) {
                sp.put(random.nextInt(30), random.nextFloat());
            }
            Map<String, String> fields = i % 5 == 0 ? Map.of("name", "name" + i, "body", text.toString()) : Map.of();
            ChunkInput chunk = new ChunkInput("c" + i, text.toString(),
                    Map.of("parity", i % 2 == 0 ? "even" : "odd", "n", Integer.toString(i)),
                    i % 3 == 0 ? Map.of("tags", List.of("t" + (i % 4), "x")) : Map.of(), fields);
            cases.add(new IndexedCase(chunk, i == 7 ? new float[DIM] : v, i % 3 == 2 ? null : SparseVector.of(sp)));
        }
        s.upsert(cases);
        s.delete(List.of("c4", "c10", "c33"));
        return s;
    }

    private static List<HybridQuery> queries() {
        Random random = new Random(5);
        List<HybridQuery> qs = new ArrayList<>();
        for (String text : List.of("parse date", "http server config", "ünïcode array", "name5")) {
            float[] v = new float[DIM];
            for (int j = 0; j < DIM; j++) {
                v[j] = (float) random.nextGaussian();
            }
            SparseVector sp = SparseVector.of(Map.of(random.nextInt(30), 1f, random.nextInt(30) + 30, 0.5f));
            qs.add(new HybridQuery(text, v, sp, EnumSet.allOf(Leg.class), all(), 50, 20, FusionMethod.defaultMethod(), true));
            qs.add(new HybridQuery(text, v, sp, EnumSet.allOf(Leg.class),
                    dev.neuraltext.filter.PayloadFilter.matchKeyword("parity", "odd"), 30, 10, FusionMethod.alpha(0.3), true));
        }
        return qs;
    }

    @Test
    void roundTripGivesIdenticalSearchResultsAndContent() {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        assertThat(InMemoryCaseStore.exists(dir)).isTrue();
        InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, fingerprint(original));
        assertThat(loaded.count(all())).isEqualTo(57);
        assertThat(loaded.chunks(all())).isEqualTo(original.chunks(all()));
        assertThat(loaded.legsWithData()).isEqualTo(original.legsWithData());
        assertThat(loaded.denseDimension()).isEqualTo(original.denseDimension());
        for (HybridQuery q : queries()) {
            List<SearchHit> before = original.search(q);
            assertThat(before).isNotEmpty();
            assertThat(loaded.search(q)).isEqualTo(before);
        }
        assertThat(InMemoryCaseStore.readFingerprint(dir)).isEqualTo(fingerprint(original));
    }

    @Test
    void aLoadedStoreKeepsWorkingAndSavesAgainKeepingOnlyThePreviousGeneration() throws IOException {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, fingerprint(original));
        loaded.upsert(List.of(new IndexedCase(ChunkInput.of("fresh", "brand new words"), new float[DIM], null)));
        loaded.save(dir, fingerprint(original));
        InMemoryCaseStore again = InMemoryCaseStore.load(dir, fingerprint(original));
        assertThat(again.count(all())).isEqualTo(58);
        try (Stream<Path> entries = Files.list(dir)) {
            // gen-1 stays: CURRENT named it until this save, so a reader may still be opening it
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("CURRENT", "gen-2", "gen-1", IndexWriteLock.FILE_NAME);
        }
        again.save(dir, fingerprint(original));
        try (Stream<Path> entries = Files.list(dir)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("CURRENT", "gen-3", "gen-2", IndexWriteLock.FILE_NAME);
        }
        assertThat(InMemoryCaseStore.load(dir, fingerprint(original)).count(all())).isEqualTo(58);
    }

    @Test
    void mappedChunksCanBeReplacedDeletedAndSavedAgain() {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, fingerprint(original));
        assertThat(loaded.chunk("c5")).isEqualTo(original.chunk("c5"));
        for (InMemoryCaseStore s : List.of(original, loaded)) {
            s.upsert(List.of(new IndexedCase(new ChunkInput("c5", "replaced parse words", Map.of("parity", "odd"),
                    Map.of(), Map.of()), null, null)));
            s.delete(List.of("c6", "c9"));
            s.deleteWhere(dev.neuraltext.filter.PayloadFilter.matchKeyword("n", "12"));
        }
        assertThat(loaded.chunks(all())).isEqualTo(original.chunks(all())).hasSize(54);
        for (HybridQuery q : queries()) {
            assertThat(loaded.search(q)).isEqualTo(original.search(q));
        }
        loaded.save(dir, fingerprint(original));
        InMemoryCaseStore again = InMemoryCaseStore.load(dir, fingerprint(original));
        assertThat(again.chunks(all())).isEqualTo(original.chunks(all()));
        for (HybridQuery q : queries()) {
            assertThat(again.search(q)).isEqualTo(original.search(q));
        }
    }

    @Test
    void anIndexOfTheFormerFormatVersionFailsWithAnAdviceToRebuild() throws IOException {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        Path manifest = dir.resolve("gen-1").resolve("manifest.bin");
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(Files.readAllBytes(manifest));
        bytes.putInt(4, 1); // format version 1, with a valid checksum
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes.array(), 0, bytes.capacity() - 8);
        bytes.putLong(bytes.capacity() - 8, crc.getValue());
        Files.write(manifest, bytes.array());
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, fingerprint(original)))
                .isInstanceOf(CorruptIndexException.class).hasMessageContaining("format version 1")
                .hasMessageContaining("rebuild the index");
    }

    @Test
    void emptyStoreRoundTrips() {
        InMemoryCaseStore empty = InMemoryCaseStore.create();
        Path dir = tmp.resolve("empty");
        IndexFingerprint f = empty.fingerprint().withDense("m", 4);
        empty.save(dir, f);
        InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, f);
        assertThat(loaded.count(all())).isZero();
        assertThat(loaded.denseDimension()).hasValue(4);
    }

    @Test
    void missingIndexIsReportedAsNotFound() {
        assertThat(InMemoryCaseStore.exists(tmp.resolve("nothing"))).isFalse();
        assertThatThrownBy(() -> InMemoryCaseStore.load(tmp.resolve("nothing"), InMemoryCaseStore.create().fingerprint()))
                .isInstanceOf(IndexNotFoundException.class).hasMessageContaining("nothing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"manifest.bin", "chunks.bin", "bm25.bin", "vectors.bin"})
    void everySingleFlippedByteIsDetected(String file) throws IOException {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        Path target = dir.resolve("gen-1").resolve(file);
        byte[] pristine = Files.readAllBytes(target);
        // every position for small files, a spread of positions for large ones (header, body, trailer)
        int step = Math.max(1, pristine.length / 41);
        for (int pos = 0; pos < pristine.length; pos += step) {
            byte[] bytes = pristine.clone();
            bytes[pos] ^= 0x10;
            Files.write(target, bytes);
            int at = pos;
            assertThatThrownBy(() -> InMemoryCaseStore.load(dir, fingerprint(original)))
                    .as("flip at %d of %s", at, file)
                    .isInstanceOf(CorruptIndexException.class)
                    .hasMessageContaining(file);
        }
        Files.write(target, pristine);
        assertThat(InMemoryCaseStore.load(dir, fingerprint(original)).count(all())).isEqualTo(57);
    }

    @ParameterizedTest
    @ValueSource(strings = {"manifest.bin", "chunks.bin", "bm25.bin", "vectors.bin"})
    void truncatedOrMissingFilesAreDetected(String file) throws IOException {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        Path target = dir.resolve("gen-1").resolve(file);
        byte[] pristine = Files.readAllBytes(target);
        for (int keep : new int[] {0, 7, pristine.length / 2, pristine.length - 1}) {
            Files.write(target, java.util.Arrays.copyOf(pristine, keep));
            assertThatThrownBy(() -> InMemoryCaseStore.load(dir, fingerprint(original)))
                    .as("truncated to %d", keep).isInstanceOf(CorruptIndexException.class).hasMessageContaining(file);
        }
        byte[] longer = java.util.Arrays.copyOf(pristine, pristine.length + 3);
        Files.write(target, longer);
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, fingerprint(original))).isInstanceOf(CorruptIndexException.class);
        Files.delete(target);
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, fingerprint(original)))
                .isInstanceOf(CorruptIndexException.class).hasMessageContaining("missing");
    }

    @Test
    void aBrokenCurrentPointerIsCorruption() throws IOException {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        Files.writeString(dir.resolve("CURRENT"), "../../etc\n");
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, fingerprint(original))).isInstanceOf(CorruptIndexException.class);
        Files.writeString(dir.resolve("CURRENT"), "gen-9\n");
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, fingerprint(original)))
                .isInstanceOf(CorruptIndexException.class).hasMessageContaining("gen-9");
    }

    @Test
    void aDifferentFingerprintIsAMismatchNamingWhatDiffers() {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        IndexFingerprint otherModel = original.fingerprint().withDense("other-model", 384).withSparse("fake-sparse");
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, otherModel))
                .isInstanceOfSatisfying(IndexMismatchException.class, e -> {
                    assertThat(e.stored()).isEqualTo(fingerprint(original));
                    assertThat(e.expected()).isEqualTo(otherModel);
                    assertThat(e.differences()).containsExactly(
                            "dense model: index has 'fake-model' (8), expected 'other-model' (384)");
                    assertThat(e).isInstanceOf(NonRetriableNeuralTextException.class);
                });
        IndexFingerprint noSparse = original.fingerprint().withDense("fake-model", DIM);
        assertThatThrownBy(() -> InMemoryCaseStore.load(dir, noSparse)).isInstanceOf(IndexMismatchException.class)
                .hasMessage("the index in " + dir + " was built with other models: sparse model: index has "
                        + "'fake-sparse', expected none; rebuild the index");
        // an expected fingerprint that does not describe the loading configuration is a caller mistake
        InMemoryCaseStore.Builder otherBm25 = InMemoryCaseStore.builder().bm25Params(new Bm25Params(2.0, 0.75));
        assertThatThrownBy(() -> otherBm25.load(dir, fingerprint(original))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anotherLexicalConfigurationLoadsAndRebuildsBm25WithIt() {
        InMemoryCaseStore original = populated();
        Path dir = tmp.resolve("index");
        original.save(dir, fingerprint(original));
        // name weight 0 silences the name field: "name5" (only in chunk c5's name field) no longer matches via it
        InMemoryCaseStore.Builder other = InMemoryCaseStore.builder().fieldWeight("name", 0.0)
                .bm25Params(new Bm25Params(2.0, 0.5));
        IndexFingerprint expected = other.fingerprint().withDense("fake-model", DIM).withSparse("fake-sparse");
        assertThat(fingerprint(original).differences(expected)).hasSize(2);
        assertThat(fingerprint(original).vectorDifferences(expected)).isEmpty();
        InMemoryCaseStore loaded = other.load(dir, expected);
        assertThat(loaded.fingerprint()).isEqualTo(expected.lexicalPart());
        assertThat(loaded.chunks(all())).isEqualTo(original.chunks(all()));
        InMemoryCaseStore fresh = other.build();
        List<IndexedCase> same = new ArrayList<>();
        for (ChunkInput c : original.chunks(all())) {
            same.add(IndexedCase.of(c));
        }
        // in the order they were first indexed (c0, c1, ...), as the rebuild indexes them: BM25 ties keep that order
        same.sort(Comparator.comparingInt(c -> Integer.parseInt(c.chunk().id().substring(1))));
        fresh.upsert(same);
        HybridQuery q = new HybridQuery("parse date name5", null, null, EnumSet.of(Leg.BM25), all(), 50, 20,
                FusionMethod.defaultMethod(), true);
        assertThat(loaded.search(q)).isEqualTo(fresh.search(q)).isNotEqualTo(original.search(q));
    }

    @Test
    void saveRejectsAFingerprintThatDoesNotDescribeTheStore() {
        InMemoryCaseStore original = populated();
        assertThatThrownBy(() -> original.save(tmp.resolve("i"), original.fingerprint().withDense("m", 3).withSparse("s")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3").hasMessageContaining("8");
        assertThatThrownBy(() -> original.save(tmp.resolve("i"), original.fingerprint().withDense("m", DIM)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sparse");
    }

    @ParameterizedTest
    @ValueSource(strings = {"chunks.bin", "bm25.bin", "vectors.bin", "manifest.bin", "rename", "current-written"})
    void aSaveFailingMidwayLeavesThePreviousIndexIntact(String failingStep) throws IOException {
        InMemoryCaseStore first = populated();
        Path dir = tmp.resolve("index");
        first.save(dir, fingerprint(first));
        List<ChunkInput> before = first.chunks(all());

        InMemoryCaseStore second = populated();
        second.delete(List.of("c1", "c2", "c3"));
        assertThatThrownBy(() -> second.save(dir, fingerprint(second), step -> {
            if (step.equals(failingStep)) {
                throw new IOException("disk full (injected at " + step + ")");
            }
        })).isInstanceOf(NonRetriableNeuralTextException.class).hasMessageContaining("injected")
                .hasRootCauseInstanceOf(IOException.class);

        InMemoryCaseStore loaded = InMemoryCaseStore.load(dir, fingerprint(first));
        assertThat(loaded.chunks(all())).isEqualTo(before);
        try (Stream<Path> entries = Files.list(dir)) {
            assertThat(entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("gen-")))
                    .containsExactly("gen-1");
        }
        // and the next save succeeds
        second.save(dir, fingerprint(second));
        assertThat(InMemoryCaseStore.load(dir, fingerprint(second)).count(all())).isEqualTo(54);
    }

    @Test
    void leftoversOfACrashedSaveAreIgnoredAndCleanedUp() throws IOException {
        InMemoryCaseStore first = populated();
        Path dir = tmp.resolve("index");
        first.save(dir, fingerprint(first));
        // a crash after writing part of generation 2 leaves a .tmp folder and maybe a CURRENT.tmp
        Files.createDirectories(dir.resolve("gen-2.tmp"));
        Files.write(dir.resolve("gen-2.tmp").resolve("chunks.bin"), new byte[] {1, 2, 3});
        Files.writeString(dir.resolve("CURRENT.tmp"), "gen-2\n");
        Files.writeString(dir.resolve("user-notes.txt"), "kept");
        assertThat(InMemoryCaseStore.load(dir, fingerprint(first)).count(all())).isEqualTo(57);
        first.save(dir, fingerprint(first));
        try (Stream<Path> entries = Files.list(dir)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("CURRENT", "gen-3", "gen-1", "user-notes.txt", IndexWriteLock.FILE_NAME);
        }
        assertThat(InMemoryCaseStore.load(dir, fingerprint(first)).count(all())).isEqualTo(57);
    }
}
