package dev.neuraltext.mcp;

import dev.neuraltext.NeuralTextException;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.store.CorruptIndexException;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexFingerprint;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Opens the saved index of a folder for {@link LiveIndex}: the store with its file manifest, or, when there is none or
 * it cannot be used, nothing, and then why; a damaged file (a {@link CorruptIndexException}: missing, truncated, a
 * flipped byte, a newer format version) is named, so that {@code status} can say what it met while the server
 * rebuilds the index from the files. Stateless.
 */
final class SavedIndex {

    private SavedIndex() {
    }

    /**
     * What opening found.
     *
     * @param store    the loaded store, or null when there is no usable saved index (the caller builds one)
     * @param manifest its file manifest, or null with {@code store}
     * @param asSaved  the fingerprint it was saved with, or null with {@code store}
     * @param damage   the damage met (the file and what is wrong with it), or empty when none was met
     */
    record Opened(InMemoryCaseStore store, IndexManifest manifest, IndexFingerprint asSaved, String damage) {
    }

    static Opened open(InMemoryCaseStore.Builder config, Path indexDir, String manifestFile, Consumer<String> log) {
        if (!InMemoryCaseStore.exists(indexDir)) {
            return new Opened(null, null, null, "");
        }
        try {
            IndexFingerprint fp = config.fingerprintAsSaved(indexDir);
            InMemoryCaseStore store = config.load(indexDir, fp);
            IndexManifest manifest = store.loadedAttachment(manifestFile)
                    .map(b -> IndexManifest.fromBytes(b, indexDir + " " + manifestFile)).orElse(null);
            if (manifest == null || manifest.chunkCount() != store.count(PayloadFilter.all())) {
                log.accept("the index in " + indexDir + " has no matching file manifest: rebuilding it");
                store.close();
                return new Opened(null, null, null, "");
            }
            return new Opened(store, manifest, fp, "");
        } catch (CorruptIndexException e) {
            String damage = damage(e.getMessage());
            log.accept("cannot use the index in " + indexDir + " (damaged: " + damage + "; searches answer from the "
                    + "part indexed so far while the files are indexed again in the background): rebuilding it");
            return new Opened(null, null, null, damage);
        } catch (NeuralTextException e) {
            log.accept("cannot use the index in " + indexDir + " (" + e.getMessage() + "): rebuilding it");
            return new Opened(null, null, null, "");
        }
    }

    /** The reader's message without its advice to rebuild (the server does it). */
    static String damage(String message) {
        String m = message == null ? "unreadable" : message;
        for (String advice : new String[] {"; rebuild the index", ": rebuild the index with `neural-text index`"}) {
            if (m.endsWith(advice)) {
                return m.substring(0, m.length() - advice.length());
            }
        }
        return m;
    }
}
