package dev.neuraltext.onnx;

import dev.neuraltext.NonRetriableNeuralTextException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32;

/**
 * The parsed content of a static embedding model file ({@code .ntsm}), as written by
 * {@code tools/static-model/distill_static.py}. Layout, little-endian:
 * <pre>
 *   "NTSTATIC"            8 bytes magic
 *   int32 version         1
 *   int32 vocabulary      rows (word-piece ids 0 .. vocabulary-1)
 *   int32 dimension       columns
 *   int32 n, n bytes      model name, UTF-8
 *   int32 n, n bytes      the teacher's tokenizer.json
 *   float32[vocabulary]   row scales (token weight folded in; 0 for tokens that carry nothing, e.g. [CLS])
 *   int8[vocabulary * dimension]  rows
 *   uint32                CRC-32 of every byte before it
 * </pre>
 * Internal; immutable after parsing (the arrays are not copied and never written).
 */
record StaticModelFile(String name, int vocabularySize, int dimension, byte[] tokenizerJson, float[] scales,
        byte[] rows, String sha256) {

    static final byte[] MAGIC = "NTSTATIC".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    /** A sanity bound on the header's sizes, far above any word-piece vocabulary and dimension in use. */
    private static final int MAX_VOCABULARY = 1 << 22;
    private static final int MAX_DIMENSION = 4096;

    /**
     * Parses and checks {@code bytes}.
     *
     * @param source the file or resource the bytes come from, named in every error
     * @throws NonRetriableNeuralTextException naming {@code source} when the bytes are not a complete, intact model
     */
    static StaticModelFile parse(byte[] bytes, String source) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        try {
            byte[] magic = new byte[MAGIC.length];
            b.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw bad(source, "does not start with the magic bytes \"NTSTATIC\": not a neural-text static model"
                        + " file (make one with tools/static-model/distill.sh)");
            }
            int version = b.getInt();
            if (version != VERSION) {
                throw bad(source, "has format version " + version + ", this library reads version " + VERSION);
            }
            int vocabulary = b.getInt();
            int dimension = b.getInt();
            if (vocabulary < 1 || vocabulary > MAX_VOCABULARY || dimension < 1 || dimension > MAX_DIMENSION) {
                throw bad(source, "declares " + vocabulary + " rows of " + dimension + " dimensions: expected 1.."
                        + MAX_VOCABULARY + " rows and 1.." + MAX_DIMENSION + " dimensions");
            }
            String name = new String(block(b, source, "model name"), StandardCharsets.UTF_8);
            byte[] tokenizer = block(b, source, "tokenizer");
            long expected = (long) b.position() + 4L * vocabulary + (long) vocabulary * dimension + 4;
            if (bytes.length != expected) {
                throw bad(source, (bytes.length < expected ? "is truncated" : "has trailing bytes") + ": " + vocabulary
                        + " x " + dimension + " needs " + expected + " bytes, the file has " + bytes.length);
            }
            float[] scales = new float[vocabulary];
            b.asFloatBuffer().get(scales);
            b.position(b.position() + 4 * vocabulary);
            byte[] rows = new byte[vocabulary * dimension];
            b.get(rows);
            long stored = Integer.toUnsignedLong(b.getInt());
            CRC32 crc = new CRC32();
            crc.update(bytes, 0, bytes.length - 4);
            if (crc.getValue() != stored) {
                throw bad(source, "is corrupt: its CRC-32 is " + Long.toHexString(crc.getValue()) + ", the file says "
                        + Long.toHexString(stored));
            }
            for (int i = 0; i < scales.length; i++) {
                if (!Float.isFinite(scales[i]) || scales[i] < 0) {
                    throw bad(source, "has an invalid scale " + scales[i] + " for row " + i);
                }
            }
            return new StaticModelFile(name, vocabulary, dimension, tokenizer, scales, rows, sha256(bytes));
        } catch (BufferUnderflowException e) {
            throw new NonRetriableNeuralTextException("static model file " + source + " is truncated: it ends inside"
                    + " its header (" + bytes.length + " bytes)", e);
        }
    }

    private static byte[] block(ByteBuffer b, String source, String what) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw bad(source, "is truncated or corrupt: its " + what + " claims " + n + " bytes, " + b.remaining()
                    + " remain");
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    private static NonRetriableNeuralTextException bad(String source, String what) {
        return new NonRetriableNeuralTextException("static model file " + source + " " + what, null);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
