package dev.neuraltext.cli.eval;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.internal.AtomicFiles;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Embedder} that remembers document embeddings on disk, keyed by a SHA-256 of the model id, the role and the
 * text, so a rerun on the same corpus skips the model. Query embeddings always go to the model (their time is what
 * latency measures). One file per model id: magic {@code NTEC}, version 1, dimension, count, then per entry the 32-byte
 * key and the floats; written whole to a temp file then atomically renamed by {@link #flush()}. A file that does not
 * read cleanly is ignored (and rebuilt). Safe for concurrent use. Public for the harness's users (the never-shipped
 * neural-text-lab module).
 */
public final class EmbeddingCache implements Embedder {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddingCache.class);
    private static final int MAGIC = 0x4E544543; // "NTEC"
    private static final int VERSION = 1;

    private final Embedder delegate;
    private final Path file;
    private final Map<Key, float[]> entries = new ConcurrentHashMap<>();
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private volatile boolean dirty;

    private record Key(byte[] hash) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(hash, k.hash);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(hash);
        }
    }

    /** Wraps {@code delegate}, caching under {@code dir} (null: no disk, memory only). */
    public EmbeddingCache(Embedder delegate, Path dir) {
        this.delegate = delegate;
        this.file = dir == null ? null
                : dir.resolve(delegate.modelId().replaceAll("[^A-Za-z0-9._-]", "_") + ".embeddings");
        if (file != null && Files.isRegularFile(file)) {
            read();
        }
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public String modelId() {
        return delegate.modelId();
    }

    @Override
    public List<float[]> embed(List<String> texts, TextRole role) {
        if (role != TextRole.DOCUMENT) {
            return delegate.embed(texts, role);
        }
        List<float[]> out = new ArrayList<>(texts.size());
        List<Integer> missing = new ArrayList<>();
        List<Key> keys = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            Key key = key(texts.get(i), role);
            keys.add(key);
            float[] v = entries.get(key);
            out.add(v == null ? null : v.clone()); // callers may modify what they get; the cache keeps its copy
            if (v == null) {
                missing.add(i);
            }
        }
        hits.addAndGet(texts.size() - missing.size());
        if (!missing.isEmpty()) {
            misses.addAndGet(missing.size());
            List<String> todo = new ArrayList<>(missing.size());
            missing.forEach(i -> todo.add(texts.get(i)));
            List<float[]> vectors = delegate.embed(todo, role);
            for (int j = 0; j < missing.size(); j++) {
                int i = missing.get(j);
                out.set(i, vectors.get(j));
                entries.put(keys.get(i), vectors.get(j).clone());
            }
            dirty = true;
        }
        return out;
    }

    /** Embeddings served from the cache so far. */
    public long hits() {
        return hits.get();
    }

    /** Embeddings computed by the model so far (documents only). */
    public long misses() {
        return misses.get();
    }

    /** Writes the cache file when something was added (temp file, then atomic rename). */
    public void flush() {
        if (file == null || !dirty) {
            return;
        }
        // cleared before the snapshot: an entry added while writing sets it again and is written by the next flush
        dirty = false;
        boolean written = false;
        try {
            List<Map.Entry<Key, float[]>> list = new ArrayList<>(entries.entrySet());
            AtomicFiles.write(file, raw -> {
                DataOutputStream out = new DataOutputStream(raw);
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeInt(delegate.dimension());
                out.writeInt(list.size());
                for (Map.Entry<Key, float[]> e : list) {
                    out.write(e.getKey().hash());
                    for (float f : e.getValue()) {
                        out.writeFloat(f);
                    }
                }
                out.flush();
            });
            written = true;
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot write the embedding cache " + file, e);
        } finally {
            if (!written) {
                dirty = true;
            }
        }
    }

    private void read() {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            if (in.readInt() != MAGIC || in.readInt() != VERSION || in.readInt() != delegate.dimension()) {
                return;
            }
            int n = in.readInt();
            int dim = delegate.dimension();
            for (int i = 0; i < n; i++) {
                byte[] hash = new byte[32];
                in.readFully(hash);
                float[] v = new float[dim];
                for (int d = 0; d < dim; d++) {
                    v[d] = in.readFloat();
                }
                entries.put(new Key(hash), v);
            }
        } catch (EOFException e) {
            LOG.warn("embedding cache {} is truncated; rebuilding it", file);
            entries.clear();
        } catch (IOException e) {
            LOG.warn("cannot read embedding cache {} ({}); rebuilding it", file, e.toString());
            entries.clear();
        }
    }

    private Key key(String text, TextRole role) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(delegate.modelId().getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(role.name().getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(text.getBytes(StandardCharsets.UTF_8));
            return new Key(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
