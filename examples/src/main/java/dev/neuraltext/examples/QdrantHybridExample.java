package dev.neuraltext.examples;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.ScanResult;
import dev.neuraltext.ingest.SourceFile;
import dev.neuraltext.onnx.OnnxEmbedder;
import dev.neuraltext.qdrant.Bm25Mode;
import dev.neuraltext.qdrant.QdrantCaseStore;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Hybrid retrieval over a running Qdrant: connects to {@code host:port} (gRPC), creates or verifies the collection,
 * indexes a folder (Java by method and type, Markdown by section, other text by window; other languages by definition
 * when {@code neural-text-treesitter} is on the class path), runs one hybrid query with a filter, and prints the hits
 * with each leg's rank and raw score.
 *
 * <pre>
 * docker run -p 6334:6334 qdrant/qdrant:v1.17.1
 * java -cp ... dev.neuraltext.examples.QdrantHybridExample localhost:6334 src/main/java "parse a date" "symbolType == 'method'"
 * </pre>
 *
 * <p>Arguments: {@code host:port folder query [filter]}. System properties: {@code collection} (default
 * {@code neural-text-example}), {@code bm25} ({@code client} default, or {@code server} for Qdrant's
 * {@code qdrant/bm25}), {@code dense=false} to skip the dense model. The dense leg uses all-MiniLM-L6-v2 on ONNX
 * Runtime when it can be loaded, otherwise the example runs BM25 alone. Re-running re-indexes the same chunk ids in
 * place (deterministic point ids), so it never duplicates.
 */
public final class QdrantHybridExample {

    private QdrantHybridExample() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: QdrantHybridExample host:port folder query [filter]");
            System.err.println("  e.g. localhost:6334 src/main/java \"parse a date\" \"symbolType == 'method'\"");
            System.exit(2);
        }
        int colon = args[0].lastIndexOf(':');
        String host = colon < 0 ? args[0] : args[0].substring(0, colon);
        int port = colon < 0 ? 6334 : Integer.parseInt(args[0].substring(colon + 1));
        Path folder = Path.of(args[1]);
        if (!Files.isDirectory(folder)) {
            System.err.println("not a folder: " + folder);
            System.exit(2);
        }
        String query = args[2];
        PayloadFilter filter = args.length > 3 ? PayloadFilter.parse(args[3]) : PayloadFilter.all();
        String collection = System.getProperty("collection", "neural-text-example");
        Bm25Mode mode = "server".equalsIgnoreCase(System.getProperty("bm25", "client"))
                ? Bm25Mode.SERVER_SIDE : Bm25Mode.CLIENT_SIDE;

        Embedder embedder = Boolean.parseBoolean(System.getProperty("dense", "true")) ? loadEmbedder() : null;
        try (QdrantCaseStore store = QdrantCaseStore.builder()
                .host(host, port)
                .collection(collection)
                .denseDimension(embedder == null ? 0 : embedder.dimension())
                .bm25Mode(mode)
                .build()) {
            HybridCaseRetriever retriever = HybridCaseRetriever.builder(store).embedder(embedder).build();

            DirectoryIngestor ingestor = DirectoryIngestor.builder(folder).build();
            ScanResult scan = ingestor.scan();
            List<ChunkInput> chunks = new ArrayList<>();
            for (SourceFile file : scan.files()) {
                chunks.addAll(ingestor.chunk(file).chunks());
            }
            long start = System.nanoTime();
            retriever.index(chunks);
            System.out.printf(Locale.ROOT, "indexed %d chunks from %d files into %s:%d/%s (bm25 %s%s) in %.1f s%n",
                    chunks.size(), scan.files().size(), host, port, collection, mode,
                    embedder == null ? ", no dense leg" : ", dense " + embedder.dimension(),
                    (System.nanoTime() - start) / 1e9);

            SearchResponse response = retriever.search(SearchRequest.builder(query).limit(10).filter(filter)
                    .explain(true).build());
            System.out.println(query + " -> " + response.summary());
            int rank = 0;
            for (SearchHit hit : response.hits()) {
                StringBuilder legs = new StringBuilder();
                for (LegScore leg : hit.legs().values()) {
                    legs.append(String.format(Locale.ROOT, " %s#%d(%.3f)", leg.leg().label(), leg.rank(), leg.score()));
                }
                System.out.printf(Locale.ROOT, "%2d. %.3f %s%s%n", ++rank, hit.score(), hit.id(), legs);
            }
        } catch (NeuralTextException e) {
            System.err.println((e.isRetriable() ? "retriable: " : "error: ") + e.getMessage());
            System.exit(1);
        } finally {
            if (embedder instanceof AutoCloseable c) {
                c.close();
            }
        }
    }

    private static Embedder loadEmbedder() {
        try {
            return OnnxEmbedder.allMiniLmL6V2();
        } catch (RuntimeException | LinkageError e) {
            System.err.println("note: dense model unavailable (" + e.getMessage() + "); running BM25 only");
            return null;
        }
    }
}
