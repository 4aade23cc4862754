package dev.neuraltext.examples;

import dev.neuraltext.encode.Embedder;
import dev.neuraltext.ingest.ChunkSink;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.IncrementalIndexer;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.onnx.OnnxEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The example mains' shared first step: a folder ingested (Java, Markdown and text files; tests, hidden and ignored
 * files skipped) into a new in-memory retriever. Not thread-safe; each call builds a new retriever.
 */
public final class FolderRetriever {

    private FolderRetriever() {
    }

    /**
     * Indexes {@code folder} into a new {@link InMemoryCaseStore}, with BM25 and, when {@code embedder} is not null,
     * its dense leg; prints one line saying how much was indexed.
     *
     * @throws IllegalArgumentException if {@code folder} is not a directory
     */
    public static HybridCaseRetriever index(Path folder, Embedder embedder) {
        Objects.requireNonNull(folder, "folder");
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException("folder " + folder.toAbsolutePath() + " is not a directory: pass the "
                    + "folder to index as the first argument");
        }
        HybridCaseRetriever.Builder builder = HybridCaseRetriever.builder(InMemoryCaseStore.create());
        if (embedder != null) {
            builder.embedder(embedder);
        }
        HybridCaseRetriever retriever = builder.build();
        IndexUpdate update = IncrementalIndexer.builder(DirectoryIngestor.builder(folder).build()).build()
                .update(IndexManifest.empty(""), ChunkSink.of(retriever::index, retriever::delete));
        System.out.printf("indexed %d files of %s into %d chunks (%s)%n", update.manifest().files().size(),
                folder.toAbsolutePath().normalize(), update.manifest().chunkCount(),
                embedder == null ? "BM25" : "BM25 and " + embedder.modelId());
        return retriever;
    }

    /**
     * The example mains' {@code main}: arguments {@code [folder] [question] [--dense]} (defaults: the current folder,
     * "how are fused scores normalised", BM25 only); indexes the folder, then prints what {@code answer} makes of the
     * retriever and the question. {@code --dense} adds the MiniLM leg and says first that it embeds the whole folder.
     */
    public static void runExample(String[] args, BiFunction<HybridCaseRetriever, String, String> answer) {
        System.setProperty("org.slf4j.simpleLogger.log.ai.djl", "error"); // no GPU-probe notes from the tokenizer library
        List<String> positional = List.of(args).stream().filter(a -> !a.equals("--dense")).toList();
        Path folder = Path.of(positional.isEmpty() ? "." : positional.get(0));
        String question = positional.size() > 1 ? positional.get(1) : "how are fused scores normalised";
        if (List.of(args).contains("--dense")) {
            System.out.println("embedding every chunk with MiniLM first: about two minutes for this repository on 2 cores");
            try (OnnxEmbedder embedder = OnnxEmbedder.allMiniLmL6V2()) {
                System.out.println(answer.apply(index(folder, embedder), question));
            }
        } else {
            System.out.println(answer.apply(index(folder, null), question));
        }
    }
}
