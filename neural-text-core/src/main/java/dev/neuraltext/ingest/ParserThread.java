package dev.neuraltext.ingest;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs a third-party parser (JavaParser, commonmark) on a fresh thread with a known, generous stack, so that input
 * nested deeper than the parser's recursion can take ends in an empty result the chunker turns into a plain-text
 * fallback, instead of a {@link StackOverflowError} that would take down a run over many files. Only that error is
 * absorbed, on the thread that overflowed, whose stack is then gone; any other error or exception is rethrown on the
 * caller's thread.
 */
final class ParserThread {

    /** 16 MiB: about 16 times the default, tens of thousands of nesting levels for JavaParser. Reserved, not committed. */
    static final long STACK_BYTES = 16L << 20;

    private ParserThread() {
    }

    /**
     * The result of {@code work}, run on a parser thread; empty if it overflowed its stack.
     *
     * @param what names the input in the message if the wait is interrupted
     * @throws IllegalStateException if the calling thread is interrupted while waiting (the interrupt flag is restored)
     */
    static <T> Optional<T> call(String what, Supplier<T> work) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(null, () -> {
            try {
                result.set(work.get());
            } catch (RuntimeException | Error e) { // handed to the caller's thread below, where it is rethrown
                failure.set(e);
            }
        }, "neural-text-parser", STACK_BYTES);
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while parsing " + what, e);
        }
        Throwable f = failure.get();
        if (f instanceof StackOverflowError) {
            return Optional.empty();
        }
        if (f instanceof RuntimeException r) {
            throw r;
        }
        if (f instanceof Error e) {
            throw e;
        }
        return Optional.of(result.get());
    }
}
