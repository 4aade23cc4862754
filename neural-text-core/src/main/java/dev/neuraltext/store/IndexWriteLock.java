package dev.neuraltext.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive write lock of one index folder: an OS file lock ({@link FileChannel#tryLock()}) on
 * {@value #FILE_NAME} inside the folder, as Lucene's {@code NativeFSLockFactory} does, plus an in-process registry,
 * because the OS lock does not exclude a second channel of the same JVM.
 *
 * <p>One writer per index folder: whoever changes an index (indexing, saving, deleting old generations) holds this
 * lock for the whole change. Readers never take it. The OS releases the lock when the process dies, so a crash never
 * leaves a stale lock behind; the lock file itself stays and is harmless.
 *
 * <p>Thread-safe. Closing is idempotent.
 */
public final class IndexWriteLock implements AutoCloseable {

    /** The lock file's name inside the index folder. */
    public static final String FILE_NAME = "write.lock";

    private static final Set<Path> HELD_IN_THIS_PROCESS = ConcurrentHashMap.newKeySet();

    private final Path directory;
    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;
    private volatile boolean released;

    private IndexWriteLock(Path directory, Path key, FileChannel channel, FileLock lock) {
        this.directory = directory;
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the write lock of {@code directory} at once, creating the folder if needed.
     *
     * @throws IndexLockedException if another writer holds it
     * @throws UncheckedIOException if the folder cannot be created or the lock file cannot be opened (for example a
     *                              read-only location); the message names the path
     */
    public static IndexWriteLock acquire(Path directory) {
        Objects.requireNonNull(directory, "directory");
        Path key;
        try {
            Files.createDirectories(directory);
            key = directory.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create index folder " + directory + ": " + e.getMessage(), e);
        }
        if (!HELD_IN_THIS_PROCESS.add(key)) {
            throw new IndexLockedException(directory, null);
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(key.resolve(FILE_NAME), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new IndexLockedException(directory, null);
            }
            return new IndexWriteLock(directory, key, channel, lock);
        } catch (IOException e) {
            closeAfterFailure(channel, e);
            HELD_IN_THIS_PROCESS.remove(key);
            throw new UncheckedIOException("cannot lock index folder " + directory + " (" + FILE_NAME + "): "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeAfterFailure(channel, e);
            HELD_IN_THIS_PROCESS.remove(key);
            throw e;
        }
    }

    private static void closeAfterFailure(FileChannel channel, Exception failure) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                failure.addSuppressed(suppressed);
            }
        }
    }

    /** The locked index folder, as given to {@link #acquire}. */
    public Path directory() {
        return directory;
    }

    /** Whether this lock still guards {@code dir} (same real folder, not yet released). */
    public boolean guards(Path dir) {
        if (released || !lock.isValid()) {
            return false;
        }
        try {
            return Files.isDirectory(dir) && dir.toRealPath().equals(key);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Checks the lock is still held.
     *
     * @throws IllegalStateException if it was released
     */
    public void ensureValid() {
        if (released || !lock.isValid()) {
            throw new IllegalStateException("the write lock of " + directory + " was released");
        }
    }

    /** Releases the lock. */
    @Override
    public void close() {
        if (released) {
            return;
        }
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
            try {
                lock.release();
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot release the write lock of " + directory, e);
            } finally {
                HELD_IN_THIS_PROCESS.remove(key);
            }
        }
    }

    @Override
    public String toString() {
        return "IndexWriteLock[" + directory + (released ? ", released]" : "]");
    }
}
