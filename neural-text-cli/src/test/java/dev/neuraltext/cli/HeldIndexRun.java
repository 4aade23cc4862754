package dev.neuraltext.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code neural-text} in a process of its own whose {@code index} run is held at one {@link IndexSession.Step}:
 * {@code java -cp <test class path> dev.neuraltext.cli.HeldIndexRun <STEP> <gate file> <neural-text args...>}. At the
 * step the run creates the gate file and waits (at most 60 s) until the test deletes it, so that the test can act while
 * the run is there (start a second writer, search the half-built index, kill the run). Test code only: it sets
 * {@link IndexSession#pause}, which the product never does.
 */
final class HeldIndexRun {

    private HeldIndexRun() {
    }

    public static void main(String[] args) {
        IndexSession.Step held = IndexSession.Step.valueOf(args[0]);
        Path gate = Path.of(args[1]);
        IndexSession.pause = step -> {
            if (step == held) {
                hold(gate);
            }
        };
        String[] cli = new String[args.length - 2];
        System.arraycopy(args, 2, cli, 0, cli.length);
        NeuralTextCli.main(cli);
    }

    private static void hold(Path gate) {
        try {
            Files.createFile(gate);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (Files.exists(gate) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while held at the gate " + gate, e);
        }
    }
}
