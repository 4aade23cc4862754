package dev.neuraltext.onnx;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.RetriableNeuralTextException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One ONNX Runtime session over a BERT-style model ({@code input_ids}, {@code attention_mask}, optional
 * {@code token_type_ids}), shared by all threads. Internal.
 *
 * <p>Thread-safe: {@link OrtSession#run} may be called concurrently; a read-write lock keeps {@link #close()} from
 * freeing the native session under a running batch.
 */
final class OnnxModel implements AutoCloseable {

    static final String INPUT_IDS = "input_ids";
    static final String ATTENTION_MASK = "attention_mask";
    static final String TOKEN_TYPE_IDS = "token_type_ids";

    /** Session thread settings shared by the builders. */
    record Settings(int intraOpThreads, boolean spinWait, int maxConcurrentBatches) {
        Settings {
            if (intraOpThreads <= 0) {
                throw new IllegalArgumentException("intraOpThreads must be > 0, got " + intraOpThreads);
            }
            if (maxConcurrentBatches < 0) {
                throw new IllegalArgumentException("maxConcurrentBatches must be >= 0, got "
                        + maxConcurrentBatches);
            }
        }

        /** min(available processors, 4): a small BERT gains little beyond, and more oversubscribes small hosts. */
        static int defaultIntraOpThreads() {
            return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), 4));
        }

        /** 0 (unset) means available processors / intra-op threads, at least 1: enough runs to keep the cores busy. */
        int effectiveMaxConcurrentBatches() {
            return maxConcurrentBatches > 0 ? maxConcurrentBatches
                    : Math.max(1, Runtime.getRuntime().availableProcessors() / intraOpThreads);
        }
    }

    /** A model output: the flat row-major data and its shape. */
    record Output(FloatBuffer data, long[] shape) {
    }

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String source;
    private final boolean tokenTypeIds;
    private final String outputName;
    private final long[] outputShape;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /** Bounds concurrent runs so that callers queue (fairly) instead of oversubscribing the cores. */
    private final Semaphore runs;
    private boolean closed;

    private OnnxModel(OrtEnvironment env, OrtSession session, String source, boolean tokenTypeIds, String outputName,
            long[] outputShape, int maxConcurrentBatches) {
        this.runs = new Semaphore(maxConcurrentBatches, true);
        this.env = env;
        this.session = session;
        this.source = source;
        this.tokenTypeIds = tokenTypeIds;
        this.outputName = outputName;
        this.outputShape = outputShape;
    }

    /**
     * Loads and checks a model.
     *
     * @param outputNames output names to use, in order of preference; if none is present, the model's first output
     * @param outputRank  the rank the chosen output must have
     * @throws NonRetriableNeuralTextException naming the file and what is wrong
     */
    static OnnxModel load(ResourceLocation location, Settings settings, List<String> outputNames, int outputRank) {
        byte[] bytes = location.readAllBytes("ONNX model");
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession session;
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setIntraOpNumThreads(settings.intraOpThreads());
            options.setInterOpNumThreads(1);
            // Shapes change with every batch: cached memory patterns would only grow native memory.
            options.setMemoryPatternOptimization(false);
            options.addConfigEntry("session.intra_op.allow_spinning", settings.spinWait() ? "1" : "0");
            session = env.createSession(bytes, options);
        } catch (OrtException e) {
            throw new NonRetriableNeuralTextException("cannot load ONNX model " + location + ": " + e.getMessage(), e);
        }
        try {
            Map<String, NodeInfo> inputs = session.getInputInfo();
            for (String required : List.of(INPUT_IDS, ATTENTION_MASK)) {
                if (!inputs.containsKey(required)) {
                    throw new NonRetriableNeuralTextException("ONNX model " + location + " has no input named '"
                            + required + "' (inputs: " + new TreeMap<>(inputs).keySet()
                            + "): expected a BERT-style model taking input_ids, attention_mask [, token_type_ids]",
                            null);
                }
            }
            for (Map.Entry<String, NodeInfo> e : inputs.entrySet()) {
                String name = e.getKey();
                if (!name.equals(INPUT_IDS) && !name.equals(ATTENTION_MASK) && !name.equals(TOKEN_TYPE_IDS)) {
                    throw new NonRetriableNeuralTextException("ONNX model " + location + " has an unsupported input '"
                            + name + "' (supported: input_ids, attention_mask, token_type_ids)", null);
                }
                if (!(e.getValue().getInfo() instanceof TensorInfo t) || t.type != OnnxJavaType.INT64
                        || t.getShape().length != 2) {
                    throw new NonRetriableNeuralTextException("ONNX model " + location + ": input '" + name
                            + "' must be an int64 tensor of rank 2 [batch, sequence], got " + e.getValue().getInfo(),
                            null);
                }
            }
            Map<String, NodeInfo> outputs = session.getOutputInfo();
            String chosen = null;
            for (String name : outputNames) {
                if (outputs.containsKey(name)) {
                    chosen = name;
                    break;
                }
            }
            if (chosen == null) {
                chosen = outputs.keySet().iterator().next();
            }
            NodeInfo info = outputs.get(chosen);
            if (!(info.getInfo() instanceof TensorInfo t) || t.type != OnnxJavaType.FLOAT) {
                throw new NonRetriableNeuralTextException("ONNX model " + location + ": output '" + chosen
                        + "' must be a float tensor, got " + info.getInfo(), null);
            }
            long[] shape = ((TensorInfo) info.getInfo()).getShape();
            if (shape.length != outputRank) {
                throw new NonRetriableNeuralTextException("ONNX model " + location + ": output '" + chosen
                        + "' must have rank " + outputRank + ", got rank " + shape.length + " with shape "
                        + Arrays.toString(shape) + " (outputs: " + new TreeMap<>(outputs).keySet() + ")", null);
            }
            return new OnnxModel(env, session, location.toString(), inputs.containsKey(TOKEN_TYPE_IDS), chosen, shape,
                    settings.effectiveMaxConcurrentBatches());
        } catch (OrtException | RuntimeException e) {
            try {
                session.close();
            } catch (OrtException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof NonRetriableNeuralTextException n) {
                throw n;
            }
            throw new NonRetriableNeuralTextException("cannot inspect ONNX model " + location + ": " + e, e);
        }
    }

    boolean hasTokenTypeIds() {
        return tokenTypeIds;
    }

    /** The declared shape of the output used, -1 for symbolic dimensions. */
    long[] outputShape() {
        return outputShape.clone();
    }

    String outputName() {
        return outputName;
    }

    String source() {
        return source;
    }

    /**
     * Runs one batch, padding every sequence to the longest with {@code padId} and attention mask 0.
     *
     * @param typeIds token type ids per sequence, or null for all zeros; ignored when the model has no such input
     */
    Output run(List<long[]> ids, List<long[]> typeIds, long padId) {
        int batch = ids.size();
        int length = 0;
        for (long[] seq : ids) {
            length = Math.max(length, seq.length);
        }
        LongBuffer idBuf = directLongs(batch * length);
        LongBuffer maskBuf = directLongs(batch * length);
        LongBuffer typeBuf = tokenTypeIds ? directLongs(batch * length) : null;
        for (int b = 0; b < batch; b++) {
            long[] seq = ids.get(b);
            long[] types = typeIds == null ? null : typeIds.get(b);
            for (int t = 0; t < length; t++) {
                boolean real = t < seq.length;
                idBuf.put(real ? seq[t] : padId);
                maskBuf.put(real ? 1L : 0L);
                if (typeBuf != null) {
                    typeBuf.put(real && types != null ? types[t] : 0L);
                }
            }
        }
        idBuf.rewind();
        maskBuf.rewind();
        long[] shape = {batch, length};
        try {
            runs.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetriableNeuralTextException("interrupted while waiting to run model " + source, e);
        }
        lock.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException("ONNX model " + source + " is closed");
            }
            Map<String, OnnxTensor> inputs = new HashMap<>();
            try {
                inputs.put(INPUT_IDS, OnnxTensor.createTensor(env, idBuf, shape));
                inputs.put(ATTENTION_MASK, OnnxTensor.createTensor(env, maskBuf, shape));
                if (typeBuf != null) {
                    typeBuf.rewind();
                    inputs.put(TOKEN_TYPE_IDS, OnnxTensor.createTensor(env, typeBuf, shape));
                }
                try (OrtSession.Result result = session.run(inputs, Set.of(outputName))) {
                    OnnxValue value = result.get(0);
                    OnnxTensor tensor = (OnnxTensor) value;
                    long[] outShape = tensor.getInfo().getShape();
                    return new Output(tensor.getFloatBuffer(), outShape);
                }
            } catch (OrtException e) {
                throw new NonRetriableNeuralTextException("ONNX Runtime failed on a batch of " + batch
                        + " sequences of length " + length + " with model " + source + ": " + e.getMessage(), e);
            } finally {
                for (OnnxTensor t : inputs.values()) {
                    t.close();
                }
            }
        } finally {
            lock.readLock().unlock();
            runs.release();
        }
    }

    private static LongBuffer directLongs(int n) {
        return ByteBuffer.allocateDirect(n * Long.BYTES).order(ByteOrder.nativeOrder()).asLongBuffer();
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            session.close();
        } catch (OrtException e) {
            throw new NonRetriableNeuralTextException("cannot close ONNX model " + source + ": " + e.getMessage(), e);
        } finally {
            lock.writeLock().unlock();
        }
    }
}
