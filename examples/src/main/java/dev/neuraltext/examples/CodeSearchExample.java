package dev.neuraltext.examples;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.ingest.ChunkSink;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.IncrementalIndexer;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.onnx.OnnxEmbedder;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexFingerprint;
import java.nio.file.Path;

/**
 * Code search over a folder: ingest it with the Java and Markdown chunkers, embed with the MiniLM preset, persist the
 * index, load it back (as a later process would) and search it.
 *
 * <p>Run: {@code java -cp examples/target/neural-text-examples.jar dev.neuraltext.examples.CodeSearchExample [folder] [query]}
 * (defaults: the current folder, "where are chunk ids made stable").
 */
public final class CodeSearchExample {

    private CodeSearchExample() {
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.log.ai.djl", "error"); // no GPU-probe notes from the tokenizer library
        Path folder = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        String query = args.length > 1 ? args[1] : "where are chunk ids made stable";
        Path indexDir = folder.resolve(".neural-text-example");

        try (OnnxEmbedder embedder = OnnxEmbedder.allMiniLmL6V2()) {
            // 1. ingest and index (incremental: a second run re-embeds only changed files)
            InMemoryCaseStore store = InMemoryCaseStore.create();
            HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).embedder(embedder).build();
            DirectoryIngestor ingestor = DirectoryIngestor.builder(folder).build();
            IndexUpdate update = IncrementalIndexer.builder(ingestor).build()
                    .update(IndexManifest.empty(""), ChunkSink.of(retriever::index, retriever::delete));
            System.out.printf("indexed %d files into %d chunks (%s)%n", update.manifest().files().size(),
                    update.manifest().chunkCount(), update.manifest().chunksBySymbolType());

            // 2. persist: the store and the per-file manifest, committed and checksummed together in one generation
            store.save(indexDir, retriever.fingerprint(), java.util.Map.of("files.tsv", update.manifest().toBytes()));

            // 3. load, as a later process would; the fingerprint check refuses an index built with another model
            IndexFingerprint expected = InMemoryCaseStore.builder().fingerprint().withDense(embedder);
            InMemoryCaseStore loaded = InMemoryCaseStore.load(indexDir, expected);
            HybridCaseRetriever reloaded = HybridCaseRetriever.builder(loaded).embedder(embedder).build();

            // 4. search
            SearchResponse response = reloaded.search(SearchRequest.of(query, 5));
            for (SearchHit hit : response.hits()) {
                System.out.printf("%.3f  %s:%s  %s%n", hit.score(), hit.metadata().get(ChunkMetadata.PATH),
                        hit.metadata().get(ChunkMetadata.START_LINE), hit.metadata().get(ChunkMetadata.SYMBOL));
            }
            System.out.println(response.summary());
        }
    }
}
