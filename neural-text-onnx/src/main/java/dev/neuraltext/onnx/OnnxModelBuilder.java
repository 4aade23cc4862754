package dev.neuraltext.onnx;

import dev.neuraltext.internal.Checks;
import java.nio.file.Path;

/**
 * What the three ONNX builders ({@link OnnxEmbedder.Builder}, {@link OnnxSpladeEncoder.Builder},
 * {@link OnnxCrossEncoderReranker.Builder}) configure alike: the model and its tokenizer, the model name, the session
 * thread settings and the output name. Each builder passes its own defaults for {@code intraOpThreads} and
 * {@code outputName} and documents them; everything else defaults the same way everywhere. Not thread-safe.
 *
 * @param <B> the concrete builder, returned by every setter for chaining
 */
abstract class OnnxModelBuilder<B extends OnnxModelBuilder<B>> {

    ResourceLocation model;
    ResourceLocation tokenizerLocation;
    String modelName;
    int intraOpThreads;
    boolean spinWait;
    int maxConcurrentBatches;
    String outputName;

    OnnxModelBuilder(int defaultIntraOpThreads, String defaultOutputName) {
        this.intraOpThreads = defaultIntraOpThreads;
        this.outputName = defaultOutputName;
    }

    abstract B self();

    /** The ONNX model file. */
    public B modelFile(Path path) {
        this.model = ResourceLocation.file(path, "modelFile");
        return self();
    }

    /** The ONNX model as a classpath resource of this library's class loader. */
    public B modelResource(String resource) {
        return modelResource(null, resource);
    }

    /** The ONNX model as a classpath resource of {@code loader} (null: this library's class loader). */
    public B modelResource(ClassLoader loader, String resource) {
        this.model = ResourceLocation.classpath(loader, resource, "modelResource");
        return self();
    }

    /** The Hugging Face {@code tokenizer.json} file. */
    public B tokenizerFile(Path path) {
        this.tokenizerLocation = ResourceLocation.file(path, "tokenizerFile");
        return self();
    }

    /** The {@code tokenizer.json} as a classpath resource of this library's class loader. */
    public B tokenizerResource(String resource) {
        return tokenizerResource(null, resource);
    }

    /** The {@code tokenizer.json} as a classpath resource of {@code loader} (null: this library's class loader). */
    public B tokenizerResource(ClassLoader loader, String resource) {
        this.tokenizerLocation = ResourceLocation.classpath(loader, resource, "tokenizerResource");
        return self();
    }

    /** The name used in the model id; default: the model file name without {@code .onnx}. */
    public B modelName(String name) {
        this.modelName = Checks.notBlank(name, "modelName");
        return self();
    }

    /** Threads ONNX Runtime uses inside one call; the default is the builder's (see its class documentation). */
    public B intraOpThreads(int threads) {
        this.intraOpThreads = Checks.positive(threads, "intraOpThreads");
        return self();
    }

    /**
     * How many batches may run on the session at once; further callers wait their turn (first come, first served).
     * Default: available processors / intra-op threads, at least 1 (1 on a 2-core machine), so that concurrent callers
     * never oversubscribe the cores.
     */
    public B maxConcurrentBatches(int batches) {
        this.maxConcurrentBatches = Checks.positive(batches, "maxConcurrentBatches");
        return self();
    }

    /**
     * Whether idle ONNX Runtime threads spin waiting for work; default false. Spinning gains a few percent of
     * single-caller throughput but burns cores that concurrent callers or the rest of the application need.
     */
    public B spinWait(boolean spin) {
        this.spinWait = spin;
        return self();
    }

    /** The model output to read; the default is the builder's, else the model's first output. */
    public B outputName(String name) {
        this.outputName = Checks.notBlank(name, "outputName");
        return self();
    }

    /** The session settings. */
    OnnxModel.Settings sessionSettings() {
        return new OnnxModel.Settings(intraOpThreads, spinWait, maxConcurrentBatches);
    }

    /** The model name, else the model file's base name; fails when the model or the tokenizer is missing. */
    String requireModelAndTokenizer() {
        ResourceLocation.requireModelAndTokenizer(model, tokenizerLocation);
        return modelName != null ? modelName : model.baseName();
    }
}
