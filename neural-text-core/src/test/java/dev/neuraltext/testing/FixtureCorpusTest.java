package dev.neuraltext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FixtureCorpusTest {

    @Test
    void everyFileIsChunkedWithPathAndLinesAndSymbols() {
        List<ChunkInput> chunks = FixtureCorpus.chunks();
        assertThat(chunks).extracting(c -> c.metadata().get(ChunkMetadata.PATH))
                .containsAll(FixtureCorpus.PATHS);
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.metadata()).containsKeys(ChunkMetadata.SYMBOL, ChunkMetadata.START_LINE, ChunkMetadata.END_LINE);
            assertThat(c.id()).isNotBlank();
        });
        assertThat(chunks).extracting(ChunkInput::id).doesNotHaveDuplicates();
        assertThat(chunks).filteredOn(c -> c.metadata().get(ChunkMetadata.PATH).equals("docs/retries.md"))
                .allSatisfy(c -> assertThat(c.listMetadata().get(ChunkMetadata.TAGS)).containsExactly("retry", "http"));
    }

    @Test
    void theShippedChunkFileHoldsExactlyWhatTheChunkersMakeNow() throws IOException {
        List<ChunkInput> now = FixtureCorpus.chunkSources();
        assertThat(FixtureCorpus.parseChunks(FixtureCorpus.formatChunks(now))).isEqualTo(now);
        Path regenerated = Path.of("target", FixtureCorpus.CHUNKS_FILE);
        Files.createDirectories(regenerated.getParent());
        Files.writeString(regenerated, FixtureCorpus.formatChunks(now), StandardCharsets.UTF_8);
        assertThat(FixtureCorpus.chunks())
                .as("the chunkers changed: copy %s to src/test/resources/%s%s", regenerated.toAbsolutePath(),
                        FixtureCorpus.RESOURCE_FOLDER, FixtureCorpus.CHUNKS_FILE)
                .isEqualTo(now);
    }

    @Test
    void everyKnownAnswerRanksFirstWithBothLegs() {
        HybridCaseRetriever retriever = FixtureCorpus.retriever();
        assertThat(retriever.availableLegs()).contains(Leg.BM25, Leg.DENSE);
        for (FixtureCorpus.KnownAnswer answer : FixtureCorpus.knownAnswers()) {
            SearchResponse response = retriever.search(SearchRequest.builder(answer.query()).limit(3)
                    .filter(answer.filter()).build());
            assertThat(response.legsRun()).as(answer.query()).contains(Leg.BM25, Leg.DENSE);
            SearchHit top = response.hits().get(0);
            assertThat(top.metadata().get(ChunkMetadata.PATH)).as(answer.query()).isEqualTo(answer.expectedPath());
            assertThat(top.metadata().get(ChunkMetadata.SYMBOL)).as(answer.query()).isEqualTo(answer.expectedSymbol());
            assertThat(response.hits()).allSatisfy(h -> assertThat(answer.filter().test(
                    ChunkInput.of(h.id(), h.text(), h.metadata()).payload())).isTrue());
        }
    }

    @Test
    void theSameCorpusRanksTheSameInEveryRetrieverBuilt() {
        List<String> first = FixtureRankings.rankings(FixtureCorpus.retriever());
        List<String> second = FixtureRankings.rankings(FixtureCorpus.retriever());
        assertThat(first).hasSize(FixtureCorpus.knownAnswers().size()).isEqualTo(second);
        assertThat(first).allSatisfy(line -> assertThat(line).contains("="));
    }

    @Test
    void anotherJvmRanksExactlyTheSame() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", FixtureRankings.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out;
        try {
            out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the second JVM finished").isTrue();
        } finally {
            process.destroyForcibly();
        }
        assertThat(process.exitValue()).isZero();
        assertThat(out.lines().toList()).isEqualTo(FixtureRankings.rankings(FixtureCorpus.retriever()));
    }
}
