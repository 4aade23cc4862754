package dev.neuraltext.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index saved before the file manifest moved into the store's generation (a loose {@code files.tsv}) is adopted
 * once, not rebuilt: nothing is re-chunked or re-embedded, and the next save commits the manifest in the generation.
 */
class LegacyManifestTest {

    @TempDir
    Path tmp;

    @Test
    void aLooseManifestIsAdoptedOnceAndMovedIntoTheGeneration() throws IOException {
        Path root = CliFixture.tree(tmp.resolve("proj"));
        Path index = tmp.resolve("ix");
        assertThat(CliFixture.run("index", root.toString(), "--no-dense", "--index", index.toString()).exitCode())
                .isZero();
        // rewrite it in the old layout: the store without attachments, the manifest as a loose file beside it
        InMemoryCaseStore store = InMemoryCaseStore.load(index, InMemoryCaseStore.readFingerprint(index));
        IndexManifest manifest = IndexManifest.fromBytes(store.loadedAttachment(IndexSession.MANIFEST_FILE)
                .orElseThrow(), "files.tsv");
        store.save(index, InMemoryCaseStore.readFingerprint(index));
        manifest.save(index.resolve(IndexSession.MANIFEST_FILE));
        assertThat(InMemoryCaseStore.load(index, InMemoryCaseStore.readFingerprint(index))
                .loadedAttachment(IndexSession.MANIFEST_FILE)).isEmpty();

        CliFixture.Result again = CliFixture.run("index", root.toString(), "--no-dense", "--index", index.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.err()).doesNotContain("rebuilding");
        assertThat(again.out()).contains("0 added, 0 modified, 0 deleted, 3 unchanged").contains("0 indexed now");
        assertThat(index.resolve(IndexSession.MANIFEST_FILE)).doesNotExist();
        assertThat(InMemoryCaseStore.load(index, InMemoryCaseStore.readFingerprint(index))
                .loadedAttachment(IndexSession.MANIFEST_FILE)).isPresent();
        assertThat(Files.exists(index.resolve("CURRENT"))).isTrue();
    }
}
