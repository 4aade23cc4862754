package dev.neuraltext.mcp;

import static dev.neuraltext.mcp.McpServerIT.call;
import static dev.neuraltext.mcp.McpServerIT.structured;
import static dev.neuraltext.mcp.McpServerIT.text;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential churn test: a git repository under a random sequence of edits, adds, deletes, renames, branch
 * switches (hundreds of files), bulk rewrites, files growing past the size limit and back, root and nested
 * {@code .gitignore} edits with {@code !} negations, symbolic links and generated folders coming and going, while a
 * real {@code neural-text mcp} process (the deterministic embedder, {@link HashingMcpServer}) answers searches.
 *
 * <ul>
 *   <li>After a step, a search for what it changed either reflects the change, or says in its answer that an update
 *       is running or that the folder was last checked before the change; a silent answer from the old tree fails.</li>
 *   <li>At checkpoints (once the tree is quiet), the live index's {@link IndexDigest} (chunk ids, text, metadata,
 *       which chunks have dense vectors and their bits, the file manifest) equals a fresh index's of the same tree,
 *       and a fixed query set ranks identically (ids, scores, threshold) through the same tool handlers.</li>
 * </ul>
 *
 * <p>Seeded and replayable: a failure names its seed; {@code -Dchurn.seed=N} replays it ({@code -Dchurn.steps} and
 * {@code -Dchurn.checkpointEvery} as the failure says). {@code -Dchurn.soakMinutes=M} runs random seeds for M
 * minutes. Without either it runs {@link #VERIFY_SEEDS}, which keep the seeds of the bugs it found.
 */
class McpChurnIT {

    /** The seeds {@code verify} runs; a seed that found a bug stays here as its regression case (1: BM25 ties). */
    static final long[] VERIFY_SEEDS = {1L, 20261203L};

    static final List<String> QUERIES = List.of("retry backoff", "parser token", "how is the cache window merged",
            "snapshot quorum lease", "invoice ledger", "render shader queue", "K12", "socket buffer stream",
            "schedule index name", "zqaaab");

    @TempDir
    Path tmp;

    /** Totals over the seeds run, printed at the end. */
    private int steps;
    private int checkpoints;
    private int searchesChecked;
    private int disclosed;

    @Test
    void theLiveIndexEqualsAFreshIndexUnderRandomChurn() throws Exception {
        int stepCount = Integer.getInteger("churn.steps", 20);
        int every = Integer.getInteger("churn.checkpointEvery", 10);
        String replay = System.getProperty("churn.seed");
        long soakMinutes = Long.getLong("churn.soakMinutes", 0);
        List<Long> seeds = new ArrayList<>();
        long start = System.nanoTime();
        if (replay != null) {
            seeds.add(Long.parseLong(replay));
        } else if (soakMinutes == 0) {
            for (long s : VERIFY_SEEDS) {
                seeds.add(s);
            }
        }
        Random seedSource = new Random();
        int run = 0;
        while (run < seeds.size() || (soakMinutes > 0 && replay == null
                && System.nanoTime() - start < TimeUnit.MINUTES.toNanos(soakMinutes))) {
            long seed = run < seeds.size() ? seeds.get(run) : seedSource.nextLong();
            run++;
            runSeed(seed, stepCount, every, run);
            System.out.printf("churn: seed %d passed; so far %d seeds, %d steps, %d checkpoints, %d searches checked "
                    + "(%d disclosed), 0 divergences, %.1f s%n", seed, run, steps, checkpoints, searchesChecked,
                    disclosed, (System.nanoTime() - start) / 1e9);
        }
        System.out.printf("churn: %d seeds, %d steps, %d checkpoints, %d searches checked (%d disclosed an update or an"
                + " older check), 0 divergences, %.1f s%n", run, steps, checkpoints, searchesChecked, disclosed,
                (System.nanoTime() - start) / 1e9);
    }

    private void runSeed(long seed, int stepCount, int every, int run) throws Exception {
        Path dir = tmp.resolve("seed" + run);
        ChurnRepo repo = new ChurnRepo(dir.resolve("repo"), seed);
        repo.create(Integer.getInteger("churn.files", 260));
        Random rnd = new Random(seed ^ 0x5DEECE66DL);
        long interval = new long[] {0, 150, 600}[rnd.nextInt(3)];
        List<String> log = new ArrayList<>();
        List<String> serverLogs = new CopyOnWriteArrayList<>();
        log.add("check interval " + interval + " ms");
        try (McpServerIT.Server server = McpProcesses.hashingServer(repo.root, dir.resolve("index"), serverLogs,
                interval)) {
            McpSyncClient client = server.client();
            McpServerIT.awaitReady(client);
            long lastChange = System.nanoTime();
            for (int i = 1; i <= stepCount; i++) {
                ChurnRepo.Step step = repo.step();
                long changed = System.nanoTime();
                lastChange = changed;
                log.add(i + ": " + step.description());
                steps++;
                if (!step.expects().isEmpty() && rnd.nextInt(10) < 8) {
                    long wait = new long[] {0, 0, interval / 2, interval + 50}[rnd.nextInt(4)];
                    Thread.sleep(wait);
                    ChurnRepo.Expect e = step.expects().get(rnd.nextInt(step.expects().size()));
                    if (rnd.nextInt(5) == 0) { // two at once: one of them may find the other's update running
                        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> check(client, e, changed,
                                seed, log));
                        check(client, e, changed, seed, log);
                        other.join();
                    } else {
                        check(client, e, changed, seed, log);
                    }
                }
                if (i % every == 0 || i == stepCount) {
                    checkpoint(client, repo, dir.resolve("fresh" + i), lastChange, interval, seed, log);
                }
            }
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("churn seed " + seed + " failed (replay: -Dchurn.seed=" + seed + " -Dchurn.steps="
                    + stepCount + " -Dchurn.checkpointEvery=" + every + "): " + e.getMessage() + "\nsteps:\n  "
                    + String.join("\n  ", log) + "\nserver log (last 30):\n  " + String.join("\n  ", serverLogs
                            .subList(Math.max(0, serverLogs.size() - 30), serverLogs.size())), e);
        }
    }

    /** A search right after a change reflects it or says why it may not; never answers silently from the old tree. */
    @SuppressWarnings("unchecked")
    private void check(McpSyncClient client, ChurnRepo.Expect e, long changed, long seed, List<String> log) {
        long sent = System.nanoTime();
        McpSchema.CallToolResult r = call(client, "search", Map.of("query", e.token()));
        Map<String, Object> s = structured(r);
        List<Map<String, Object>> hits = (List<Map<String, Object>>) s.get("hits");
        boolean found = hits.stream().anyMatch(h -> e.path().equals(h.get("path")));
        synchronized (this) {
            searchesChecked++;
        }
        if (found == e.present()) {
            return;
        }
        Map<String, Object> f = (Map<String, Object>) s.get("freshness");
        boolean running = Boolean.TRUE.equals(f.get("updateRunning"));
        boolean checkedNow = Boolean.TRUE.equals(f.get("checkedNow"));
        long ago = ((Number) f.get("checkedMillisAgo")).longValue();
        long sinceChange = (sent - changed) / 1_000_000L;
        String t = text(r);
        boolean saysSo = t.contains("update of the index is running") || t.contains("last checked for changes");
        if ((running || (!checkedNow && ago >= sinceChange)) && saysSo) {
            synchronized (this) {
                disclosed++;
            }
            log.add("   (search for " + e.token() + " disclosed: " + f + ")");
            return;
        }
        throw new AssertionError("a search for " + e.token() + " sent " + sinceChange + " ms after the change "
                + (e.present() ? "did not find " : "still found ") + e.path() + " without saying its results may be "
                + "old: freshness " + f + "\n" + t);
    }

    @SuppressWarnings("unchecked")
    private void checkpoint(McpSyncClient client, ChurnRepo repo, Path freshDir, long lastChange, long interval,
            long seed, List<String> log) throws Exception {
        checkpoints++;
        McpProcesses.settle(client, lastChange, interval);
        Map<String, Object> live = (Map<String, Object>) structured(call(client, "status", Map.of("digest", true)))
                .get("digest");
        try (McpProcesses.FreshIndex fresh = new McpProcesses.FreshIndex(repo.root, freshDir)) {
            Map<String, Object> expected = fresh.digest().structured();
            if (!normalized(live).equals(normalized(expected))) {
                throw new AssertionError("checkpoint " + checkpoints + ": the live index differs from a fresh one: "
                        + "live " + live + ", fresh " + expected + ", indexed paths now " + repo.indexedPaths().size());
            }
            IndexDigest cli = McpProcesses.cliIndexDigest(repo.root, freshDir.resolveSibling(freshDir.getFileName()
                    + "-cli"));
            for (String key : List.of("files", "chunks", "lexical", "manifest")) {
                if (!normalized(live).get(key).equals(normalized(cli.structured()).get(key))) {
                    throw new AssertionError("checkpoint " + checkpoints + ": the live index differs from `neural-text "
                            + "index --no-dense` in " + key + ": live " + live + ", index " + cli.structured());
                }
            }
            for (String q : QUERIES) {
                List<String> a = ranking(call(client, "search", Map.of("query", q)));
                List<String> b = ranking(fresh.call("search", Map.of("query", q)));
                if (!a.equals(b)) {
                    StringBuilder legs = new StringBuilder();
                    for (String leg : List.of("bm25", "dense")) {
                        Map<String, Object> args = Map.of("query", q, "legs", List.of(leg));
                        List<String> la = ranking(call(client, "search", args));
                        List<String> lb = ranking(fresh.call("search", args));
                        legs.append("\n  ").append(leg).append(la.equals(lb) ? " equal" : " differs: live " + la
                                + ", fresh " + lb);
                    }
                    throw new AssertionError("checkpoint " + checkpoints + ": query '" + q + "' ranks differently: "
                            + "live " + a + ", fresh " + b + legs);
                }
            }
            log.add("   checkpoint " + checkpoints + ": equal (" + live + ")");
        }
    }

    private static Map<String, String> normalized(Map<String, Object> digest) {
        Map<String, String> m = new java.util.TreeMap<>();
        digest.forEach((k, v) -> m.put(k, v instanceof Number n ? Long.toString(n.longValue()) : String.valueOf(v)));
        return m;
    }

    @SuppressWarnings("unchecked")
    static List<String> ranking(McpSchema.CallToolResult r) {
        Map<String, Object> s = structured(r);
        List<String> out = new ArrayList<>();
        out.add("above " + ((Number) s.get("aboveThreshold")).intValue());
        for (Map<String, Object> h : (List<Map<String, Object>>) s.get("hits")) {
            out.add(h.get("id") + " " + ((Number) h.get("score")).doubleValue() + " " + h.get("aboveThreshold"));
        }
        return out;
    }
}
