package dev.neuraltext.store;

import static dev.neuraltext.store.IndexFiles.ATTACHMENT_PREFIX;
import static dev.neuraltext.store.IndexFiles.BM25;
import static dev.neuraltext.store.IndexFiles.CHUNKS;
import static dev.neuraltext.store.IndexFiles.CURRENT;
import static dev.neuraltext.store.IndexFiles.DENSE_GRAPH;
import static dev.neuraltext.store.IndexFiles.GENERATION;
import static dev.neuraltext.store.IndexFiles.HEADER;
import static dev.neuraltext.store.IndexFiles.KIND_ATTACHMENT;
import static dev.neuraltext.store.IndexFiles.KIND_BM25;
import static dev.neuraltext.store.IndexFiles.KIND_CHUNKS;
import static dev.neuraltext.store.IndexFiles.KIND_DENSE_GRAPH;
import static dev.neuraltext.store.IndexFiles.KIND_MANIFEST;
import static dev.neuraltext.store.IndexFiles.KIND_VECTORS;
import static dev.neuraltext.store.IndexFiles.MAGIC;
import static dev.neuraltext.store.IndexFiles.MANIFEST;
import static dev.neuraltext.store.IndexFiles.READ_ATTEMPTS;
import static dev.neuraltext.store.IndexFiles.TRAILER;
import static dev.neuraltext.store.IndexFiles.VECTORS;
import static dev.neuraltext.store.IndexFiles.VERSION;

import dev.neuraltext.store.IndexFiles.FileInfo;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.encode.SparseVector;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the generation {@code CURRENT} names in the {@linkplain IndexFiles on-disk format} into an
 * {@link InMemoryCaseStore}, checking every file's header, length and CRC32, and retries when a writer replaced the
 * generation while it was being read. Needs no lock.
 */
final class IndexFileReader {

    private static final Logger LOG = LoggerFactory.getLogger(IndexFiles.class);

    private IndexFileReader() {
    }

