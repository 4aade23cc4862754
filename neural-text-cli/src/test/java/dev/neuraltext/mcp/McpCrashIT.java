package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.store.InMemoryCaseStore;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crashes in the middle of a live update: a real {@code neural-text mcp} process is killed (SIGKILL: no shutdown hook,
 * no save) at a random moment of an incremental update (the search that runs it is in flight) or of the dense backfill
 * after it (slowed down to be long enough to hit, {@code nt.test.embedDelayMillis}). Each restart must open the saved
 * index (a consistent generation: no "cannot use the index", no rebuild of BM25), converge to what a fresh index of
 * the tree holds ({@link IndexDigest}), and embed only the chunks that lack vectors (never all of them again).
 *
 * <p>{@code -Dcrash.rounds=N} (default 4) and {@code -Dcrash.seed=S} (default 42; printed on failure).
 */
class McpCrashIT {

    private static final Pattern OPENED = Pattern.compile("opened the saved index .*: (\\d+) files, (\\d+) chunks, "
            + "dense vectors for (\\d+) of (\\d+) chunks");
    private static final Pattern EMBEDDING = Pattern.compile("embedding dense vectors for (\\d+) chunks");

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void killedDuringUpdatesAndBackfillsItRestartsOnASavedGenerationAndConverges() throws Exception {
        int rounds = Integer.getInteger("crash.rounds", 4);
        long seed = Long.getLong("crash.seed", 42);
        Random rnd = new Random(seed);
        ChurnRepo repo = new ChurnRepo(tmp.resolve("repo"), seed);
        repo.create(Integer.getInteger("crash.files", 200));
        Path index = tmp.resolve("index");
        List<String> logs = new CopyOnWriteArrayList<>();
        try (McpServerIT.Server first = McpProcesses.hashingServer(repo.root, index, logs, 0)) {
            McpServerIT.awaitReady(first.client());
            settle(first.client());
        }
        List<String> report = new ArrayList<>();
        int duringUpdate = 0;
        int duringBackfill = 0;
        int killedInUpdate = 0;
        int killedInBackfill = 0;
        long reEmbedded = 0;
        for (int round = 1; round <= rounds; round++) {
            boolean backfill = round % 2 == 0;
            try {
                Saved saved = Saved.read(index);
                logs.clear();
                McpServerIT.Server victim = McpProcesses.hashingServer(repo.root, index, logs, 0,
                        "-Dnt.test.embedDelayMillis=15", "-Dnt.test.victim=" + round);
                ProcessHandle process = McpProcesses.serverProcess("-Dnt.test.victim=" + round);
                McpServerIT.awaitReady(victim.client());
                // the tree changes under the running server: the next search runs the update
                for (int i = 0; i < 6; i++) {
                    repo.step();
                }
                ChurnRepo.Step big = rnd.nextBoolean() ? repo.checkout() : repo.bulkRewrite();
                report.add(round + ": 6 random steps and " + big.description());
                long delay;
                boolean searchAnswered = true;
                if (backfill) {
                    call(victim.client(), "search", Map.of("query", "update first")); // runs or finds the update
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (Boolean.TRUE.equals(structured(statusOrEmpty(victim.client())).get("updating"))
                            && System.nanoTime() < deadline) {
                        Thread.sleep(5);
                    }
                    delay = rnd.nextInt(300);
                    Thread.sleep(delay);
                    duringBackfill++;
                } else {
                    CompletableFuture<?> inFlight = CompletableFuture.runAsync(() -> call(victim.client(), "search",
                            Map.of("query", "update now")));
                    delay = rnd.nextInt(250);
                    Thread.sleep(delay);
                    duringUpdate++;
                    searchAnswered = inFlight.isDone();
                }
                // requests run one at a time: a status call would wait for an update that a search runs, so in
                // an update round the kill comes first and the server's log says where it was
                Map<String, Object> state = backfill ? structured(statusOrEmpty(victim.client())) : Map.of();
                List<String> logged = List.copyOf(logs);
                McpProcesses.kill(process);
                McpProcesses.closeQuietly(victim);
                // the search of an update round runs the update: unanswered, it was still updating (or searching,
                // a few ms after the update)
                boolean inUpdate = !backfill && !searchAnswered && logged.stream().noneMatch(l -> l.startsWith(
                        "re-indexed"));
                Map<String, Object> cov = (Map<String, Object>) state.getOrDefault("denseCoverage", Map.of());
                String when = inUpdate ? "during an update"
                        : !backfill ? "after the update (" + logged.stream().filter(l -> l.startsWith("re-index"))
                                .toList() + ")"
                        : "embedding".equals(state.get("phase"))
                        ? "during a backfill (" + cov.get("withDense") + " of " + cov.get("chunks") + " embedded)"
                        : !cov.get("withDense").equals(cov.get("chunks")) ? "before the backfill started or as it "
                        + "ended (" + cov.get("withDense") + " of " + cov.get("chunks") + " embedded)"
                        : "after the update and its backfill";
                if (inUpdate) {
                    killedInUpdate++;
                } else if (backfill && ("embedding".equals(state.get("phase"))
                        || !cov.get("withDense").equals(cov.get("chunks")))) {
                    killedInBackfill++;
                }
                report.add(round + ": killed " + when + " " + delay + " ms after the " + (backfill
                        ? "update ended" : "search was sent"));
                Saved afterKill = Saved.read(index);

                logs.clear();
                try (McpServerIT.Server restarted = McpProcesses.hashingServer(repo.root, index, logs, 0)) {
                    McpSyncClient client = restarted.client();
                    structured(call(client, "status", Map.of()));
                    String opened = logs.stream().filter(l -> l.startsWith("opened the saved index")).findFirst()
                            .orElseThrow(() -> new AssertionError("the restart did not open the saved index: "
                                    + logs));
                    assertThat(logs).noneMatch(l -> l.contains("cannot use the index") || l.contains("rebuilding")
                            || l.contains("BM25 index of"));
                    Matcher m = OPENED.matcher(opened);
                    assertThat(m.find()).as(opened).isTrue();
                    settle(client);
                    Map<String, Object> live = (Map<String, Object>) structured(call(client, "status",
                            Map.of("digest", true))).get("digest");
                    long chunks = ((Number) live.get("chunks")).longValue();
                    long embedded = logs.stream().map(EMBEDDING::matcher).filter(Matcher::find)
                            .mapToLong(x -> Long.parseLong(x.group(1))).sum();
                    reEmbedded += embedded;
                    try (McpProcesses.FreshIndex fresh = new McpProcesses.FreshIndex(repo.root,
                            tmp.resolve("fresh" + round))) {
                        assertThat(live.toString()).isEqualTo(fresh.digest().structured().toString());
                    // only what the saved generation lacked (changed files' chunks and those the crash left without
                    // vectors) is embedded again: never the whole index
                        // only what the saved generation lacked is embedded again: its chunks without vectors and
                        // the chunks of files that changed since it was saved; never the whole index
                        long bound = afterKill.lackingDense() + afterKill.chunksOfFilesChangedIn(fresh.manifest());
                        assertThat(embedded).as("chunks embedded after the restart").isLessThanOrEqualTo(bound);
                        report.add(round + ": restarted on " + opened.substring(opened.indexOf(": ") + 2)
                                + "; converged to the fresh digest; embedded " + embedded + " chunks (bound " + bound
                                + ", index " + chunks + " chunks; the generation saved before the round had "
                                + saved.chunks() + ")");
                    }
                }
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("crash round " + round + " (seed " + seed + ", replay: -Dcrash.seed=" + seed
                        + " -Dcrash.rounds=" + round + ") failed: " + e.getMessage() + "\n  " + String.join("\n  ",
                        report) + "\nserver log:\n  " + String.join("\n  ", logs), e);
            }
        }
        System.out.printf("crash: %d kill rounds (%d aimed at an update, %d at a backfill; %d landed in an update, %d"
                + " in a backfill), 0 inconsistent starts, %d chunks embedded again in all"
                + "%n  %s%n", rounds, duringUpdate, duringBackfill, killedInUpdate, killedInBackfill, reEmbedded,
                String.join("\n  ", report));
    }

