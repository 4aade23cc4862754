package dev.neuraltext.cli.limits;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.ingest.ScanResult;
import dev.neuraltext.ingest.SourceFile;
import java.util.Locale;

/**
 * How much Java heap indexing a folder needs, from the bytes of source it will hold, and what to say when the JVM has
 * less. The embedded index keeps every chunk's text, its BM25 postings and its vectors in the heap while it is built
 * and saved; measured on copies of one repository from 2,125 to 102,046 chunks (docs/command-line.md, *Memory*), the
 * least heap that indexes a folder grows as about {@value #BASE_MIB} MiB plus {@value #HEAP_PER_SOURCE_BYTE} bytes of
 * heap per byte of source, {@value #DENSE_HEAP_PER_SOURCE_BYTE} more with dense vectors. A run whose JVM allows less than {@value #REFUSE_BELOW} of that is refused once the folder
 * is scanned, before any file is chunked, so that it does not fail with an {@code OutOfMemoryError} halfway; a run
 * between that and the estimate is let through (the estimate errs high), and the command line's last resort
 * ({@link #outOfMemory()}) still names the option if it runs out. Used by {@code index} and the MCP server.
 * Stateless.
 */
public final class HeapNeed {

    static final int BASE_MIB = 32;
    static final double HEAP_PER_SOURCE_BYTE = 5.0;
    /** What dense vectors add: their floats, the model's buffers and its batches. */
    static final double DENSE_HEAP_PER_SOURCE_BYTE = 4.0;
    static final double REFUSE_BELOW = 0.75;

    private HeapNeed() {
    }

    /** The heap, in bytes, that indexing {@code sourceBytes} of source needs, about, with dense vectors or not. */
    public static long estimate(long sourceBytes, boolean dense) {
        return (BASE_MIB << 20) + (long) (sourceBytes * (HEAP_PER_SOURCE_BYTE
                + (dense ? DENSE_HEAP_PER_SOURCE_BYTE : 0)));
    }

    /**
     * Refuses, with the option to set, a run over {@code scan}'s files when the JVM's heap ({@code maxHeap}) is below
     * {@value #REFUSE_BELOW} of the estimate ({@code dense}: the run embeds dense vectors too).
     */
    public static void require(ScanResult scan, long maxHeap, boolean dense) {
        long bytes = 0;
        for (SourceFile f : scan.files()) {
            bytes += f.size();
        }
        long need = estimate(bytes, dense);
        if (maxHeap < need * REFUSE_BELOW) {
            throw new NonRetriableNeuralTextException(String.format(Locale.ROOT, "indexing %,d files (%s of "
                    + "source) needs about %s of Java heap, and this JVM may use at most %s: nothing was indexed and "
                    + "the index is unchanged. Give it more, e.g. JAVA_OPTS=-Xmx%s neural-text index ... (or java "
                    + "-Xmx%s -jar neural-text.jar ...), or index less with --include/--exclude", scan.files().size(),
                    mib(bytes), mib(need), mib(maxHeap), suggested(need), suggested(need)), null);
        }
    }

    /** The message of a run that ran out of heap anyway: the folder is unchanged, and the option to set. */
    public static String outOfMemory() {
        return "ran out of Java heap (this JVM may use at most " + mib(Runtime.getRuntime().maxMemory()) + "); the "
                + "index folder is as it was before this run (saves are atomic). Give it more heap, e.g. "
                + "JAVA_OPTS=-Xmx2g neural-text ... (or java -Xmx2g -jar neural-text.jar ...); docs/command-line.md "
                + "(Memory) says how much a repository needs";
    }

    /** A round {@code -Xmx} value above {@code bytes}: 256m, 512m, 1g, 2g, ... */
    static String suggested(long bytes) {
        long mib = 256;
        while ((mib << 20) < bytes * 1.25) {
            mib *= 2;
        }
        return mib >= 1024 ? (mib / 1024) + "g" : mib + "m";
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%,.0f MiB", bytes / (1024.0 * 1024));
    }
}
