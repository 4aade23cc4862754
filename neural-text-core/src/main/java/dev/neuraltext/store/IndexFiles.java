package dev.neuraltext.store;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * The on-disk format of {@link InMemoryCaseStore}: a folder with {@code CURRENT} (text: the live generation's folder
 * name) and generation folders {@code gen-<n>/} holding three files. Every file is
 * {@code magic "NTIX" (int) | format version (int) | kind (int) | body | CRC32 of all preceding bytes (long)}, big-endian,
 * strings as {@code int byteLength + UTF-8}. Nothing is deserialised into code: plain numbers and strings only.
 *
 * <ul>
 *   <li>{@code manifest.bin}: the {@link IndexFingerprint}, counts, and the name, length and CRC32 of each data file;</li>
 *   <li>{@code chunks.bin}: the chunks (id, text, metadata, list metadata, BM25 fields) in slot order; a loaded store
 *       maps it ({@link MappedChunks}) and keeps only ids and metadata on the heap;</li>
 *   <li>{@code bm25.bin}: the BM25 index's state ({@link dev.neuraltext.bm25.Bm25Index#writeState}): postings, term
 *       dictionary, field lengths, so that a load does not tokenize the chunks again (it does when the index was saved
 *       with other BM25 settings);</li>
 *   <li>{@code vectors.bin}: the dense dimension and the unit-length dense vectors by chunk ordinal, then the sparse
 *       vectors by chunk ordinal;</li>
 *   <li>{@code dense-graph.bin} (optional): the dense leg's HNSW graph ({@link HnswDenseGraph}), so that a load does
 *       not rebuild it; an index without it gets its graph built on load when the store wants one;</li>
 *   <li>{@code attachment-<name>}: zero or more opaque files the caller commits together with the store (the CLI's
 *       per-file manifest), so that store and attachment can never disagree after a crash or a flipped byte.</li>
 * </ul>
 *
 * <p>Writers hold the folder's {@link IndexWriteLock}. Garbage collection, under that lock, deletes every generation
 * except the one {@code CURRENT} names and the one it named before (which a reader that read {@code CURRENT} just
 * before the commit may still be opening); a reader that still loses its generation to a later save re-reads
 * {@code CURRENT} and loads the new one.
 *
 * <p>Format version 2 added {@code bm25.bin}; an index of version 1 fails to load with a
 * {@link CorruptIndexException} that says to rebuild it.
 */
final class IndexFiles {


    static final int MAGIC = 0x4E544958; // "NTIX"
    static final int VERSION = 2;
    static final int KIND_MANIFEST = 1;
    static final int KIND_CHUNKS = 2;
    static final int KIND_VECTORS = 3;
    static final int KIND_ATTACHMENT = 4;
    static final int KIND_BM25 = 5;
    static final int KIND_DENSE_GRAPH = 6;
    static final String CURRENT = "CURRENT";
    static final String MANIFEST = "manifest.bin";
    static final String CHUNKS = "chunks.bin";
    static final String VECTORS = "vectors.bin";
    static final String BM25 = "bm25.bin";
    /** The dense leg's HNSW graph ({@link HnswDenseGraph}), present when the store had one. */
    static final String DENSE_GRAPH = "dense-graph.bin";
    /** Attachment files are named {@code attachment-<name>} inside the generation. */
    static final String ATTACHMENT_PREFIX = "attachment-";
    static final Pattern ATTACHMENT_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** How often a reader re-reads {@code CURRENT} when a writer replaced the generation it was reading. */
    static final int READ_ATTEMPTS = 5;
    static final Pattern GENERATION = Pattern.compile("gen-(\\d{1,18})(\\.tmp)?");
    static final int HEADER = 12;
    static final int TRAILER = 8;

    private IndexFiles() {
    }

    /** What a save reads from the store, by chunk ordinal. */
    interface Source {
        int size();

        ChunkInput chunk(int ordinal);

        float[] dense(int ordinal);

        SparseVector sparse(int ordinal);

        /** Writes the BM25 index's state ({@link dev.neuraltext.bm25.Bm25Index#writeState}). */
        void writeBm25(DataOutputStream out) throws IOException;

        /** Writes the dense graph section and returns true, or writes nothing and returns false when there is none. */
        default boolean writeDenseGraph(DataOutputStream out) throws IOException {
            return false;
        }

        /** Whether {@link #writeDenseGraph} has a graph to write. */
        default boolean hasDenseGraph() {
            return false;
        }
    }

    /** Test hook called between the steps of a save, to inject failures. */
    interface SaveHook {
        SaveHook NONE = step -> { };

        void after(String step) throws IOException;
    }

    /** A data file of a generation as the manifest lists it. */
    record FileInfo(String name, long length, long crc) {
    }

    // ------------------------------------------------------------------ entry points (writer and reader)

    /** Saves {@code source} as a new generation of the index under {@code lock}; see {@link IndexFileWriter}. */
    static void save(IndexWriteLock lock, IndexFingerprint fingerprint, Source source, Map<String, byte[]> attachments,
            SaveHook hook) {
        IndexFileWriter.save(lock, fingerprint, source, attachments, hook);
    }

    static boolean exists(Path dir) {
        return IndexFileReader.exists(dir);
    }

    static IndexFingerprint readFingerprint(Path dir) {
        return IndexFileReader.readFingerprint(dir);
    }

    /** Loads the current generation of {@code dir} into {@code store}; see {@link IndexFileReader}. */
    static void load(Path dir, IndexFingerprint expected, InMemoryCaseStore store) {
        IndexFileReader.load(dir, expected, store);
    }

    /** The generation {@code CURRENT} names, or null when there is none (no index yet, or unreadable). */
    static String currentNameOrNull(Path dir) {
        return IndexFileReader.currentNameOrNull(dir);
    }

    /** Runs a read of the current generation, again on a newer one when a writer replaced it meanwhile. */
    static <T> T readCurrent(Path dir, java.util.function.Supplier<T> read) {
        return IndexFileReader.readCurrent(dir, read);
    }
}
