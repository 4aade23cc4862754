package dev.neuraltext.onnx;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.TextRole;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.ScanResult;
import dev.neuraltext.ingest.SourceFile;
import java.io.BufferedWriter;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The teacher half of the static model's distillation (see {@code tools/static-model/README.md}): writes, as
 * {@code .npy} files for {@code distill_static.py},
 * <ul>
 *   <li>{@code vocab_teacher.npy} float32 [vocabulary, 384]: the preset's pooled output (CLS for bge) of every
 *       vocabulary token passed alone, {@code [CLS] token [SEP]} (model2vec's distillation input);</li>
 *   <li>{@code chunk_teacher.npy} float32 [chunks, 384]: the preset's document embedding of chunks of the training
 *       repositories, chunked by {@link DirectoryIngestor} as the CLI indexes them (tests excluded);</li>
 *   <li>{@code chunk_ids.npy} int32 and {@code chunk_offsets.npy} int64 [chunks + 1]: every chunk's word-piece ids
 *       (no special tokens, not truncated), and {@code chunk_seen.npy} int32: how many of them the teacher saw;</li>
 *   <li>{@code chunks.tsv}: repository, path and token count of each chunk (no text);</li>
 *   <li>{@code query_teacher.npy}, {@code query_ids.npy}, {@code query_offsets.npy}: the same for query-like
 *       sentences (the first sentence of each comment block of the kept chunks, at most one per chunk), embedded as
 *       queries (with the preset's query prefix), so that the static model learns where the teacher puts a question
 *       as well as where it puts the code.</li>
 * </ul>
 * Chunks: per repository, all chunks shuffled with a fixed seed and the first {@code --per-repo} kept, so a run is
 * reproducible for the same commits. Arguments: {@code <repos.tsv> <out-dir> [--preset id] [--per-repo n]
 * [--only vocabulary|chunks|queries]}; repos.tsv
 * holds {@code owner/name<TAB>commit<TAB>folder}. Not a test: run by {@code tools/static-model/distill.sh}.
 */
public final class StaticModelTeacher {

    private static final long SEED = 24L;

    private StaticModelTeacher() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: StaticModelTeacher <repos.tsv> <out-dir> [--preset bge-small-en-v1.5-q]"
                    + " [--per-repo 1000]");
            System.exit(2);
        }
        Path reposTsv = Path.of(args[0]);
        Path out = Path.of(args[1]);
        EmbeddingPreset preset = EmbeddingPreset.BGE_SMALL_EN_V15_Q;
        int perRepo = 1000;
        String only = "all";
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--preset" -> preset = EmbeddingPreset.byId(args[++i]);
                case "--per-repo" -> perRepo = Integer.parseInt(args[++i]);
                case "--only" -> only = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Files.createDirectories(out);
        long t0 = System.nanoTime();
        if (only.equals("all") || only.equals("vocabulary")) {
            embedVocabulary(preset, out);
            System.err.printf(Locale.ROOT, "vocabulary done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        }
        if (!only.equals("vocabulary")) {
            long t1 = System.nanoTime();
            embedChunks(preset, reposTsv, perRepo, out, only);
            System.err.printf(Locale.ROOT, "chunks and queries done in %.1f s%n", (System.nanoTime() - t1) / 1e9);
        }
        System.err.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }

    private static void embedVocabulary(EmbeddingPreset preset, Path out) throws IOException {
        ResourceLocation tokenizerAt = ResourceLocation.classpath(null, preset.tokenizerResource(), "tokenizer");
        ResourceLocation modelAt = ResourceLocation.classpath(null, preset.modelResource(), "model");
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try (ModelTokenizer tokenizer = ModelTokenizer.load(tokenizerAt, 0);
                OnnxModel model = OnnxModel.load(modelAt, new OnnxModel.Settings(1, false, 0),
                        List.of("last_hidden_state"), 3)) {
            int vocab = tokenizer.vocabSize();
            int dim = (int) model.outputShape()[2];
            List<Sequences.Unit> units = new ArrayList<>(vocab);
            for (int t = 0; t < vocab; t++) {
                units.add(new Sequences.Unit(t, tokenizer.wrap(new long[] {t}, 0, 1), null));
            }
            float[][] vectors = new float[vocab][];
            boolean cls = preset.pooling() == OnnxEmbedder.Pooling.CLS;
            int position = tokenizer.prefix().length; // the token itself, for mean-pooled presets
            Sequences.run(model, tokenizer.padId(), units, 64, (batch, o) -> {
                int length = (int) o.shape()[1];
                for (int b = 0; b < batch.length; b++) {
                    float[] v = new float[dim];
                    int base = b * length * dim;
                    if (cls) {
                        o.data().get(base, v);
                    } else {
                        // mean over [CLS] token [SEP], as the embedder pools a one-token text
                        for (int p = 0; p < length; p++) {
                            for (int d = 0; d < dim; d++) {
                                v[d] += o.data().get(base + p * dim + d) / length;
                            }
                        }
                    }
                    vectors[batch[b]] = v;
                }
            }, pool, 2);
            System.err.printf(Locale.ROOT, "vocabulary: %d tokens x %d (token position %d)%n", vocab, dim, position);
            writeFloats(out.resolve("vocab_teacher.npy"), vectors, dim);
        } finally {
            pool.shutdown();
        }
    }

    private static void embedChunks(EmbeddingPreset preset, Path reposTsv, int perRepo, Path out, String only)
            throws IOException {
        List<String> texts = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (String line : Files.readAllLines(reposTsv, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            String repo = f[0];
            DirectoryIngestor ingestor = DirectoryIngestor.builder(Path.of(f[2])).build();
            ScanResult scan = ingestor.scan();
            List<String[]> chunks = new ArrayList<>();
            for (SourceFile file : scan.files()) {
                for (ChunkInput c : ingestor.chunk(file).chunks()) {
                    if (!c.text().isBlank()) {
                        chunks.add(new String[] {file.path(), c.text()});
                    }
                }
            }
            int all = chunks.size();
            Collections.shuffle(chunks, new Random(SEED ^ repo.hashCode()));
            List<String[]> kept = chunks.subList(0, Math.min(perRepo, chunks.size()));
            for (String[] c : kept) {
                texts.add(c[1]);
                rows.add(repo + "\t" + c[0]);
            }
            System.err.printf(Locale.ROOT, "%s: %d files, %d chunks, %d kept%n", repo, scan.files().size(), all,
                    kept.size());
        }
        try (OnnxEmbedder teacher = OnnxEmbedder.preset(preset);
                ModelTokenizer tokenizer = ModelTokenizer.load(
                        ResourceLocation.classpath(null, preset.tokenizerResource(), "tokenizer"), 0)) {
            if (!only.equals("chunks")) {
                embedQueries(teacher, tokenizer, texts, out);
            }
            if (only.equals("queries")) {
                return;
            }
            int n = texts.size();
            float[][] vectors = new float[n][];
            int step = 256;
            long t0 = System.nanoTime();
            for (int from = 0; from < n; from += step) {
                int to = Math.min(n, from + step);
                List<float[]> v = teacher.embed(texts.subList(from, to), TextRole.DOCUMENT);
                for (int i = from; i < to; i++) {
                    vectors[i] = v.get(i - from);
                }
                double s = (System.nanoTime() - t0) / 1e9;
                System.err.printf(Locale.ROOT, "  %d/%d chunks, %.1f s, %.1f chunks/s%n", to, n, s, to / s);
            }
            writeFloats(out.resolve("chunk_teacher.npy"), vectors, teacher.dimension());
            int window = teacher.maxSequenceLength() - tokenizer.specialCount();
            long[] offsets = new long[n + 1];
            int[] seen = new int[n];
            List<long[]> ids = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                long[] c = tokenizer.contentIds(texts.get(i));
                ids.add(c);
                offsets[i + 1] = offsets[i] + c.length;
                seen[i] = Math.min(c.length, window);
            }
            int[] flat = new int[(int) offsets[n]];
            for (int i = 0; i < n; i++) {
                long[] c = ids.get(i);
                for (int j = 0; j < c.length; j++) {
                    flat[(int) offsets[i] + j] = (int) c[j];
                }
            }
            writeInts(out.resolve("chunk_ids.npy"), flat);
            writeInts(out.resolve("chunk_seen.npy"), seen);
            writeLongs(out.resolve("chunk_offsets.npy"), offsets);
            Path tsv = out.resolve("chunks.tsv");
            try (BufferedWriter w = Files.newBufferedWriter(tsv, StandardCharsets.UTF_8)) {
                for (int i = 0; i < n; i++) {
                    w.write(rows.get(i) + "\t" + ids.get(i).length + "\n");
                }
            }
        }
    }

    /** The first sentence of the first comment block of each chunk that has one, embedded as a query. */
    private static void embedQueries(OnnxEmbedder teacher, ModelTokenizer tokenizer, List<String> chunks, Path out)
            throws IOException {
        List<String> sentences = new ArrayList<>();
        for (String chunk : chunks) {
            String s = firstCommentSentence(chunk);
            if (s != null) {
                sentences.add(s);
            }
        }
        long t0 = System.nanoTime();
        List<float[]> vectors = teacher.embed(sentences, TextRole.QUERY);
        System.err.printf(Locale.ROOT, "queries: %d sentences embedded in %.1f s%n", sentences.size(),
                (System.nanoTime() - t0) / 1e9);
        writeFloats(out.resolve("query_teacher.npy"), vectors.toArray(float[][]::new), teacher.dimension());
        long[] offsets = new long[sentences.size() + 1];
        List<long[]> ids = new ArrayList<>();
        for (int i = 0; i < sentences.size(); i++) {
            long[] c = tokenizer.contentIds(sentences.get(i));
            ids.add(c);
            offsets[i + 1] = offsets[i] + c.length;
        }
        int[] flat = new int[(int) offsets[sentences.size()]];
        for (int i = 0; i < ids.size(); i++) {
            for (int j = 0; j < ids.get(i).length; j++) {
                flat[(int) offsets[i] + j] = (int) ids.get(i)[j];
            }
        }
        writeInts(out.resolve("query_ids.npy"), flat);
        writeLongs(out.resolve("query_offsets.npy"), offsets);
    }

    /**
     * The first sentence (4 to 30 words, mostly letters) of the comment lines of {@code chunk}: lines starting with
     * a comment marker ({@code /**}, {@code *}, {@code //}, {@code #}, {@code --}, {@code """}), or null.
     */
    static String firstCommentSentence(String chunk) {
        StringBuilder text = new StringBuilder();
        for (String line : chunk.split("\n")) {
            String t = line.strip();
            String body = null;
            for (String marker : new String[] {"/**", "/*", "///", "//!", "//", "*", "#", "--", "\"\"\"", "'''"}) {
                if (t.startsWith(marker)) {
                    body = t.substring(marker.length()).strip();
                    break;
                }
            }
            if (body == null || body.startsWith("@") || body.startsWith("!") || body.startsWith("include")) {
                if (text.length() > 0) {
                    break;
                }
                continue;
            }
            if (body.isEmpty() || body.equals("/")) {
                if (text.length() > 0) {
                    break;
                }
                continue;
            }
            text.append(text.length() > 0 ? " " : "").append(body);
        }
        String s = text.toString().replaceAll("<[^>]+>", "").replaceAll("\\{@\\w+\\s*([^}]*)}", "$1").strip();
        int dot = s.indexOf(". ");
        if (dot > 0) {
            s = s.substring(0, dot);
        }
        String[] words = s.split("\\s+");
        long letters = s.chars().filter(Character::isLetter).count();
        if (words.length < 4 || words.length > 30 || letters < 0.7 * s.length()) {
            return null;
        }
        return s;
    }

    private static void writeFloats(Path file, float[][] rows, int dim) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(rows.length * dim * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float[] r : rows) {
            for (float x : r) {
                b.putFloat(x);
            }
        }
        writeNpy(file, "<f4", "(" + rows.length + ", " + dim + ")", b.array());
    }

    private static void writeInts(Path file, int[] values) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : values) {
            b.putInt(x);
        }
        writeNpy(file, "<i4", "(" + values.length + ",)", b.array());
    }

    private static void writeLongs(Path file, long[] values) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : values) {
            b.putLong(x);
        }
        writeNpy(file, "<i8", "(" + values.length + ",)", b.array());
    }

    /** NumPy's {@code .npy} format 1.0: magic, header dict padded to 64 bytes, raw little-endian data. */
    private static void writeNpy(Path file, String dtype, String shape, byte[] data) throws IOException {
        StringBuilder header = new StringBuilder("{'descr': '" + dtype + "', 'fortran_order': False, 'shape': "
                + shape + ", }");
        while ((10 + header.length() + 1) % 64 != 0) {
            header.append(' ');
        }
        header.append('\n');
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream os = Files.newOutputStream(tmp); DataOutputStream d = new DataOutputStream(os)) {
            d.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
            d.write(header.length() & 0xff);
            d.write(header.length() >> 8);
            d.write(header.toString().getBytes(StandardCharsets.US_ASCII));
            d.write(data);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