    static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(CURRENT));
    }

    static IndexFingerprint readFingerprint(Path dir) {
        return readCurrent(dir, () -> readManifest(currentGeneration(dir)).fingerprint());
    }

    static void load(Path dir, IndexFingerprint expected, InMemoryCaseStore store) {
        loadGeneration(dir, currentGeneration(dir), expected, store);
    }

    /** Loads the generation folder {@code gen} of {@code dir} (not necessarily the current one) into {@code store}. */
    static void loadGeneration(Path dir, Path gen, IndexFingerprint expected, InMemoryCaseStore store) {
        Manifest manifest = readManifest(gen);
        if (!manifest.fingerprint().vectorDifferences(expected).isEmpty()) {
            throw new IndexMismatchException("the index in " + dir, manifest.fingerprint(), expected);
        }
        for (FileInfo f : manifest.files()) {
            Path file = gen.resolve(f.name());
            long size = size(file);
            if (size != f.length()) {
                throw new CorruptIndexException("index file " + file + " has " + size + " bytes, the manifest says "
                        + f.length() + " (truncated or replaced); rebuild the index", null);
            }
        }
        // chunks: checksum verified, then mapped; the store keeps ids and metadata, the rest stays in the file
        Path chunksFile = gen.resolve(CHUNKS);
        readFile(chunksFile, KIND_CHUNKS, manifestCrc(manifest, CHUNKS), (in, fileSize) -> {
            int n = in.readInt();
            check(n == manifest.chunkCount(), "chunk count " + n + " differs from the manifest's " + manifest.chunkCount());
            in.skipNBytes(fileSize - TRAILER - HEADER - Integer.BYTES);
        });
        MappedChunks mapped;
        try {
            mapped = MappedChunks.map(chunksFile);
        } catch (NoSuchFileException e) {
            throw new CorruptIndexException("index file " + chunksFile + " is missing; rebuild the index", e);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("mapping index file " + chunksFile + " failed: " + e.getMessage(), e);
        }
        store.state().loadMapped(mapped, manifest.chunkCount());
        long position = HEADER + Integer.BYTES;
        for (int i = 0; i < manifest.chunkCount(); i++) {
            MappedChunks.Record r = mapped.record(position);
            try {
                store.state().loadMappedChunk(i, position, r);
            } catch (IllegalArgumentException e) {
                throw new CorruptIndexException("index file " + chunksFile + " is corrupt: " + e.getMessage()
                        + "; rebuild the index", e);
            }
            position = r.end();
        }
        if (position != mapped.size() - TRAILER) {
            throw new CorruptIndexException("index file " + chunksFile + " is corrupt: its records end at byte " + position
                    + ", not before the trailer at " + (mapped.size() - TRAILER) + "; rebuild the index", null);
        }
        boolean[] bm25Read = {false};
        readFile(gen.resolve(BM25), KIND_BM25, manifestCrc(manifest, BM25), (in, fileSize) -> {
            bm25Read[0] = store.state().loadBm25State(in);
            return bm25Read[0];
        });
        if (!bm25Read[0]) {
            // saved with other BM25 settings (tokenizer, field settings): index the stored chunks again
            LOG.info("the BM25 index in {} was saved with other settings; re-indexing its {} chunks", dir,
                    manifest.chunkCount());
            store.state().reindexBm25();
        }
        readFile(gen.resolve(VECTORS), KIND_VECTORS, manifestCrc(manifest, VECTORS), (in, fileSize) -> {
            int dimension = in.readInt();
            int denseCount = readCount(in, fileSize, 4);
            check(denseCount == manifest.denseCount(), "dense count " + denseCount + " differs from the manifest's "
                    + manifest.denseCount());
            check(denseCount == 0 || dimension == expected.denseDimension(), "dense dimension " + dimension
                    + " differs from the fingerprint's " + expected.denseDimension());
            byte[] bytes = new byte[Math.max(0, dimension) * Float.BYTES];
            for (int i = 0; i < denseCount; i++) {
                int ordinal = readOrdinal(in, manifest.chunkCount());
                in.readFully(bytes);
                float[] v = new float[dimension];
                ByteBuffer.wrap(bytes).asFloatBuffer().get(v);
                store.state().loadDense(ordinal, v);
            }
            int sparseCount = readCount(in, fileSize, 8);
            check(sparseCount == manifest.sparseCount(), "sparse count " + sparseCount + " differs from the manifest's "
                    + manifest.sparseCount());
            for (int i = 0; i < sparseCount; i++) {
                int ordinal = readOrdinal(in, manifest.chunkCount());
                int nnz = readCount(in, fileSize, 8);
                int[] idx = new int[nnz];
                float[] val = new float[nnz];
                for (int j = 0; j < nnz; j++) {
                    idx[j] = in.readInt();
                }
                for (int j = 0; j < nnz; j++) {
                    val[j] = in.readFloat();
                }
                store.state().loadSparse(ordinal, new SparseVector(idx, val));
            }
        });
        for (FileInfo f : manifest.files()) {
            if (f.name().equals(DENSE_GRAPH)) {
                readFile(gen.resolve(DENSE_GRAPH), KIND_DENSE_GRAPH, f.crc(),
                        (BodyReader) (in, fileSize) -> store.state().loadDenseGraph(in, fileSize, IndexFileReader::check));
            }
        }
        store.state().finishDenseLoad();
        Map<String, byte[]> attachments = new LinkedHashMap<>();
        for (FileInfo f : manifest.files()) {
            if (f.name().startsWith(ATTACHMENT_PREFIX)) {
                readFile(gen.resolve(f.name()), KIND_ATTACHMENT, f.crc(), (in, fileSize) -> {
                    byte[] bytes = new byte[readCount(in, fileSize, 1)];
                    in.readFully(bytes);
                    attachments.put(f.name().substring(ATTACHMENT_PREFIX.length()), bytes);
                });
            }
        }
        store.loadAttachments(attachments);
    }

    /** The generation {@code CURRENT} names, or null when there is none (no index yet, or unreadable). */
    static String currentNameOrNull(Path dir) {
        try {
            return new String(Files.readAllBytes(dir.resolve(CURRENT)), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Runs a read of the current generation; when it finds the generation corrupt or missing while a writer has
     * committed a newer one meanwhile (and garbage-collected the one being read), runs it again on the new one.
     */
    static <T> T readCurrent(Path dir, java.util.function.Supplier<T> read) {
        for (int attempt = 1; ; attempt++) {
            String before = currentNameOrNull(dir);
            try {
                return read.get();
            } catch (CorruptIndexException e) {
                String after = currentNameOrNull(dir);
                if (attempt >= READ_ATTEMPTS || before == null || before.equals(after)) {
                    throw e;
                }
                LOG.debug("index generation {} in {} was replaced by {} while reading; reading that", before, dir, after);
            }
        }
    }

    /**
     * Why a file of format {@code version} cannot be read, naming both versions and what to do: "was written by format
     * version 4, this neural-text reads version 2: upgrade neural-text or rebuild the index with `neural-text index`".
     */
    static String versionMessage(int version) {
        if (version > VERSION) {
            return "was written by format version " + version + ", this neural-text reads version " + VERSION
                    + ": upgrade neural-text or rebuild the index with `neural-text index`";
        }
        return "was written by format version " + version + ", this neural-text reads version " + VERSION
                + ": rebuild the index with `neural-text index`";
    }

    private static long manifestCrc(Manifest manifest, String name) {
        for (FileInfo f : manifest.files()) {
            if (f.name().equals(name)) {
                return f.crc();
            }
        }
        throw new CorruptIndexException("the index manifest does not list " + name, null);
    }

    record Manifest(IndexFingerprint fingerprint, int chunkCount, int denseCount, int sparseCount,
                            List<FileInfo> files) {
    }

    private static Path currentGeneration(Path dir) {
        Path current = dir.resolve(CURRENT);
        if (!Files.isDirectory(dir) || !Files.exists(current)) {
            throw new IndexNotFoundException("no index in " + dir + " (no " + CURRENT + " file); build one first", null);
        }
        String name;
        try {
            byte[] b = Files.readAllBytes(current);
            name = new String(b, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("reading " + current + " failed: " + e.getMessage(), e);
        }
        Matcher m = GENERATION.matcher(name);
        if (!m.matches() || m.group(2) != null) {
            throw new CorruptIndexException(current + " does not name an index generation (got '"
                    + (name.length() > 40 ? name.substring(0, 40) + "..." : name) + "'); rebuild the index", null);
        }
        Path gen = dir.resolve(name);
        if (!Files.isDirectory(gen)) {
            throw new CorruptIndexException(current + " names " + name + ", which does not exist; rebuild the index", null);
        }
        return gen;
    }

    static Manifest readManifest(Path gen) {
        Manifest[] result = new Manifest[1];
        readFile(gen.resolve(MANIFEST), KIND_MANIFEST, null, (in, fileSize) -> {
            String tokenizer = readString(in, fileSize);
            double k1 = in.readDouble();
            double b = in.readDouble();
            int nWeights = readCount(in, fileSize, 12);
            Map<String, Double> weights = new LinkedHashMap<>();
            for (int i = 0; i < nWeights; i++) {
                weights.put(readString(in, fileSize), in.readDouble());
            }
            String denseModel = readString(in, fileSize);
            int denseDimension = in.readInt();
            String sparseModel = readString(in, fileSize);
            IndexFingerprint fp = new IndexFingerprint(tokenizer, new Bm25Params(k1, b), weights, denseModel,
                    denseDimension, sparseModel);
            int chunkCount = readCount(in, Long.MAX_VALUE, 1);
            int denseCount = readCount(in, Long.MAX_VALUE, 1);
            int sparseCount = readCount(in, Long.MAX_VALUE, 1);
            int nFiles = readCount(in, fileSize, 20);
            List<FileInfo> files = new ArrayList<>();
            for (int i = 0; i < nFiles; i++) {
                files.add(new FileInfo(readString(in, fileSize), in.readLong(), in.readLong()));
            }
            check(files.stream().anyMatch(f -> f.name().equals(CHUNKS))
                    && files.stream().anyMatch(f -> f.name().equals(BM25))
                    && files.stream().anyMatch(f -> f.name().equals(VECTORS)), "manifest lists " + files);
            result[0] = new Manifest(fp, chunkCount, denseCount, sparseCount, List.copyOf(files));
        });
        return result[0];
    }

    private interface BodyReader {
        void read(DataInputStream in, long fileSize) throws IOException;
    }

    /** A body reader that may stop early (the checksum already covered the rest); returns whether it read it all. */
    private interface PartialBodyReader {
        boolean read(DataInputStream in, long fileSize) throws IOException;
    }

    private static void readFile(Path file, int kind, Long expectedCrc, BodyReader body) {
        readFile(file, kind, expectedCrc, (PartialBodyReader) (in, fileSize) -> {
            body.read(in, fileSize);
            return true;
        });
    }

    /**
     * Verifies the file's checksum (and the manifest's, when given) over the whole file first, then parses it: a flipped
     * byte is reported as corruption before any of it is interpreted.
     */
    private static void readFile(Path file, int kind, Long expectedCrc, PartialBodyReader body) {
        try {
            long size = size(file);
            if (size < HEADER + TRAILER) {
                throw new CorruptIndexException("index file " + file + " is truncated (" + size + " bytes)", null);
            }
            long actual;
            long stored;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                CRC32 crc = new CRC32();
                ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
                long remaining = size - TRAILER;
                while (remaining > 0) {
                    buf.clear();
                    if (remaining < buf.capacity()) {
                        buf.limit((int) remaining);
                    }
                    int n = ch.read(buf);
                    if (n < 0) {
                        throw new EOFException();
                    }
                    buf.flip();
                    crc.update(buf);
                    remaining -= n;
                }
                ByteBuffer trailer = ByteBuffer.allocate(TRAILER);
                while (trailer.hasRemaining()) {
                    if (ch.read(trailer) < 0) {
                        throw new EOFException();
                    }
                }
                actual = crc.getValue();
                stored = trailer.flip().getLong();
            }
            if (actual != stored) {
                throw new CorruptIndexException("index file " + file + " fails its checksum (stored "
                        + Long.toHexString(stored) + ", computed " + Long.toHexString(actual) + "); rebuild the index", null);
            }
            if (expectedCrc != null && expectedCrc != actual) {
                throw new CorruptIndexException("index file " + file + " does not belong to this index generation "
                        + "(checksum differs from the manifest's); rebuild the index", null);
            }
            try (InputStream raw = Files.newInputStream(file)) {
                CountingInputStream counting = new CountingInputStream(new BufferedInputStream(raw, 1 << 16));
                DataInputStream in = new DataInputStream(counting);
                int magic = in.readInt();
                check(magic == MAGIC, "bad magic number " + Integer.toHexString(magic) + ", not a neural-text index file");
                int version = in.readInt();
                if (version != VERSION) {
                    throw new CorruptIndexException("index file " + file + " " + versionMessage(version), null);
                }
                int k = in.readInt();
                check(k == kind, "file kind " + k + ", expected " + kind);
                boolean whole = body.read(in, size);
                check(!whole || counting.count == size - TRAILER, "unexpected data after the content ("
                        + (size - TRAILER - counting.count) + " bytes)");
            }
        } catch (CorruptIndexException e) {
            throw e;
        } catch (NoSuchFileException e) {
            throw new CorruptIndexException("index file " + file + " is missing; rebuild the index", e);
        } catch (EOFException e) {
            throw new CorruptIndexException("index file " + file + " is truncated; rebuild the index", e);
        } catch (FormatException | IllegalArgumentException e) {
            throw new CorruptIndexException("index file " + file + " is corrupt: " + e.getMessage()
                    + "; rebuild the index", e);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("reading index file " + file + " failed: " + e.getMessage(), e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            throw new CorruptIndexException("index file " + file + " is missing; rebuild the index", e);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("reading index file " + file + " failed: " + e.getMessage(), e);
        }
    }

    private static final class FormatException extends IOException {
        private static final long serialVersionUID = 1L;

        FormatException(String message) {
            super(message);
        }
    }

    private static void check(boolean ok, String message) throws FormatException {
        if (!ok) {
            throw new FormatException(message);
        }
    }

    /** A count whose elements take at least {@code minBytes} each; rejects counts the file cannot hold. */
    private static int readCount(DataInputStream in, long fileSize, int minBytes) throws IOException {
        int n = in.readInt();
        check(n >= 0 && (long) n * minBytes <= fileSize, "implausible count " + n);
        return n;
    }

    private static int readOrdinal(DataInputStream in, int chunkCount) throws IOException {
        int ordinal = in.readInt();
        check(ordinal >= 0 && ordinal < chunkCount, "chunk ordinal " + ordinal + " out of range [0, " + chunkCount + ")");
        return ordinal;
    }

    private static String readString(DataInputStream in, long fileSize) throws IOException {
        int n = readCount(in, fileSize, 1);
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static final class CountingInputStream extends InputStream {
        private final InputStream in;
        long count;

        CountingInputStream(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = in.skip(n);
            if (skipped > 0) {
                count += skipped;
            }
            return skipped;
        }
    }
}
