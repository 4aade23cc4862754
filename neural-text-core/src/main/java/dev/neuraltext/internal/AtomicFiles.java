package dev.neuraltext.internal;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replaces a file so that readers see the old content or the new content, whole, never a mix: the content goes to a
 * sibling temporary file, is flushed to disk, and the temporary file is renamed over the target with
 * {@link StandardCopyOption#ATOMIC_MOVE} (a plain replace only where the file system cannot move atomically). A failure
 * at any step deletes the temporary file and leaves the target as it was.
 *
 * <p>The temporary file is created with the default permissions, like the target would be ({@link Files#createTempFile}
 * would make it owner-only). Its name is unique per process and call, so concurrent writers of one target never share
 * a temporary file; the last rename wins. Thread-safe.
 */
public final class AtomicFiles {

    /** What is written: the whole new content of the file. */
    @FunctionalInterface
    public interface Content {
        /** Writes the content to {@code out}; do not close {@code out}. */
        void writeTo(OutputStream out) throws IOException;
    }

    private static final AtomicLong SEQUENCE = new AtomicLong();

    private AtomicFiles() {
    }

    /**
     * Replaces {@code file} with what {@code content} writes, creating the parent folders if needed.
     *
     * @throws IOException if any step fails; {@code file} is then unchanged
     */
    public static void write(Path file, Content content) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(content, "content");
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(file.getFileName() + "." + ProcessHandle.current().pid() + "."
                + SEQUENCE.incrementAndGet() + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
                content.writeTo(out);
                out.flush();
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Replaces {@code file} with {@code text} in UTF-8; see {@link #write(Path, Content)}. */
    public static void writeString(Path file, String text) throws IOException {
        Objects.requireNonNull(text, "text");
        write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }
}
