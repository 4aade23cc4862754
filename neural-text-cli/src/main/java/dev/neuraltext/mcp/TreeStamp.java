package dev.neuraltext.mcp;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * The cheap staleness check of a live index: a 64-bit checksum of every path, size and modification time (to the
 * nanosecond the file system keeps) under a folder, read from file attributes alone (no content). Hidden files and
 * folders ({@code .git}, the index folder) and symbolic links are left out, as the indexer leaves them out, except
 * {@code .gitignore} and {@code .neural-textignore} files, which decide what the indexer reads; a change the indexer
 * then ignores (a {@code .gitignore}d file) only costs one incremental update that finds nothing to do.
 *
 * <p>File systems keep modification times at a coarse granularity (a few milliseconds on ext4, a second or two on
 * others), so a same-size rewrite soon after a check can leave the stamp as it was. {@link Scan#racy} says when a
 * file was modified within {@link #RACY_WINDOW_NANOS} of the scan (as git's "racily clean" entries): the live index
 * then checks again at the next search instead of trusting the stamp.
 *
 * <p>Stateless; safe for concurrent use.
 */
final class TreeStamp {

    private TreeStamp() {
    }

    /** Modification times this close to a scan (or later) make it {@link Scan#racy}: 2.5 s. */
    static final long RACY_WINDOW_NANOS = 2_500_000_000L;

    /**
     * One scan of a tree.
     *
     * @param stamp the checksum
     * @param racy  whether a file was modified within {@link #RACY_WINDOW_NANOS} before the scan (or up to a second
     *              after, clocks being what they are), so that a later same-size rewrite could keep the same time and
     *              stamp
     */
    record Scan(long stamp, boolean racy) {
    }

    /** The stamp of the tree under {@code root}, skipping {@code skip} (the index folder) too; 0 if it is unreadable. */
    static long of(Path root, Path skip) {
        return scan(root, skip).stamp();
    }

    /** Scans the tree under {@code root}, skipping {@code skip} (the index folder); stamp 0 if it is unreadable. */
    static Scan scan(Path root, Path skip) {
        Checksum crc = new Checksum();
        long now = java.time.Instant.now().toEpochMilli() * 1_000_000L;
        long windowStart = now - RACY_WINDOW_NANOS;
        long windowEnd = now + 1_000_000_000L; // a time further ahead (a clock skewed copy) cannot come again
        boolean[] racy = {false};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!dir.equals(root) && (hidden(dir) || dir.equals(skip))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if ((!hidden(file) || IGNORE_FILES.contains(file.getFileName().toString()))
                            && attrs.isRegularFile()) {
                        long nanos = nanos(attrs.lastModifiedTime());
                        racy[0] |= nanos >= windowStart && nanos <= windowEnd;
                        add(crc, root.relativize(file).toString(), attrs.size(), nanos);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // an unreadable entry: the indexer reports it
                }
            });
        } catch (IOException e) {
            return new Scan(0, true);
        }
        return new Scan(crc.getValue(), racy[0]);
    }

    /** The stamp of a saved index's files (names, sizes, times), without its lock file: changes when a writer saves. */
    static long ofIndexFolder(Path indexDir, String lockFileName) {
        Checksum crc = new Checksum();
        try (var entries = Files.list(indexDir)) {
            entries.sorted().forEach(p -> {
                if (!p.getFileName().toString().equals(lockFileName)) {
                    try {
                        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                        add(crc, p.getFileName().toString(), a.size(), nanos(a.lastModifiedTime()));
                    } catch (IOException e) {
                        add(crc, p.getFileName().toString(), -1, -1); // vanished during a save
                    }
                }
            });
        } catch (IOException e) {
            return 0;
        }
        return crc.getValue();
    }

    private static final java.util.Set<String> IGNORE_FILES = java.util.Set.of(".gitignore", ".neural-textignore");

    private static boolean hidden(Path p) {
        Path name = p.getFileName();
        return name != null && name.toString().startsWith(".");
    }

    private static long nanos(java.nio.file.attribute.FileTime t) {
        java.time.Instant i = t.toInstant();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    private static void add(Checksum crc, String name, long size, long nanos) {
        crc.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        byte[] b = new byte[17];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (size >>> (8 * i));
            b[8 + i] = (byte) (nanos >>> (8 * i));
        }
        b[16] = 0; // separates one entry from the next name
        crc.update(b);
    }

    /** Two 32-bit checksums of different polynomials side by side: a changed tree keeps its stamp 1 in 2^64. */
    private static final class Checksum {
        private final CRC32C c = new CRC32C();
        private final CRC32 d = new CRC32();

        void update(byte[] b) {
            c.update(b);
            d.update(b);
        }

        long getValue() {
            return c.getValue() << 32 | d.getValue();
        }
    }
}
