package dev.neuraltext.cli.eval;

import dev.neuraltext.NonRetriableNeuralTextException;
import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.cli.results.FileResults;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.eval.EvalDocument;
import dev.neuraltext.eval.SpanTarget;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.ingest.ChunkSink;
import dev.neuraltext.ingest.DirectoryIngestor;
import dev.neuraltext.ingest.IncrementalIndexer;
import dev.neuraltext.ingest.IndexManifest;
import dev.neuraltext.ingest.IndexUpdate;
import dev.neuraltext.retrieve.DenseBackfill;
import dev.neuraltext.retrieve.FileGroups;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.retrieve.RepositoryRanking;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs issue-to-file localization (SWE-bench Lite's protocol, as an assistant meets it): per repository, one work tree
 * is moved from base commit to base commit in time order ({@code git checkout}), the index is refreshed incrementally
 * as the live index refreshes it ({@link IncrementalIndexer}, then the dense vectors of new chunks backfilled), and the
 * issue text is searched as {@code neural-text search --group-by file --limit 10 --no-extend} searches it. A system's
 * answer is a ranked list of files; an instance is found at the first file that is one of its gold files. At chunk
 * level the same text is searched as {@code neural-text search --limit 10 --no-extend} (no grouping) searches it, and
 * a chunk is relevant when it overlaps a line of a gold file that the fix changed ({@link SwebenchFixLines}; instances
 * without such gold have no chunk-level answer).
 *
 * <p>Systems: {@code default} (every leg the index has, the default fusion and {@link RepositoryRanking#wholeRepository()}),
 * {@code bm25} (the BM25 leg alone, same ranking; only when a dense model is loaded, otherwise it is the default), and the
 * {@code grep} peer over the same chunks, its chunks turned into files in order of first appearance. Not thread-safe;
 * one run at a time.
 */
final class SwebenchHarness {

    static final String DEFAULT = SembleHarness.DEFAULT;
    static final String BM25 = SembleHarness.BM25;
    static final String GREP = SembleHarness.GREP;
    /** Files an answer holds (the CLI's {@code --limit 10}). */
    static final int FILES = 10;
    /** Chunks a chunk-level answer holds ({@code search --limit 10 --no-extend}, no grouping). */
    static final int CHUNKS = 10;
    /** Characters of the long-query probe: a query this long must not cost seconds. */
    static final int LONG_QUERY_CHARS = 10_000;

    /** Options: {@code model} null runs without the dense leg; {@code cacheDir} null caches in memory only. */
    record Settings(String model, Path cacheDir, boolean grep, Path mirrors, Path work) {
    }

    /** One system's answer to one instance: the rank of the first gold file (0: not in the first 10). */
    record Answer(int rank, List<String> files, long nanos) {
    }

    /**
     * One instance's outcome. {@code fix} is the fix found in the mirror and the lines it changed; {@code chunkBySystem} holds
     * the chunk-level answers (each answer's files are {@code path:start-end}; rank of the first hit overlapping a line
     * the fix changed), empty when the instance has no chunk gold ({@link SwebenchFixLines}).
     */
    record InstanceResult(String id, int issueChars, List<String> gold, double refreshSeconds, int changedFiles,
            Map<String, Answer> bySystem, SwebenchFixLines.FixLines fix, Map<String, Answer> chunkBySystem,
            Map<String, Map<String, Integer>> tokens) {
    }

    /**
     * One repository's outcome: {@code firstIndexSeconds} builds the index at the first base commit; {@code
     * longQueryNanos} is the median time of the default search for a {@value #LONG_QUERY_CHARS}-character issue.
     */
    record RepositoryResult(String repo, int files, int chunks, double firstIndexSeconds, long longQueryNanos,
            List<InstanceResult> instances) {
    }

    private final Settings settings;
    private final PrintStream log;

    SwebenchHarness(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** Runs every repository of {@code dataset}. */
    List<RepositoryResult> run(SwebenchDataset dataset) {
        return SembleHarness.withEmbedder(settings.model(), settings.cacheDir(), cache -> {
            List<RepositoryResult> out = new ArrayList<>();
            for (Map.Entry<String, List<SwebenchDataset.Instance>> e : dataset.byRepository().entrySet()) {
                out.add(run(e.getKey(), e.getValue(), cache));
                if (cache != null) {
                    cache.flush();
                }
            }
            return out;
        });
    }

    private RepositoryResult run(String repo, List<SwebenchDataset.Instance> instances, Embedder embedder) {
        Path bare = bareMirror(instances.get(0).mirror());
        Path tree = workTree(instances.get(0).mirror());
        DirectoryIngestor ingestor = DirectoryIngestor.builder(tree).build();
        IncrementalIndexer indexer = IncrementalIndexer.builder(ingestor).batchSize(64).build();
        InMemoryCaseStore store = InMemoryCaseStore.create();
        HybridCaseRetriever keywordsFirst = HybridCaseRetriever.builder(store).build();
        HybridCaseRetriever.Builder rb = HybridCaseRetriever.builder(store).ranking(RepositoryRanking.wholeRepository());
        if (embedder != null) {
            rb.embedder(embedder);
        }
        HybridCaseRetriever retriever = rb.build();
        IndexManifest manifest = IndexManifest.empty("");
        double firstIndex = 0;
        AnswerTokens answerTokens = new AnswerTokens();
        List<InstanceResult> results = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            SwebenchDataset.Instance in = instances.get(i);
            checkout(tree, in.baseCommit());
            long t0 = System.nanoTime();
            IndexUpdate update = indexer.update(manifest, ChunkSink.of(keywordsFirst::index, keywordsFirst::delete));
            manifest = update.manifest();
            if (embedder != null) {
                DenseBackfill.builder(store, embedder).denseText(retriever.denseText()).build().run();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            int changed = update.filesAdded() + update.filesModified() + update.filesDeleted();
            if (i == 0) {
                firstIndex = seconds;
                log.printf("swebench: %s: indexed %d files at %s in %.1f s%n", repo, manifest.files().size(),
                        in.baseCommit().substring(0, 10), seconds);
            }
            Map<String, Answer> by = new LinkedHashMap<>();
            by.put(DEFAULT, answer(retriever, in, Set.of()));
            if (retriever.availableLegs().contains(Leg.DENSE)) {
                by.put(BM25, answer(retriever, in, Set.of(Leg.BM25)));
            }
            SwebenchFixLines.FixLines fix = SwebenchFixLines.find(bare, in.id(), in.baseCommit(), in.goldFiles());
            Map<String, Answer> chunkBy = new LinkedHashMap<>();
            Map<String, Map<String, Integer>> tokens = new LinkedHashMap<>();
            List<SpanTarget> targets = targets(fix);
            if (fix.hasGold()) {
                chunkSearch(retriever, in, Set.of(), fix, targets, DEFAULT, chunkBy, tokens);
                if (retriever.availableLegs().contains(Leg.DENSE)) {
                    chunkSearch(retriever, in, Set.of(Leg.BM25), fix, targets, BM25, chunkBy, tokens);
                }
            }
            if (settings.grep()) {
                grep(store, in, fix, by, chunkBy);
                if (fix.hasGold()) {
                    tokens.put(GREP, answerTokens.grep(by.get(GREP).files(), tree, "", targets));
                }
            }
            results.add(new InstanceResult(in.id(), in.issue().length(), in.goldFiles(), i == 0 ? 0 : seconds,
                    i == 0 ? 0 : changed, by, fix, chunkBy, tokens));
            log.printf("swebench: %s %s: default rank %d (refresh %.2f s, %d files changed)%n", repo, in.id(),
                    by.get(DEFAULT).rank(), seconds, changed);
        }
        int chunks = store.chunks(PayloadFilter.all()).size();
        return new RepositoryResult(repo, manifest.files().size(), chunks, firstIndex, longQuery(retriever,
                instances), List.copyOf(results));
    }

    /** The request {@code neural-text search --group-by file --limit 10 --no-extend QUERY} sends. */
    static SearchRequest fileRequest(String query, Set<Leg> legs) {
        return FileResults.request(SearchRequest.builder(query).limit(FILES).legs(legs).build());
    }

    private static Answer answer(HybridCaseRetriever retriever, SwebenchDataset.Instance in, Set<Leg> legs) {
        long t = System.nanoTime();
        List<FileGroups.FileHit> files = FileResults.group(retriever.search(fileRequest(in.issue(), legs)), FILES);
        long nanos = System.nanoTime() - t;
        List<String> paths = new ArrayList<>(files.size());
        for (FileGroups.FileHit f : files) {
            paths.add(f.path());
        }
        return new Answer(rank(paths, in.goldFiles()), List.copyOf(paths), nanos);
    }

    /** The lines the fix changed, as span targets (none without chunk gold). */
    private static List<SpanTarget> targets(SwebenchFixLines.FixLines fix) {
        List<SpanTarget> targets = new ArrayList<>();
        fix.byFile().forEach((file, ranges) -> ranges.forEach(r -> targets.add(new SpanTarget(file, r.start(),
                r.end()))));
        return targets;
    }

    /** The request {@code neural-text search --limit 10 --no-extend QUERY} (no grouping) sends. */
    static SearchRequest chunkRequest(String query, Set<Leg> legs) {
        return SearchRequest.builder(query).limit(CHUNKS).legs(legs).adaptive(false).build();
    }

    /**
     * The issue searched once as {@code search --limit 10 --no-extend} with {@code legs}: its chunk answer into
     * {@code chunkBy} and what reaching the fix costs in it ({@link AnswerTokens}: read whole and packed into 2,000
     * tokens) into {@code tokens}, both under {@code system}.
     */
    private static void chunkSearch(HybridCaseRetriever retriever, SwebenchDataset.Instance in, Set<Leg> legs,
            SwebenchFixLines.FixLines fix, List<SpanTarget> targets, String system, Map<String, Answer> chunkBy,
            Map<String, Map<String, Integer>> tokens) {
        long t = System.nanoTime();
        SearchResponse response = retriever.search(chunkRequest(in.issue(), legs));
        long nanos = System.nanoTime() - t;
        List<SearchHit> hits = response.hits();
        List<Map<String, String>> metadata = new ArrayList<>(hits.size());
        for (SearchHit h : hits.subList(0, Math.min(CHUNKS, hits.size()))) {
            metadata.add(h.metadata());
        }
        chunkBy.put(system, chunkAnswer(metadata, fix, nanos));
        tokens.put(system, AnswerTokens.ours(in.issue(), response, "", targets));
    }

    /** Scores chunks (their metadata, best first): rank of the first whose lines overlap a changed line of a gold file. */
    static Answer chunkAnswer(List<Map<String, String>> chunks, SwebenchFixLines.FixLines fix, long nanos) {
        List<String> places = new ArrayList<>(chunks.size());
        int rank = 0;
        for (Map<String, String> m : chunks) {
            String path = m.getOrDefault(ChunkMetadata.PATH, "");
            int from = line(m.get(ChunkMetadata.START_LINE));
            int to = Math.max(from, line(m.get(ChunkMetadata.END_LINE)));
            places.add(path + ":" + from + "-" + to);
            if (rank == 0 && from > 0 && fix.relevant(path, from, to)) {
                rank = places.size();
            }
        }
        return new Answer(rank, List.copyOf(places), nanos);
    }

    private static int line(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The grep peer's file answer into {@code by}, and its chunk answer (its first {@value #CHUNKS} chunks) into
     * {@code chunkBy} when the instance has chunk gold.
     */
    private static void grep(InMemoryCaseStore store, SwebenchDataset.Instance in, SwebenchFixLines.FixLines fix,
            Map<String, Answer> by, Map<String, Answer> chunkBy) {
        List<ChunkInput> chunks = store.chunks(PayloadFilter.all());
        GrepPeer grep = new GrepPeer();
        List<EvalDocument> docs = new ArrayList<>(chunks.size());
        Map<String, Map<String, String>> metadataOf = new LinkedHashMap<>();
        for (ChunkInput c : chunks) {
            docs.add(new EvalDocument(c.id(), "", c.text(), Map.of()));
            metadataOf.put(c.id(), c.metadata());
        }
        grep.index(docs, ProgressBar.silent());
        long t = System.nanoTime();
        List<String> ids = grep.search(in.issue(), 500).ids();
        Set<String> files = new LinkedHashSet<>();
        for (String id : ids) {
            files.add(metadataOf.get(id).getOrDefault(ChunkMetadata.PATH, id));
            if (files.size() == FILES) {
                break;
            }
        }
        long nanos = System.nanoTime() - t;
        List<String> paths = List.copyOf(files);
        by.put(GREP, new Answer(rank(paths, in.goldFiles()), paths, nanos));
        if (fix.hasGold()) {
            List<Map<String, String>> top = new ArrayList<>();
            for (String id : ids.subList(0, Math.min(CHUNKS, ids.size()))) {
                top.add(metadataOf.get(id));
            }
            chunkBy.put(GREP, chunkAnswer(top, fix, nanos));
        }
    }

    /** The 1-based position of the first of {@code files} that is a gold file, 0 when none is. */
    static int rank(List<String> files, List<String> gold) {
        for (int i = 0; i < files.size(); i++) {
            String f = files.get(i).replace('\\', '/');
            for (String g : gold) {
                if (f.equals(g) || f.endsWith("/" + g) || g.endsWith("/" + f)) {
                    return i + 1;
                }
            }
        }
        return 0;
    }

    /** The median of 5 timings of the default search for the longest issue repeated to {@value #LONG_QUERY_CHARS} chars. */
    private static long longQuery(HybridCaseRetriever retriever, List<SwebenchDataset.Instance> instances) {
        String longest = instances.stream().map(SwebenchDataset.Instance::issue)
                .max((a, b) -> Integer.compare(a.length(), b.length())).orElse("");
        if (longest.isBlank()) {
            return 0;
        }
        StringBuilder q = new StringBuilder(LONG_QUERY_CHARS + longest.length());
        while (q.length() < LONG_QUERY_CHARS) {
            q.append(longest).append('\n');
        }
        String query = q.substring(0, LONG_QUERY_CHARS);
        retriever.search(fileRequest(query, Set.of()));
        long[] nanos = new long[5];
        for (int i = 0; i < nanos.length; i++) {
            long t = System.nanoTime();
            retriever.search(fileRequest(query, Set.of()));
            nanos[i] = System.nanoTime() - t;
        }
        java.util.Arrays.sort(nanos);
        return nanos[nanos.length / 2];
    }

    /** The work tree of {@code mirror} under the work folder, cloned (shared objects, no copy) on first use. */
    private Path workTree(String mirror) {
        Path bare = bareMirror(mirror);
        Path tree = settings.work().resolve(mirror);
        if (!Files.isDirectory(tree.resolve(".git"))) {
            try {
                Files.createDirectories(settings.work());
            } catch (IOException e) {
                throw new NonRetriableNeuralTextException("cannot create the work folder " + settings.work(), e);
            }
            git(settings.work(), "clone", "-q", "--shared", "--no-checkout", bare.toAbsolutePath().toString(),
                    tree.toAbsolutePath().toString());
        }
        return tree;
    }

    /** The git directory of {@code mirror}: {@code <mirrors>/<mirror>/repo}, or the mirror folder itself. */
    private Path bareMirror(String mirror) {
        Path bare = settings.mirrors().resolve(mirror).resolve("repo");
        if (!Files.isDirectory(bare)) {
            bare = settings.mirrors().resolve(mirror);
        }
        if (!Files.isDirectory(bare)) {
            throw new IllegalArgumentException("--mirrors " + settings.mirrors() + ": no mirror '" + mirror
                    + "' (expected " + mirror + "/repo, a git directory)");
        }
        return bare;
    }

    /** Files this large may be absent from a mirror (a snapshot keeps no file of 4 MiB or more). */
    static final long LARGE_BLOB = 4L << 20;

    /**
     * Moves {@code tree} to {@code commit}. Files whose content the mirror lacks (large data files) are left out of
     * the work tree by a sparse-checkout pattern each, so that the checkout does not fail on them.
     */
    private static void checkout(Path tree, String commit) {
        List<String> absent = new ArrayList<>();
        for (String line : git(tree, "ls-tree", "-r", "-l", "-z", commit).split("\0")) {
            // <mode> blob <sha> <size>\t<path>
            int tab = line.indexOf('\t');
            String[] meta = tab < 0 ? new String[0] : line.substring(0, tab).trim().split("\\s+");
            // git prints BAD as the size of a blob the object store lacks
            if (meta.length == 4 && meta[1].equals("blob") && (meta[3].equals("BAD")
                    || meta[3].chars().allMatch(Character::isDigit) && Long.parseLong(meta[3]) >= LARGE_BLOB
                    && !hasObject(tree, meta[2]))) {
                absent.add(line.substring(tab + 1));
            }
        }
        StringBuilder patterns = new StringBuilder("/*\n");
        for (String path : absent) {
            patterns.append("!/").append(path.replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?")
                    .replace("[", "\\[")).append('\n');
        }
        try {
            Files.createDirectories(tree.resolve(".git/info"));
            Files.writeString(tree.resolve(".git/info/sparse-checkout"), patterns, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot write the sparse-checkout patterns of " + tree, e);
        }
        git(tree, "config", "core.sparseCheckout", "true");
        git(tree, "checkout", "-q", "-f", commit);
        git(tree, "clean", "-q", "-ffdx");
    }

    private static boolean hasObject(Path tree, String sha) {
        try {
            git(tree, "cat-file", "-e", sha);
            return true;
        } catch (NonRetriableNeuralTextException e) {
            return false;
        }
    }

    /** Runs git in {@code dir} (a work tree or a git directory); its output, or an exception naming the command. */
    static String git(Path dir, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new NonRetriableNeuralTextException(String.join(" ", cmd) + " in " + dir + " failed: "
                        + new String(out, StandardCharsets.UTF_8).strip(), null);
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new NonRetriableNeuralTextException("cannot run git in " + dir + " (is git installed?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NonRetriableNeuralTextException("interrupted while running " + String.join(" ", cmd), e);
        }
    }
}
