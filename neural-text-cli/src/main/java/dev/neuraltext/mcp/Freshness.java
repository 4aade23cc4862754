package dev.neuraltext.mcp;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a search's results reflect of the folder: whether the staleness check ran for this search, whether an update
 * of the index was running meanwhile (and how far it was), and how long ago the tree was last compared with the
 * index. A search answer carries it, so that results from a state the tree may no longer have are never passed off as
 * current ({@link #note()}).
 *
 * @param filesChanged        files this search's own check found changed and re-indexed before searching
 * @param checkedNow          whether this search compared the tree with the index (else it relied on a recent check,
 *                            or an update was running)
 * @param updateRunning       whether an update of the index was running when the search ran
 * @param filesDone           files re-indexed so far by the running update (0 when none runs)
 * @param filesToIndex        files the running update re-indexes (0 when none runs or it is still scanning)
 * @param checkedMillisAgo    how long before the answer the tree was last compared with the index
 * @param checkIntervalMillis the server's {@code --check-interval}
 */
record Freshness(int filesChanged, boolean checkedNow, boolean updateRunning, int filesDone, int filesToIndex,
        long checkedMillisAgo, long checkIntervalMillis) {

    /** The note a search answer carries, if its results may not show the latest changes of the folder. */
    Optional<String> note() {
        if (updateRunning) {
            return Optional.of("an update of the index is running (" + (filesToIndex == 0 ? "scanning the folder"
                    : filesDone + " of " + filesToIndex + " changed files re-indexed") + "): these results may not "
                    + "show the latest changes to the folder yet; search again in a moment.");
        }
        if (!checkedNow) {
            return Optional.of(String.format(Locale.ROOT, "the folder was last checked for changes %.1f s ago (at most "
                    + "once every %.1f s): a change made since then is not in these results; it is from the next "
                    + "search on.", checkedMillisAgo / 1000.0, checkIntervalMillis / 1000.0));
        }
        return Optional.empty();
    }

    /** The structured form, for the search answer's {@code freshness} field. */
    Map<String, Object> structured() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("checkedNow", checkedNow);
        m.put("checkedMillisAgo", checkedMillisAgo);
        m.put("checkIntervalMillis", checkIntervalMillis);
        m.put("updateRunning", updateRunning);
        m.put("filesDone", filesDone);
        m.put("filesToIndex", filesToIndex);
        m.put("filesChanged", filesChanged);
        return m;
    }
}
