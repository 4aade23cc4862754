package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCommandTest {

    @TempDir
    Path tmp;

    private Path indexed() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("repo"));
        assertThat(CliFixture.run("index", root.toString(), "--no-dense").exitCode()).isZero();
        return root.resolve(".neural-text");
    }

    private static void flipByte(Path file) throws IOException {
        byte[] b = Files.readAllBytes(file);
        b[b.length / 2] ^= 0x04;
        Files.write(file, b);
    }

    @Test
    void aHealthyIndexExitsZeroAndListsEveryFile() throws IOException {
        Path idx = indexed();
        CliFixture.Result r = CliFixture.run("check", "--index", idx.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("gen-1 (current): healthy").contains("chunks.bin").contains("bm25.bin")
                .contains("attachment-").contains("BM25 postings read").contains("result: healthy");
    }

    @Test
    void aFlippedByteExitsThreeNamingTheFileAndBothChecksums() throws IOException {
        Path idx = indexed();
        flipByte(idx.resolve("gen-1/chunks.bin"));
        CliFixture.Result r = CliFixture.run("check", "--index", idx.toString(), "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(doc.get("healthy").asBoolean()).isFalse();
        assertThat(doc.get("current").asText()).isEqualTo("gen-1");
        JsonNode gen = doc.get("generations").get(0);
        assertThat(gen.get("problem").asText()).startsWith("chunks.bin: fails its checksum");
        JsonNode chunks = null;
        for (JsonNode f : gen.get("files")) {
            if (f.get("name").asText().equals("chunks.bin")) {
                chunks = f;
            }
        }
        assertThat(chunks).isNotNull();
        assertThat(chunks.get("status").asText()).isEqualTo("checksum_mismatch");
        assertThat(chunks.get("storedCrc").asText()).isNotEqualTo(chunks.get("computedCrc").asText());
        assertThat(doc.has("dropped")).isFalse();
        assertThat(idx.resolve("gen-1/chunks.bin")).exists(); // a report changes nothing
    }

    @Test
    void dropDamagedRemovesTheDamagedGenerationAndTheNextIndexRebuilds() throws IOException {
        Path idx = indexed();
        flipByte(idx.resolve("gen-1/bm25.bin"));
        CliFixture.Result r = CliFixture.run("check", "--index", idx.toString(), "--drop-damaged");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        assertThat(r.out()).contains("removed " + idx.resolve("CURRENT"))
                .contains("removed " + idx.resolve("gen-1"))
                .contains("the next `neural-text index <folder>` rebuilds");
        assertThat(idx.resolve("gen-1")).doesNotExist();
        assertThat(CliFixture.run("index", tmp.resolve("repo").toString(), "--no-dense").exitCode()).isZero();
        CliFixture.Result again = CliFixture.run("check", "--index", idx.toString());
        assertThat(again.exitCode()).as(again.out()).isZero();
        assertThat(CliFixture.run("search", "backoffDelay", "--index", idx.toString()).out()).contains("RetryPolicy");
    }

    @Test
    void aFolderThatIsNotThereIsBadUsageAndAnEmptyOneHasNoIndex() throws IOException {
        CliFixture.Result missing = CliFixture.run("check", "--index", tmp.resolve("nope").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("--index").contains("nope");
        Files.createDirectories(tmp.resolve("empty"));
        CliFixture.Result empty = CliFixture.run("check", "--index", tmp.resolve("empty").toString());
        assertThat(empty.exitCode()).isEqualTo(3);
        assertThat(empty.out()).contains("no index");
        assertThat(CliFixture.run("check", "--bogus").exitCode()).isEqualTo(2);
    }
}