    /** The generation saved in an index folder, read as a second process would (no lock). */
    record Saved(long chunks, long lackingDense, IndexManifest manifest) {
        static Saved read(Path index) {
            InMemoryCaseStore.Builder b = InMemoryCaseStore.builder();
            try (InMemoryCaseStore store = b.load(index, b.fingerprintAsSaved(index))) {
                IndexManifest m = IndexManifest.fromBytes(store.loadedAttachment(LiveIndex.MANIFEST_FILE)
                        .orElseThrow(() -> new AssertionError("no manifest saved in " + index)), index.toString());
                return new Saved(store.denseCoverage().chunks(), store.denseCoverage().lacking(), m);
            }
        }

        /** The chunks, in {@code now}, of the files added or modified since this generation. */
        long chunksOfFilesChangedIn(IndexManifest now) {
            long n = 0;
            for (Map.Entry<String, IndexManifest.FileEntry> e : now.files().entrySet()) {
                IndexManifest.FileEntry before = manifest.files().get(e.getKey());
                if (before == null || !before.hash().equals(e.getValue().hash())) {
                    n += e.getValue().chunks().size();
                }
            }
            return n;
        }
    }

    private static io.modelcontextprotocol.spec.McpSchema.CallToolResult statusOrEmpty(McpSyncClient client) {
        return call(client, "status", Map.of());
    }

    /** Searches until the index has caught up with the tree and every chunk has its dense vector. */
    static void settle(McpSyncClient client) throws InterruptedException {
        McpProcesses.settle(client, System.nanoTime(), 0);
    }
}
