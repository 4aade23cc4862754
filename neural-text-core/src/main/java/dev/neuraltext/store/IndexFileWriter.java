package dev.neuraltext.store;

import static dev.neuraltext.store.IndexFiles.ATTACHMENT_NAME;
import static dev.neuraltext.store.IndexFiles.ATTACHMENT_PREFIX;
import static dev.neuraltext.store.IndexFiles.BM25;
import static dev.neuraltext.store.IndexFiles.CHUNKS;
import static dev.neuraltext.store.IndexFiles.CURRENT;
import static dev.neuraltext.store.IndexFiles.DENSE_GRAPH;
import static dev.neuraltext.store.IndexFiles.GENERATION;
import static dev.neuraltext.store.IndexFiles.KIND_ATTACHMENT;
import static dev.neuraltext.store.IndexFiles.KIND_BM25;
import static dev.neuraltext.store.IndexFiles.KIND_CHUNKS;
import static dev.neuraltext.store.IndexFiles.KIND_DENSE_GRAPH;
import static dev.neuraltext.store.IndexFiles.KIND_MANIFEST;
import static dev.neuraltext.store.IndexFiles.KIND_VECTORS;
import static dev.neuraltext.store.IndexFiles.MAGIC;
import static dev.neuraltext.store.IndexFiles.MANIFEST;
import static dev.neuraltext.store.IndexFiles.TRAILER;
import static dev.neuraltext.store.IndexFiles.VECTORS;
import static dev.neuraltext.store.IndexFiles.VERSION;

import dev.neuraltext.store.IndexFiles.FileInfo;
import dev.neuraltext.store.IndexFiles.SaveHook;
import dev.neuraltext.store.IndexFiles.Source;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.SparseVector;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a new generation of the {@linkplain IndexFiles on-disk format} and commits it: data files, manifest, the
 * atomic rename, {@code CURRENT}, then the garbage collection of old generations. The caller holds the
 * {@link IndexWriteLock}.
 */
final class IndexFileWriter {

    private static final Logger LOG = LoggerFactory.getLogger(IndexFiles.class);

    private IndexFileWriter() {
    }

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
            String previous = IndexFileReader.currentNameOrNull(dir);
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
}
