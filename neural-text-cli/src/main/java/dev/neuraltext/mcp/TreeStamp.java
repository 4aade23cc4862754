package dev.neuraltext.mcp;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.CRC32C;

/**
 * The cheap staleness check of a live index: a checksum of every path, size and modification time under a folder,
 * read from file attributes alone (no content). Hidden files and folders ({@code .git}, the index folder) and symbolic
 * links are left out, as the indexer leaves them out; a change the indexer then ignores (a {@code .gitignore}d file)
 * only costs one incremental update that finds nothing to do.
 *
 * <p>Stateless; safe for concurrent use.
 */
final class TreeStamp {

    private TreeStamp() {
    }

    /** The stamp of the tree under {@code root}, skipping {@code skip} (the index folder) too; 0 if it is unreadable. */
    static long of(Path root, Path skip) {
        CRC32C crc = new CRC32C();
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
                    if (!hidden(file) && attrs.isRegularFile()) {
                        add(crc, root.relativize(file).toString(), attrs.size(), attrs.lastModifiedTime().toMillis());
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // an unreadable entry: the indexer reports it
                }
            });
        } catch (IOException e) {
            return 0;
        }
        return crc.getValue();
    }

    /** The stamp of a saved index's files (names, sizes, times), without its lock file: changes when a writer saves. */
    static long ofIndexFolder(Path indexDir, String lockFileName) {
        CRC32C crc = new CRC32C();
        try (var entries = Files.list(indexDir)) {
            entries.sorted().forEach(p -> {
                if (!p.getFileName().toString().equals(lockFileName)) {
                    try {
                        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                        add(crc, p.getFileName().toString(), a.size(), a.lastModifiedTime().toMillis());
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

    private static boolean hidden(Path p) {
        Path name = p.getFileName();
        return name != null && name.toString().startsWith(".");
    }

    private static void add(CRC32C crc, String name, long size, long millis) {
        crc.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (size >>> (8 * i));
            b[8 + i] = (byte) (millis >>> (8 * i));
        }
        crc.update(b);
    }
}
