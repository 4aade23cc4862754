package dev.neuraltext.onnx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Turning texts into model-sized token sequences and running them in length-sorted batches. Internal. */
final class Sequences {

    private Sequences() {
    }

    /** One sequence to run: token ids with special tokens, type ids (null = all zero), and the text it comes from. */
    record Unit(int owner, long[] ids, long[] typeIds) {
    }

    /** Receives the units of one batch (positions in the unit list) and the model output for them, row b = units[b]. */
    interface BatchConsumer {
        void accept(int[] units, OnnxModel.Output output);
    }

    /**
     * Splits every text into sequences of at most {@code maxLength} tokens including the template's special tokens:
     * the first window only ({@link LongInputPolicy#TRUNCATE}) or consecutive windows covering the whole text
     * ({@link LongInputPolicy#WINDOWS}). An empty text gives one sequence of special tokens only.
     */
    static List<Unit> single(ModelTokenizer tokenizer, List<String> texts, String prefix, int maxLength,
            LongInputPolicy policy) {
        int window = maxLength - tokenizer.specialCount();
        List<Unit> units = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            if (text == null) {
                throw new NullPointerException("texts[" + i + "] must not be null");
            }
            long[] content = tokenizer.contentIds(prefix.isEmpty() ? text : prefix + text);
            if (content.length <= window || policy == LongInputPolicy.TRUNCATE) {
                units.add(new Unit(i, tokenizer.wrap(content, 0, Math.min(window, content.length)), null));
            } else {
                for (int from = 0; from < content.length; from += window) {
                    int to = Math.min(content.length, from + window);
                    units.add(new Unit(i, tokenizer.wrap(content, from, to), null));
                }
            }
        }
        return units;
    }

    /**
     * Runs {@code units} in batches of at most {@code batchSize}, longest first, each padded only to its own longest
     * sequence (dynamic padding), so similar lengths share a batch and little compute goes to padding.
     */
    static void run(OnnxModel model, long padId, List<Unit> units, int batchSize, BatchConsumer consumer) {
        run(model, padId, units, batchSize, consumer, null, 1);
    }

    /**
     * Like {@link #run(OnnxModel, long, List, int, BatchConsumer)}, with up to {@code parallelism} batches in flight:
     * the calling thread and {@code parallelism - 1} tasks on {@code executor} take batches from a shared queue.
     * {@code consumer} is called concurrently, for disjoint units. The first failure is rethrown once all workers
     * stopped.
     */
    static void run(OnnxModel model, long padId, List<Unit> units, int batchSize, BatchConsumer consumer,
            Executor executor, int parallelism) {
        Integer[] order = new Integer[units.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt((Integer i) -> units.get(i).ids().length).reversed()
                .thenComparingInt(i -> i));
        int batches = (order.length + batchSize - 1) / batchSize;
        AtomicInteger next = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Runnable worker = () -> {
            int k;
            while (failure.get() == null && (k = next.getAndIncrement()) < batches) {
                try {
                    runBatch(model, padId, units, order, k * batchSize, Math.min(order.length, (k + 1) * batchSize),
                            consumer);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }
        };
        int helpers = executor == null ? 0 : Math.min(parallelism, batches) - 1;
        // A helper that has not started when the caller runs out of batches is cancelled rather than awaited: the
        // executor may be busy with the very threads that wait (e.g. callers running on the same pool).
        List<Helper> started = new ArrayList<>();
        for (int h = 0; h < helpers; h++) {
            Helper helper = new Helper(worker);
            try {
                executor.execute(helper);
                started.add(helper);
            } catch (RejectedExecutionException e) {
                break; // executor shut down or saturated: the calling thread does the rest
            }
        }
        worker.run();
        boolean interrupted = false;
        for (Helper helper : started) {
            if (!helper.state.compareAndSet(Helper.NEW, Helper.CANCELLED)) {
                while (true) {
                    try {
                        helper.done.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true; // the running batch finishes soon; keep the flag for the caller
                    }
                }
                if (helper.error != null) {
                    failure.compareAndSet(null, helper.error);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        RuntimeException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    /** A batch worker on the executor that runs only if it starts before the caller gives up on it. */
    private static final class Helper implements Runnable {
        static final int NEW = 0;
        static final int RUNNING = 1;
        static final int CANCELLED = 2;

        final AtomicInteger state = new AtomicInteger(NEW);
        final CountDownLatch done = new CountDownLatch(1);
        final Runnable worker;
        volatile RuntimeException error;

        Helper(Runnable worker) {
            this.worker = worker;
        }

        @Override
        public void run() {
            if (!state.compareAndSet(NEW, RUNNING)) {
                return;
            }
            try {
                worker.run();
            } catch (RuntimeException | Error e) {
                error = e instanceof RuntimeException r ? r : new IllegalStateException("batch worker failed", e);
                throw e;
            } finally {
                done.countDown();
            }
        }
    }

    private static void runBatch(OnnxModel model, long padId, List<Unit> units, Integer[] order, int start, int end,
            BatchConsumer consumer) {
        int[] batch = new int[end - start];
        List<long[]> ids = new ArrayList<>(batch.length);
        List<long[]> types = new ArrayList<>(batch.length);
        boolean anyTypes = false;
        for (int k = start; k < end; k++) {
            Unit u = units.get(order[k]);
            batch[k - start] = order[k];
            ids.add(u.ids());
            types.add(u.typeIds());
            anyTypes |= u.typeIds() != null;
        }
        consumer.accept(batch, model.run(ids, anyTypes ? types : null, padId));
    }
}
