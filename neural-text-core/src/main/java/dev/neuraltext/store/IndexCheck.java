package dev.neuraltext.store;

import static dev.neuraltext.store.IndexFiles.CURRENT;
import static dev.neuraltext.store.IndexFiles.GENERATION;
import static dev.neuraltext.store.IndexFiles.HEADER;
import static dev.neuraltext.store.IndexFiles.MAGIC;
import static dev.neuraltext.store.IndexFiles.MANIFEST;
import static dev.neuraltext.store.IndexFiles.TRAILER;
import static dev.neuraltext.store.IndexFiles.VERSION;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.store.IndexFileReader.Manifest;
import dev.neuraltext.store.IndexFiles.FileInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * Checks a saved {@link InMemoryCaseStore} index folder, in the manner of Lucene's {@code CheckIndex}: for every
 * generation folder, every file's presence, length, magic number, format version, kind and checksum (stored and
 * computed, and the manifest's), then a full load of each generation whose files are whole (chunk records, BM25
 * postings, vectors, HNSW graph, attachments). {@link #dropDamaged} removes a damaged newest generation.
 *
 * <p>{@link #check} only reads and needs no lock; a writer committing meanwhile may make it report a generation it
 * is replacing. {@link #dropDamaged} holds the folder's {@link IndexWriteLock}. Thread-safe (no state).
 */
public final class IndexCheck {

    /** What a file of a generation was found to be. */
    public enum FileStatus {
        /** Whole: header, length and checksums agree. */
        OK,
        /** Listed by the manifest (or required) but absent. */
        MISSING,
        /** Shorter than a header and trailer, or than the manifest's length. */
        TRUNCATED,
        /** Longer than the manifest's length. */
        WRONG_LENGTH,
        /** Does not start with the magic number: not a neural-text index file. */
        BAD_MAGIC,
        /** Written by a newer format version than this library reads. */
        NEWER_VERSION,
        /** Written by an older format version than this library reads. */
        OLDER_VERSION,
        /** Its stored checksum differs from the one computed over its bytes, or from the manifest's. */
        CHECKSUM_MISMATCH,
        /** Whole, but its content does not parse (found by the load). */
        CORRUPT,
        /** Could not be read (an I/O error other than absence). */
        UNREADABLE
    }

    /**
     * One file of a generation.
     *
     * @param name          the file name inside the generation folder
     * @param status        what it was found to be
     * @param bytes         its length, or -1 when absent
     * @param manifestBytes the length the manifest lists, or -1 (the manifest itself, or not listed)
     * @param formatVersion the format version in its header, or -1 when unread
     * @param storedCrc     the CRC32 in its trailer (any long when the trailer is damaged); meaningful only when
     *                      {@code computedCrc} is not -1
     * @param computedCrc   the CRC32 computed over its bytes, or -1 when the file was not read
     * @param detail        a sentence on the damage, or empty when {@code OK}
     */
    public record FileReport(String name, FileStatus status, long bytes, long manifestBytes, int formatVersion,
                             long storedCrc, long computedCrc, String detail) {
        public FileReport {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(detail, "detail");
        }

        /** Whether the file is whole. */
        public boolean ok() {
            return status == FileStatus.OK;
        }
    }

    /**
     * One generation folder.
     *
     * @param name        the folder name ({@code gen-<n>})
     * @param current     whether {@code CURRENT} names it
     * @param files       its files, the manifest first
     * @param chunks      the chunk count the manifest lists, or -1 when the manifest is unreadable
     * @param denseChunks the chunks with a dense vector, or -1
     * @param sparseChunks the chunks with a sparse vector, or -1
     * @param bm25        whether the BM25 postings were read as saved (false when the load failed, or they were saved
     *                    with other BM25 settings and rebuilt from the chunks)
     * @param hnswGraph   whether the generation has an HNSW graph file and it loaded
     * @param loaded      whether a full load of the generation succeeded
     * @param problem     why the generation is damaged, or empty when healthy
     */
    public record GenerationReport(String name, boolean current, List<FileReport> files, int chunks, int denseChunks,
                                   int sparseChunks, boolean bm25, boolean hnswGraph, boolean loaded, String problem) {
        public GenerationReport {
            Objects.requireNonNull(name, "name");
            files = List.copyOf(files);
            Objects.requireNonNull(problem, "problem");
        }

        /** Whether every file is whole and the generation loaded. */
        public boolean healthy() {
            return loaded && files.stream().allMatch(FileReport::ok);
        }

        /** The dense coverage the manifest lists, or null when the manifest is unreadable. */
        public DenseCoverage denseCoverage() {
            return chunks < 0 ? null : new DenseCoverage(chunks, Math.max(0, denseChunks));
        }
    }

    /**
     * The whole folder.
     *
     * @param directory      the index folder
     * @param current        the generation {@code CURRENT} names, or empty when there is no {@code CURRENT}
     * @param libraryVersion the format version this library reads and writes
     * @param generations    the generation folders, newest first (unfinished {@code .tmp} ones are not listed)
     * @param problems       folder-level damage ({@code CURRENT} unreadable or naming a missing generation)
     */
    public record Report(String directory, String current, int libraryVersion, List<GenerationReport> generations,
                         List<String> problems) {
        public Report {
            Objects.requireNonNull(directory, "directory");
            Objects.requireNonNull(current, "current");
            generations = List.copyOf(generations);
            problems = List.copyOf(problems);
        }

        /** Whether the folder holds an index at all ({@code CURRENT} or a generation). */
        public boolean indexFound() {
            return !current.isEmpty() || !generations.isEmpty() || !problems.isEmpty();
        }

        /**
         * Whether the index is usable: {@code CURRENT} names a generation that is whole and loads. An older damaged
         * generation (the previous one, kept for readers) does not count: the next save deletes it.
         */
        public boolean healthy() {
            return indexFound() && problems.isEmpty()
                    && generations.stream().anyMatch(g -> g.current() && g.healthy());
        }
    }

    /**
     * What {@link #dropDamaged} did.
     *
     * @param removed  the paths it deleted (generation folders, {@code CURRENT}), in order; empty when nothing was
     *                 damaged
     * @param current  the generation {@code CURRENT} names afterwards, or empty when there is none (the next index
     *                 run rebuilds from the files)
     */
    public record DropResult(List<String> removed, String current) {
        public DropResult {
            removed = List.copyOf(removed);
            Objects.requireNonNull(current, "current");
        }
    }

    private IndexCheck() {
    }

    /**
     * Checks every generation of the index folder {@code dir} without changing anything.
     *
     * @throws IllegalArgumentException if {@code dir} is not a folder
     * @throws UncheckedIOException     if the folder cannot be listed
     */
    public static Report check(Path dir) {
        Objects.requireNonNull(dir, "dir");
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("index folder " + dir + " does not exist or is not a folder");
        }
        List<String> problems = new ArrayList<>();
        String current = "";
        if (Files.exists(dir.resolve(CURRENT))) {
            try {
                current = new String(Files.readAllBytes(dir.resolve(CURRENT)), StandardCharsets.US_ASCII).trim();
                Matcher m = GENERATION.matcher(current);
                if (!m.matches() || m.group(2) != null) {
                    problems.add(CURRENT + " does not name an index generation (got '" + abbreviate(current) + "')");
                } else if (!Files.isDirectory(dir.resolve(current))) {
                    problems.add(CURRENT + " names " + current + ", which does not exist");
                }
            } catch (IOException e) {
                problems.add("reading " + CURRENT + " failed: " + e.getMessage());
            }
        }
        List<GenerationReport> generations = new ArrayList<>();
        for (String name : generationNames(dir)) {
            generations.add(checkGeneration(dir, name, name.equals(current)));
        }
        if (current.isEmpty() && !generations.isEmpty()) {
            problems.add("no " + CURRENT + " file names a generation");
        }
        return new Report(dir.toString(), current, VERSION, generations, problems);
    }

    /**
     * Under the folder's write lock, removes the newest generation when it is damaged: points {@code CURRENT} at the
     * newest older generation that is healthy (an atomic rename), or, when there is none, removes {@code CURRENT} so
     * that the next index run rebuilds from the files; then deletes the damaged generation folder. A healthy
     * generation is never removed, nor an older damaged one that {@code CURRENT} does not name (garbage collection
     * of the next save deletes it).
     *
     * @throws IndexLockedException  if another writer holds the folder's lock
     * @throws UncheckedIOException  if a removal fails (then {@code CURRENT} was changed first or not at all)
     */
    public static DropResult dropDamaged(Path dir) {
        try (IndexWriteLock lock = IndexWriteLock.acquire(dir)) {
            Report report = check(dir);
            List<String> removed = new ArrayList<>();
            GenerationReport named = report.generations().stream()
                    .filter(GenerationReport::current).findFirst().orElse(null);
            if (report.problems().isEmpty() && named != null && named.healthy()) {
                return new DropResult(removed, report.current());
            }
            // the newest healthy generation other than the damaged one, if a previous save left one
            GenerationReport fallback = report.generations().stream()
                    .filter(g -> g.healthy() && !g.current()).findFirst().orElse(null);
            Path currentFile = dir.resolve(CURRENT);
            String after;
            if (fallback != null) {
                Path tmp = dir.resolve(CURRENT + ".tmp");
                Files.write(tmp, fallback.name().getBytes(StandardCharsets.US_ASCII));
                Files.move(tmp, currentFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                after = fallback.name();
            } else {
                if (Files.deleteIfExists(currentFile)) {
                    removed.add(currentFile.toString());
                }
                after = "";
            }
            if (named != null) {
                Path gen = dir.resolve(named.name());
                deleteTree(gen);
                removed.add(gen.toString());
            }
            return new DropResult(removed, after);
        } catch (IOException e) {
            throw new UncheckedIOException("dropping the damaged generation of " + dir + " failed: " + e.getMessage(), e);
        }
    }

    private static List<String> generationNames(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(n -> {
                        Matcher m = GENERATION.matcher(n);
                        return m.matches() && m.group(2) == null;
                    })
                    .sorted(Comparator.comparingLong((String n) -> Long.parseLong(n.substring(4))).reversed())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("listing index folder " + dir + " failed: " + e.getMessage(), e);
        }
    }

    private static GenerationReport checkGeneration(Path dir, String name, boolean current) {
        Path gen = dir.resolve(name);
        List<FileReport> files = new ArrayList<>();
        FileReport manifestFile = checkFile(gen.resolve(MANIFEST), -1, null);
        files.add(manifestFile);
        if (!manifestFile.ok()) {
            return new GenerationReport(name, current, files, -1, -1, -1, false, false, false,
                    MANIFEST + ": " + manifestFile.detail());
        }
        Manifest manifest;
        try {
            manifest = IndexFileReader.readManifest(gen);
        } catch (CorruptIndexException e) {
            files.set(0, withStatus(manifestFile, FileStatus.CORRUPT, e.getMessage()));
            return new GenerationReport(name, current, files, -1, -1, -1, false, false, false,
                    MANIFEST + ": " + e.getMessage());
        }
        boolean hasGraph = false;
        String problem = "";
        for (FileInfo f : manifest.files()) {
            FileReport r = checkFile(gen.resolve(f.name()), f.length(), f.crc());
            files.add(r);
            hasGraph |= f.name().equals(IndexFiles.DENSE_GRAPH);
            if (!r.ok() && problem.isEmpty()) {
                problem = f.name() + ": " + r.detail();
            }
        }
        if (!problem.isEmpty()) {
            return new GenerationReport(name, current, files, manifest.chunkCount(), manifest.denseCount(),
                    manifest.sparseCount(), false, false, false, problem);
        }
        // every file is whole: load the generation, which parses chunk records, postings, vectors and the graph
        InMemoryCaseStore.Builder builder = InMemoryCaseStore.builder();
        IndexFingerprint saved = manifest.fingerprint();
        IndexFingerprint expected = builder.fingerprint();
        if (!saved.denseModel().isEmpty()) {
            expected = expected.withDense(saved.denseModel(), saved.denseDimension());
        }
        if (!saved.sparseModel().isEmpty()) {
            expected = expected.withSparse(saved.sparseModel());
        }
        boolean bm25AsSaved = saved.lexicalPart().equals(builder.fingerprint());
        try {
            builder.loadGeneration(dir, gen, expected);
        } catch (NeuralTextException | IllegalArgumentException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            for (int i = 0; i < files.size(); i++) {
                if (message.contains(gen.resolve(files.get(i).name()).toString())) {
                    files.set(i, withStatus(files.get(i), FileStatus.CORRUPT, message));
                }
            }
            return new GenerationReport(name, current, files, manifest.chunkCount(), manifest.denseCount(),
                    manifest.sparseCount(), false, false, false, message);
        }
        return new GenerationReport(name, current, files, manifest.chunkCount(), manifest.denseCount(),
                manifest.sparseCount(), bm25AsSaved, hasGraph, true, "");
    }

    private static FileReport withStatus(FileReport r, FileStatus status, String detail) {
        return new FileReport(r.name(), status, r.bytes(), r.manifestBytes(), r.formatVersion(), r.storedCrc(),
                r.computedCrc(), detail);
    }

    /** The header, length and checksum checks of one file; {@code manifestLength} -1 and null CRC for the manifest. */
    static FileReport checkFile(Path file, long manifestLength, Long manifestCrc) {
        String name = file.getFileName().toString();
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            return new FileReport(name, FileStatus.MISSING, -1, manifestLength, -1, -1, -1, "the file is missing");
        } catch (IOException e) {
            return new FileReport(name, FileStatus.UNREADABLE, -1, manifestLength, -1, -1, -1,
                    "reading it failed: " + e.getMessage());
        }
        if (size < HEADER + TRAILER) {
            return new FileReport(name, FileStatus.TRUNCATED, size, manifestLength, -1, -1, -1,
                    "truncated: " + size + " bytes, less than a header and trailer (" + (HEADER + TRAILER) + ")");
        }
        int magic;
        int version;
        long stored;
        long computed;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(8);
            readFully(ch, header, 0);
            magic = header.getInt(0);
            version = header.getInt(4);
            ByteBuffer trailer = ByteBuffer.allocate(TRAILER);
            readFully(ch, trailer, size - TRAILER);
            stored = trailer.getLong(0);
            CRC32 crc = new CRC32();
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            long position = 0;
            while (position < size - TRAILER) {
                buf.clear();
                buf.limit((int) Math.min(buf.capacity(), size - TRAILER - position));
                int n = ch.read(buf, position);
                if (n < 0) {
                    break;
                }
                buf.flip();
                crc.update(buf);
                position += n;
            }
            computed = crc.getValue();
        } catch (IOException e) {
            return new FileReport(name, FileStatus.UNREADABLE, size, manifestLength, -1, -1, -1,
                    "reading it failed: " + e.getMessage());
        }
        if (manifestLength >= 0 && size != manifestLength) {
            FileStatus status = size < manifestLength ? FileStatus.TRUNCATED : FileStatus.WRONG_LENGTH;
            return new FileReport(name, status, size, manifestLength, version, stored, computed,
                    size + " bytes, the manifest says " + manifestLength
                            + (size < manifestLength ? " (truncated)" : " (replaced or appended to)"));
        }
        if (magic != MAGIC) {
            return new FileReport(name, FileStatus.BAD_MAGIC, size, manifestLength, -1, stored, computed,
                    "bad magic number " + Integer.toHexString(magic) + ", not a neural-text index file");
        }
        if (version != VERSION) {
            FileStatus status = version > VERSION ? FileStatus.NEWER_VERSION : FileStatus.OLDER_VERSION;
            return new FileReport(name, status, size, manifestLength, version, stored, computed,
                    IndexFileReader.versionMessage(version));
        }
        if (stored != computed) {
            return new FileReport(name, FileStatus.CHECKSUM_MISMATCH, size, manifestLength, version, stored, computed,
                    "fails its checksum (stored " + Long.toHexString(stored) + ", computed "
                            + Long.toHexString(computed) + ")");
        }
        if (manifestCrc != null && manifestCrc != computed) {
            return new FileReport(name, FileStatus.CHECKSUM_MISMATCH, size, manifestLength, version, stored, computed,
                    "checksum " + Long.toHexString(computed) + " differs from the manifest's "
                            + Long.toHexString(manifestCrc) + " (a file of another generation)");
        }
        return new FileReport(name, FileStatus.OK, size, manifestLength, version, stored, computed, "");
    }

    private static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long at = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, at);
            if (n < 0) {
                throw new java.io.EOFException();
            }
            at += n;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
