package dev.neuraltext.store;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.bm25.Bm25Params;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(IndexFiles.class);

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
    private static final Pattern ATTACHMENT_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** How often a reader re-reads {@code CURRENT} when a writer replaced the generation it was reading. */
    private static final int READ_ATTEMPTS = 5;
    private static final Pattern GENERATION = Pattern.compile("gen-(\\d{1,18})(\\.tmp)?");
    private static final int HEADER = 12;
    private static final int TRAILER = 8;

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

    // ------------------------------------------------------------------ save

    static void save(IndexWriteLock lock, IndexFingerprint fingerprint, Source source, Map<String, byte[]> attachments,
            SaveHook hook) {
        Path dir = lock.directory();
        lock.ensureValid();
        for (String a : attachments.keySet()) {
            if (!ATTACHMENT_NAME.matcher(a).matches()) {
                throw new IllegalArgumentException("attachment name must match " + ATTACHMENT_NAME.pattern() + ", got '"
                        + a + "'");
            }
        }
        Path tmp = null;
        Path gen = null;
        boolean committed = false;
        try {
            Files.createDirectories(dir);
            String previous = currentNameOrNull(dir);
            long next = nextGeneration(dir);
            String name = "gen-" + next;
            tmp = dir.resolve(name + ".tmp");
            gen = dir.resolve(name);
            Files.createDirectory(tmp);
            int dimension = 0;
            int denseCount = 0;
            int sparseCount = 0;
            for (int i = 0; i < source.size(); i++) {
                float[] d = source.dense(i);
                if (d != null) {
                    dimension = d.length;
                    denseCount++;
                }
                if (source.sparse(i) != null) {
                    sparseCount++;
                }
            }
            FileInfo chunks = writeFile(tmp.resolve(CHUNKS), KIND_CHUNKS, out -> writeChunks(out, source));
            hook.after(CHUNKS);
            FileInfo bm25 = writeFile(tmp.resolve(BM25), KIND_BM25, source::writeBm25);
            hook.after(BM25);
            final int dim = dimension;
            final int dc = denseCount;
            final int sc = sparseCount;
            FileInfo vectors = writeFile(tmp.resolve(VECTORS), KIND_VECTORS, out -> writeVectors(out, source, dim, dc, sc));
            hook.after(VECTORS);
            List<FileInfo> files = new ArrayList<>(List.of(chunks, bm25, vectors));
            if (source.hasDenseGraph()) {
                files.add(writeFile(tmp.resolve(DENSE_GRAPH), KIND_DENSE_GRAPH, source::writeDenseGraph));
                hook.after(DENSE_GRAPH);
            }
            for (Map.Entry<String, byte[]> a : new java.util.TreeMap<>(attachments).entrySet()) {
                byte[] bytes = a.getValue();
                files.add(writeFile(tmp.resolve(ATTACHMENT_PREFIX + a.getKey()), KIND_ATTACHMENT, out -> {
                    out.writeInt(bytes.length);
                    out.write(bytes);
                }));
            }
            hook.after("attachments");
            writeFile(tmp.resolve(MANIFEST), KIND_MANIFEST, out -> {
                writeFingerprint(out, fingerprint);
                out.writeInt(source.size());
                out.writeInt(dc);
                out.writeInt(sc);
                out.writeInt(files.size());
                for (FileInfo f : files) {
                    writeString(out, f.name());
                    out.writeLong(f.length());
                    out.writeLong(f.crc());
                }
            });
            hook.after(MANIFEST);
            syncDirectory(tmp);
            Files.move(tmp, gen, StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
            syncDirectory(dir);
            hook.after("rename");
            Path currentTmp = dir.resolve(CURRENT + ".tmp");
            try (FileChannel ch = FileChannel.open(currentTmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap((name + "\n").getBytes(StandardCharsets.US_ASCII)));
                ch.force(true);
            }
            hook.after("current-written");
            Files.move(currentTmp, dir.resolve(CURRENT), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            committed = true;
            syncDirectory(dir);
            deleteOldGenerations(dir, name, previous);
        } catch (IOException | RuntimeException e) {
            if (!committed) {
                deleteQuietly(tmp);
                deleteQuietly(gen);
            }
            if (committed && e instanceof IOException) {
                LOG.warn("index saved to {} but a follow-up step failed: {}", dir, e.toString());
                return;
            }
            throw new NonRetriableNeuralTextException("saving the index to " + dir + " failed; the previous index, if any,"
                    + " is unchanged: " + e.getMessage(), e);
        }
    }

    private static long nextGeneration(Path dir) throws IOException {
        long max = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                Matcher m = GENERATION.matcher(p.getFileName().toString());
                if (m.matches()) {
                    max = Math.max(max, Long.parseLong(m.group(1)));
                }
            }
        }
        return max + 1;
    }

    /**
     * Deletes the generations other than {@code current} and {@code previous} (a reader may be opening it), and the
     * {@code .tmp} folders of writers that died: the caller holds the write lock, so no live writer owns one.
     */
    private static void deleteOldGenerations(Path dir, String current, String previous) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String n = p.getFileName().toString();
                if (GENERATION.matcher(n).matches() && !n.equals(current) && !n.equals(previous)) {
                    deleteQuietly(p);
                }
            }
        } catch (IOException e) {
            LOG.warn("could not list {} to delete old index generations: {}", dir, e.toString());
        }
    }

    private static void deleteQuietly(Path p) {
        if (p == null || !Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            List<Path> all = new ArrayList<>();
            walk.forEach(all::add);
            all.sort(Comparator.reverseOrder());
            for (Path q : all) {
                Files.deleteIfExists(q);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not delete {} (will retry on the next save): {}", p, e.toString());
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // not supported on every platform (Windows); the file contents themselves were forced
            LOG.debug("directory sync of {} not supported: {}", dir, e.toString());
        }
    }

    private interface BodyWriter {
        void write(DataOutputStream out) throws IOException;
    }

    private record FileInfo(String name, long length, long crc) {
    }

    private static FileInfo writeFile(Path file, int kind, BodyWriter body) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CrcOutputStream crcOut = new CrcOutputStream(new ChannelOutputStream(ch));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(crcOut, 1 << 16));
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(kind);
            body.write(out);
            out.flush();
            long crc = crcOut.crc.getValue();
            long length = crcOut.count + TRAILER;
            ByteBuffer trailer = ByteBuffer.allocate(TRAILER).putLong(crc).flip();
            while (trailer.hasRemaining()) {
                ch.write(trailer);
            }
            ch.force(true);
            return new FileInfo(file.getFileName().toString(), length, crc);
        }
    }

    private static void writeChunks(DataOutputStream out, Source source) throws IOException {
        out.writeInt(source.size());
        for (int i = 0; i < source.size(); i++) {
            ChunkInput c = source.chunk(i);
            writeString(out, c.id());
            writeString(out, c.text());
            writeStringMap(out, c.metadata());
            out.writeInt(c.listMetadata().size());
            for (Map.Entry<String, List<String>> e : c.listMetadata().entrySet()) {
                writeString(out, e.getKey());
                out.writeInt(e.getValue().size());
                for (String v : e.getValue()) {
                    writeString(out, v);
                }
            }
            writeStringMap(out, c.fields());
        }
    }

    private static void writeVectors(DataOutputStream out, Source source, int dimension, int denseCount, int sparseCount)
            throws IOException {
        out.writeInt(dimension);
        out.writeInt(denseCount);
        ByteBuffer buf = ByteBuffer.allocate(dimension * Float.BYTES);
        for (int i = 0; i < source.size(); i++) {
            float[] d = source.dense(i);
            if (d != null) {
                out.writeInt(i);
                buf.clear();
                buf.asFloatBuffer().put(d);
                out.write(buf.array(), 0, dimension * Float.BYTES);
            }
        }
        out.writeInt(sparseCount);
        for (int i = 0; i < source.size(); i++) {
            SparseVector s = source.sparse(i);
            if (s != null) {
                out.writeInt(i);
                out.writeInt(s.size());
                for (int j = 0; j < s.size(); j++) {
                    out.writeInt(s.indexAt(j));
                }
                for (int j = 0; j < s.size(); j++) {
                    out.writeFloat(s.valueAt(j));
                }
            }
        }
    }

    private static void writeFingerprint(DataOutputStream out, IndexFingerprint f) throws IOException {
        writeString(out, f.tokenizer());
        out.writeDouble(f.bm25().k1());
        out.writeDouble(f.bm25().b());
        out.writeInt(f.fieldWeights().size());
        for (Map.Entry<String, Double> e : f.fieldWeights().entrySet()) {
            writeString(out, e.getKey());
            out.writeDouble(e.getValue());
        }
        writeString(out, f.denseModel());
        out.writeInt(f.denseDimension());
        writeString(out, f.sparseModel());
    }

    private static void writeStringMap(DataOutputStream out, Map<String, String> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    // ------------------------------------------------------------------ load

    static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(CURRENT));
    }

    static IndexFingerprint readFingerprint(Path dir) {
        return readCurrent(dir, () -> readManifest(currentGeneration(dir)).fingerprint());
    }

    static void load(Path dir, IndexFingerprint expected, InMemoryCaseStore store) {
        Path gen = currentGeneration(dir);
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
        store.loadMapped(mapped, manifest.chunkCount());
        long position = HEADER + Integer.BYTES;
        for (int i = 0; i < manifest.chunkCount(); i++) {
            MappedChunks.Record r = mapped.record(position);
            try {
                store.loadMappedChunk(i, position, r);
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
            bm25Read[0] = store.loadBm25State(in);
            return bm25Read[0];
        });
        if (!bm25Read[0]) {
            // saved with other BM25 settings (tokenizer, field settings): index the stored chunks again
            LOG.info("the BM25 index in {} was saved with other settings; re-indexing its {} chunks", dir,
                    manifest.chunkCount());
            store.reindexBm25();
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
                store.loadDense(ordinal, v);
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
                store.loadSparse(ordinal, new SparseVector(idx, val));
            }
        });
        for (FileInfo f : manifest.files()) {
            if (f.name().equals(DENSE_GRAPH)) {
                readFile(gen.resolve(DENSE_GRAPH), KIND_DENSE_GRAPH, f.crc(),
                        (BodyReader) (in, fileSize) -> store.loadDenseGraph(in, fileSize, IndexFiles::check));
            }
        }
        store.finishDenseLoad();
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

    private static long manifestCrc(Manifest manifest, String name) {
        for (FileInfo f : manifest.files()) {
            if (f.name().equals(name)) {
                return f.crc();
            }
        }
        throw new CorruptIndexException("the index manifest does not list " + name, null);
    }

    private record Manifest(IndexFingerprint fingerprint, int chunkCount, int denseCount, int sparseCount,
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

    private static Manifest readManifest(Path gen) {
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
                    throw new CorruptIndexException("index file " + file + " has format version " + version
                            + ", this library reads version " + VERSION + "; rebuild the index", null);
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

    /** Writes to a channel, counting bytes and updating a CRC32. */
    private static final class CrcOutputStream extends OutputStream {
        final CRC32 crc = new CRC32();
        final OutputStream out;
        long count;

        CrcOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            crc.update(b);
            count++;
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            crc.update(b, off, len);
            count += len;
            out.write(b, off, len);
        }
    }

    private static final class ChannelOutputStream extends OutputStream {
        private final FileChannel ch;

        ChannelOutputStream(FileChannel ch) {
            this.ch = ch;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buf = ByteBuffer.wrap(b, off, len);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
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
