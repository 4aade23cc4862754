package dev.neuraltext.cli.eval;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress bar on a terminal ({@code \r}-redrawn line with rate and ETA), plain lines (every 10%) otherwise. Not
 * thread-safe: one task at a time, driven from one thread. Public for the harness's users (the never-shipped
 * neural-text-lab module).
 */
public final class ProgressBar {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final boolean terminal;
    private String label;
    private int total;
    private long start;
    private long lastDraw;
    private int lastDecile;

    /** A bar on {@code out}, redrawn in place when {@code terminal}, else printed every 10%. */
    public ProgressBar(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A bar on stderr, redrawn in place when a console is attached. */
    public static ProgressBar stderr() {
        return new ProgressBar(System.err, System.console() != null);
    }

    /** A bar that prints nothing. */
    public static ProgressBar silent() {
        return new ProgressBar(new PrintStream(java.io.OutputStream.nullOutputStream()), false);
    }

    /** Starts a task of {@code taskTotal} steps. */
    public void start(String taskLabel, int taskTotal) {
        this.label = taskLabel;
        this.total = Math.max(0, taskTotal);
        this.start = System.nanoTime();
        this.lastDraw = 0;
        this.lastDecile = -1;
        update(0);
    }

    /** {@code done} steps of the task are done. */
    public void update(int done) {
        long now = System.nanoTime();
        if (terminal) {
            if (done < total && now - lastDraw < 100_000_000L) {
                return;
            }
            lastDraw = now;
            out.print("\r" + line(done, now));
            out.flush();
        } else {
            int decile = total == 0 ? 10 : (int) (10L * done / total);
            if (decile != lastDecile) {
                lastDecile = decile;
                out.println(line(done, now));
            }
        }
    }

    /** The task is done. */
    public void finish() {
        update(total);
        if (terminal) {
            out.println();
        }
    }

    private String line(int done, long now) {
        double secs = (now - start) / 1e9;
        double rate = secs > 0 ? done / secs : 0;
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        StringBuilder bar = new StringBuilder("[");
        for (int i = 0; i < WIDTH; i++) {
            bar.append(i < filled ? '#' : '.');
        }
        bar.append(']');
        String eta = rate > 0 && done < total ? String.format(Locale.ROOT, " ETA %s", time((total - done) / rate))
                : String.format(Locale.ROOT, " %s", time(secs));
        return String.format(Locale.ROOT, "%-28s %s %3d%% %d/%d %.1f/s%s", label, bar,
                total == 0 ? 100 : 100L * done / total, done, total, rate, eta);
    }

    private static String time(double secs) {
        long s = Math.round(secs);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
