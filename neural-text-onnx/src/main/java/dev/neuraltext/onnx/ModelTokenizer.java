package dev.neuraltext.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.neuraltext.NonRetriableNeuralTextException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A Hugging Face {@code tokenizer.json} loaded through DJL, with the file's own truncation and padding switched off:
 * the encoders decide the sequence length themselves. Internal. Thread-safe (the native tokenizer is immutable).
 */
final class ModelTokenizer implements AutoCloseable {

    private final String source;
    private final HuggingFaceTokenizer tokenizer;
    private final long[] prefix;
    private final long[] suffix;
    private final int vocabSize;
    private final long padId;
    /** Keeps {@link #close()} from freeing the native tokenizer under a running encode. */
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private boolean closed;

    private ModelTokenizer(String source, HuggingFaceTokenizer tokenizer, long[] prefix, long[] suffix, int vocabSize,
            long padId) {
        this.source = source;
        this.tokenizer = tokenizer;
        this.prefix = prefix;
        this.suffix = suffix;
        this.vocabSize = vocabSize;
        this.padId = padId;
    }

    /**
     * Loads a tokenizer.
     *
     * @param pairMaxLength for pair encoding: the total length pairs are truncated to (longest first); 0 for
     *                      single-sequence use without truncation
     */
    static ModelTokenizer load(ResourceLocation location, int pairMaxLength) {
        return load(location.readAllBytes("tokenizer"), location.toString(), pairMaxLength);
    }

    /**
     * Loads a tokenizer from the bytes of a {@code tokenizer.json}.
     *
     * @param location where the bytes come from, for error messages
     */
    static ModelTokenizer load(byte[] bytes, String location, int pairMaxLength) {
        JsonObject json;
        try {
            json = JsonParser.parseString(new String(bytes, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (RuntimeException e) {
            throw new NonRetriableNeuralTextException("tokenizer file " + location + " is not valid JSON: " + e, e);
        }
        if (!json.has("model") || !json.get("model").isJsonObject()) {
            throw new NonRetriableNeuralTextException("tokenizer file " + location
                    + " has no \"model\" object: not a Hugging Face tokenizer.json", null);
        }
        Map<String, String> options = new HashMap<>();
        options.put("padding", "false");
        if (pairMaxLength > 0) {
            options.put("truncation", "true");
            options.put("maxLength", Integer.toString(pairMaxLength));
        } else {
            options.put("truncation", "false");
        }
        HuggingFaceTokenizer tokenizer;
        try {
            tokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(bytes), options);
        } catch (Exception e) {
            throw new NonRetriableNeuralTextException("cannot load tokenizer file " + location + ": " + e, e);
        }
        try {
            long[] with = tokenizer.encode("a", true, false).getIds();
            long[] without = tokenizer.encode("a", false, false).getIds();
            int at = indexOf(with, without);
            if (at < 0) {
                throw new NonRetriableNeuralTextException("tokenizer file " + location
                        + ": cannot locate the text between the special tokens of its template (with specials "
                        + Arrays.toString(with) + ", without " + Arrays.toString(without) + ")", null);
            }
            long[] prefix = Arrays.copyOfRange(with, 0, at);
            long[] suffix = Arrays.copyOfRange(with, at + without.length, with.length);
            return new ModelTokenizer(location, tokenizer, prefix, suffix, vocabSize(json), padId(json));
        } catch (RuntimeException e) {
            tokenizer.close();
            throw e;
        }
    }

    private static int indexOf(long[] haystack, long[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** One more than the largest token id the tokenizer can produce (vocabulary plus added tokens). */
    private static int vocabSize(JsonObject json) {
        int max = -1;
        JsonElement vocab = json.getAsJsonObject("model").get("vocab");
        if (vocab != null && vocab.isJsonObject()) {
            for (Map.Entry<String, JsonElement> e : vocab.getAsJsonObject().entrySet()) {
                max = Math.max(max, e.getValue().getAsInt());
            }
        } else if (vocab != null && vocab.isJsonArray()) {
            max = vocab.getAsJsonArray().size() - 1;
        }
        JsonElement added = json.get("added_tokens");
        if (added != null && added.isJsonArray()) {
            for (JsonElement t : added.getAsJsonArray()) {
                if (t.isJsonObject() && t.getAsJsonObject().has("id")) {
                    max = Math.max(max, t.getAsJsonObject().get("id").getAsInt());
                }
            }
        }
        return max + 1;
    }

    private static long padId(JsonObject json) {
        JsonElement padding = json.get("padding");
        if (padding != null && padding.isJsonObject() && padding.getAsJsonObject().has("pad_id")) {
            return padding.getAsJsonObject().get("pad_id").getAsLong();
        }
        JsonElement added = json.get("added_tokens");
        if (added != null && added.isJsonArray()) {
            for (JsonElement t : added.getAsJsonArray()) {
                JsonObject o = t.getAsJsonObject();
                String content = o.has("content") ? o.get("content").getAsString() : "";
                if (content.equals("[PAD]") || content.equals("<pad>")) {
                    return o.get("id").getAsLong();
                }
            }
        }
        return 0;
    }

    /** The token ids of {@code text} without special tokens and without truncation. */
    long[] contentIds(String text) {
        lock.readLock().lock();
        try {
            checkOpen();
            return tokenizer.encode(text, false, false).getIds();
        } catch (IllegalStateException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new NonRetriableNeuralTextException("tokenizer " + source + " failed on a text of " + text.length()
                    + " chars: " + e, e);
        } finally {
            lock.readLock().unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("tokenizer " + source + " is closed");
        }
    }

    /** Ids and token type ids of a (first, second) pair with the template's special tokens, truncated longest first. */
    Encoding encodePair(String first, String second) {
        lock.readLock().lock();
        try {
            checkOpen();
            return tokenizer.encode(first, second, true, false);
        } catch (IllegalStateException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new NonRetriableNeuralTextException("tokenizer " + source + " failed on a pair of texts of "
                    + first.length() + " and " + second.length() + " chars: " + e, e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The special tokens the single-sequence template puts before the text (e.g. [CLS]). */
    long[] prefix() {
        return prefix.clone();
    }

    /** The special tokens the single-sequence template puts after the text (e.g. [SEP]). */
    long[] suffix() {
        return suffix.clone();
    }

    int specialCount() {
        return prefix.length + suffix.length;
    }

    /** Checks {@code maxSequenceLength} leaves room for at least one text token beside the special tokens. */
    void requireRoomForText(int maxSequenceLength) {
        if (maxSequenceLength <= specialCount()) {
            throw new IllegalArgumentException("maxSequenceLength " + maxSequenceLength + " leaves no room for text"
                    + " next to the tokenizer's " + specialCount() + " special tokens");
        }
    }

    /** {@code prefix + content[from, to) + suffix}. */
    long[] wrap(long[] content, int from, int to) {
        long[] ids = new long[prefix.length + (to - from) + suffix.length];
        System.arraycopy(prefix, 0, ids, 0, prefix.length);
        System.arraycopy(content, from, ids, prefix.length, to - from);
        System.arraycopy(suffix, 0, ids, prefix.length + (to - from), suffix.length);
        return ids;
    }

    int vocabSize() {
        return vocabSize;
    }

    long padId() {
        return padId;
    }

    String source() {
        return source;
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                tokenizer.close();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }
}
