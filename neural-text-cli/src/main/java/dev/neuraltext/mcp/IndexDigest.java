package dev.neuraltext.mcp;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.store.InMemoryCaseStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Checksums of what an index holds, for comparing two indexes of the same folder (a live one against a fresh
 * {@code neural-text index}, one machine's against another's): equal checksums mean the same chunks and files.
 *
 * <ul>
 *   <li>{@code lexical}: every chunk's id, text and metadata (plain, list and BM25 fields), in id order: what BM25
 *       searches, equal for an index built without dense vectors ({@code neural-text index --no-dense});</li>
 *   <li>{@code content}: every chunk's id, text, metadata (plain, list and BM25 fields) and whether it has a dense
 *       vector, in id order;</li>
 *   <li>{@code vectors}: every dense vector's bits, in id order: equal when the same model embedded the same text the
 *       same way (a model whose numbers depend on the batch it ran in may differ in the last bits);</li>
 *   <li>{@code manifest}: every indexed file's path, content hash, language and chunk ids.</li>
 * </ul>
 * Each is the first 128 bits of a SHA-256, in hex. Computing them reads every chunk: milliseconds for thousands of
 * chunks, about a second for a million.
 *
 * @param files     indexed files
 * @param chunks    stored chunks
 * @param withDense chunks with a dense vector
 * @param lexical   checksum of the chunks' ids, text and metadata
 * @param content   checksum of the chunks and which have dense vectors
 * @param vectors   checksum of the dense vectors
 * @param manifest  checksum of the file manifest
 */
record IndexDigest(int files, long chunks, long withDense, String lexical, String content, String vectors,
        String manifest) {

    /** The digest of {@code store} and its {@code manifest}; a consistent one when no update runs meanwhile. */
    static IndexDigest of(InMemoryCaseStore store, IndexManifest manifest) {
        MessageDigest lexical = sha256();
        MessageDigest content = sha256();
        MessageDigest vectors = sha256();
        List<ChunkInput> all = store.chunks(PayloadFilter.all());
        long withDense = 0;
        for (ChunkInput c : all) {
            chunk(content, c);
            chunk(lexical, c);
            Optional<float[]> v = store.denseVector(c.id());
            content.update((byte) (v.isPresent() ? 1 : 0));
            if (v.isPresent()) {
                withDense++;
                field(vectors, c.id());
                float[] f = v.get();
                ByteBuffer b = ByteBuffer.allocate(f.length * 4).order(ByteOrder.LITTLE_ENDIAN);
                for (float x : f) {
                    b.putInt(Float.floatToIntBits(x));
                }
                vectors.update(b.array());
            }
        }
        MessageDigest files = sha256();
        for (Map.Entry<String, IndexManifest.FileEntry> e : new TreeMap<>(manifest.files()).entrySet()) {
            field(files, e.getKey());
            field(files, e.getValue().hash());
            field(files, e.getValue().language());
            field(files, String.join("\n", e.getValue().chunkIds()));
        }
        return new IndexDigest(manifest.files().size(), all.size(), withDense, hex(lexical), hex(content), hex(vectors),
                hex(files));
    }

    /** One line for the {@code status} text. */
    String describe() {
        return String.format(Locale.ROOT, "Digest: %d files, %d chunks, %d with dense vectors; lexical %s, content %s, "
                + "vectors %s, manifest %s", files, chunks, withDense, lexical, content, vectors, manifest);
    }

    /** The {@code digest} field of {@code status}. */
    Map<String, Object> structured() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("files", files);
        m.put("chunks", chunks);
        m.put("withDense", withDense);
        m.put("lexical", lexical);
        m.put("content", content);
        m.put("vectors", vectors);
        m.put("manifest", manifest);
        return m;
    }

    private static void chunk(MessageDigest d, ChunkInput c) {
        field(d, c.id());
        field(d, c.text());
        field(d, new TreeMap<>(c.metadata()).toString());
        field(d, new TreeMap<>(c.listMetadata()).toString());
        field(d, new TreeMap<>(c.fields()).toString());
    }

    private static void field(MessageDigest d, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        d.update(ByteBuffer.allocate(4).putInt(b.length).array());
        d.update(b);
    }

    private static String hex(MessageDigest d) {
        return HexFormat.of().formatHex(d.digest(), 0, 16);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256, which every Java has", e);
        }
    }
}
