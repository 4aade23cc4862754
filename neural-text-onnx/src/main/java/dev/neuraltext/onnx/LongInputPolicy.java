package dev.neuraltext.onnx;

/**
 * What an encoder does with a text longer than its maximum sequence length.
 *
 * <p>{@link OnnxEmbedder} truncates by default: on the commons-lang code-retrieval benchmark with all-MiniLM-L6-v2 at
 * 256 word pieces both policies retrieve alike (MRR@10 0.544 truncated, 0.542 windowed) and truncation is cheaper;
 * see {@link OnnxEmbedder.Builder#longInputPolicy(LongInputPolicy)}.
 */
public enum LongInputPolicy {
    /** Keep the first window of word pieces and drop the rest (what most in-process embedders do silently). */
    TRUNCATE,
    /**
     * Split the text into consecutive non-overlapping windows that each fit the model, encode every window, and pool
     * the results: dense embedders average the window vectors weighted by their token counts (for mean pooling this
     * equals the mean over all tokens), sparse encoders take the maximum weight per term.
     */
    WINDOWS
}
