package dev.neuraltext.cli;

import dev.neuraltext.ingest.IndexUpdate;
import java.io.PrintStream;

/** A progress bar on a terminal, plain lines every few seconds otherwise, while an index run reads files. */
final class IndexProgress {

    private final PrintStream err;
    private final boolean terminal;
    private long lastPrint = System.nanoTime();
    private boolean drawn;

    IndexProgress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    void report(IndexUpdate.Progress p) {
        long now = System.nanoTime();
        if (p.filesToIndex() == 0) {
            return;
        }
        if (terminal) {
            if (now - lastPrint < 100_000_000L && p.filesDone() < p.filesToIndex()) {
                return;
            }
            int width = 30;
            int filled = (int) ((long) width * p.filesDone() / p.filesToIndex());
            err.print("\r[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + p.filesDone() + "/"
                    + p.filesToIndex() + " files, " + p.chunksDone() + " chunks");
            err.flush();
            drawn = true;
        } else if (now - lastPrint >= 2_000_000_000L) {
            err.println("indexing: " + p.filesDone() + "/" + p.filesToIndex() + " files, " + p.chunksDone()
                    + " chunks");
        } else {
            return;
        }
        lastPrint = now;
    }

    void done() {
        if (drawn) {
            err.println();
        }
    }
}
