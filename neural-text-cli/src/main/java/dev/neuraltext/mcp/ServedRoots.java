package dev.neuraltext.mcp;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import dev.neuraltext.search.SearchResponse;
import dev.neuraltext.search.SearchTimings;
import dev.neuraltext.store.DenseCoverage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The folders one {@code neural-text mcp} serves, each with its own {@link LiveIndex} (its own index folder and write
 * lock), and the one ranked answer over them.
 *
 * <ul>
 *   <li><b>Names.</b> A root is named by its folder's name; a second root of the same name gets {@code -2}, a third
 *       {@code -3}, in the order given ({@link #names}).</li>
 *   <li><b>Paths.</b> With one root, paths and chunk ids are as its index has them (relative to the root). With
 *       several, every path and id in an answer is qualified by its root's name, {@code NAME/relative/path}, and the
 *       tools take paths and ids in that form ({@link #locate}).</li>
 *   <li><b>Merge.</b> A search runs in every root with the same request; the answers are merged by each hit's
 *       {@code score} (the score the relevance threshold acts on, in [0, 1]), the hits above their root's threshold
 *       before those below it, ties by rank within the root, then by the roots' order. The merged answer has as many
 *       hits as the longest root answer (at least the limit), and the sum of the roots' above-threshold counts.
 *       Scores are each root's own, normalised per query: a root with only weak matches still puts its best hit
 *       near the top, so the merge is by score, not by a calibrated probability.</li>
 * </ul>
 *
 * <p>Thread-safe: immutable; each live index is.
 */
final class ServedRoots implements AutoCloseable {

    /** One served folder: its name in answers and its live index. */
    record Root(String name, LiveIndex index) {
    }

    /** A path or id resolved to its root and its form in that root's index. */
    record Located(Root root, String relative) {
    }

    /** A search of every root: the merged response, and the roots' state as one. */
    record Searched(SearchResponse response, LiveIndex.Status status, Freshness freshness) {
    }

    private final List<Root> roots;

    ServedRoots(List<Root> roots) {
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("no root to serve");
        }
        this.roots = List.copyOf(roots);
    }

    /** One root, whose paths are unqualified. */
    static ServedRoots single(LiveIndex index) {
        return new ServedRoots(List.of(new Root(String.valueOf(index.root().getFileName()), index)));
    }

    /** The names of {@code folders}: each folder's name, {@code -2}, {@code -3} ... for a repeated one. */
    static List<String> names(List<Path> folders) {
        List<String> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (Path f : folders) {
            Path name = f.toAbsolutePath().normalize().getFileName();
            String base = name == null ? "root" : name.toString();
            String n = base;
            for (int i = 2; !taken.add(n); i++) {
                n = base + "-" + i;
            }
            out.add(n);
        }
        return out;
    }

    List<Root> all() {
        return roots;
    }

    boolean several() {
        return roots.size() > 1;
    }

    /** The first root (the only one, when {@link #several()} is false). */
    Root first() {
        return roots.get(0);
    }

    /** {@code relative} as answers show it: qualified by the root's name when there are several roots. */
    String qualified(Root root, String relative) {
        return several() ? root.name() + "/" + relative : relative;
    }

    /**
     * The root and relative form of a path or chunk id an argument gives: with one root, itself; with several, its
     * first segment names the root.
     *
     * @throws IllegalArgumentException naming the argument and the roots when the first segment is none of them
     */
    Located locate(String argument, String value) {
        if (!several()) {
            return new Located(first(), value);
        }
        int slash = value.indexOf('/');
        String name = slash < 0 ? value : value.substring(0, slash);
        for (Root r : roots) {
            if (r.name().equals(name) && slash > 0 && slash < value.length() - 1) {
                return new Located(r, value.substring(slash + 1));
            }
        }
        throw new IllegalArgumentException("`" + argument + "` '" + SearchAnswer.clip(value, 200) + "' names no root: "
                + "with several roots it starts with the root's name, one of " + names() + " (e.g. " + first().name()
                + "/src/Main.java)");
    }

    List<String> names() {
        return roots.stream().map(Root::name).toList();
    }

    /** The stored chunk of a (qualified) id, with its path and id as answers show them. */
    Optional<ChunkInput> chunk(String id) {
        Located l = locate("id", id);
        return l.root().index().chunk(l.relative()).map(c -> several() ? new ChunkInput(qualified(l.root(), c.id()),
                c.text(), qualifiedMetadata(l.root(), c.metadata()), c.listMetadata(), c.fields()) : c);
    }

    /**
     * Searches every root with {@code request} and merges the answers (see the class doc).
     *
     * @param path a {@code path} glob argument, or null: with several roots a glob starting with a root's name applies
     *             to that root alone, any other to every root
     * @throws IllegalArgumentException when the glob matches no file of any root
     */
    Searched search(SearchRequest request, String path, boolean ranked) {
        List<SearchResponse> answers = new ArrayList<>();
        List<Root> searched = new ArrayList<>();
        List<Freshness> fresh = new ArrayList<>();
        boolean anyFile = false;
        for (Root r : roots) {
            SearchRequest own = request;
            if (path != null && !path.isBlank()) {
                String glob = path;
                if (several() && path.startsWith(r.name() + "/")) {
                    glob = path.substring(r.name().length() + 1);
                } else if (several() && roots.stream().anyMatch(o -> path.startsWith(o.name() + "/"))) {
                    continue; // the glob names another root
                }
                Predicate<String> matcher = McpTools.pathMatcher(glob);
                List<String> matching = r.index().paths().stream().filter(matcher).toList();
                if (matching.isEmpty()) {
                    continue;
                }
                anyFile = true;
                own = request.toBuilder().filter(PayloadFilter.must(request.filter(),
                        PayloadFilter.matchAny(ChunkMetadata.PATH, matching.toArray(String[]::new)))).build();
            }
            fresh.add(r.index().refreshIfStale());
            answers.add(r.index().search(own, ranked));
            searched.add(r);
        }
        if (path != null && !path.isBlank() && !anyFile) {
            throw new IllegalArgumentException("no indexed file matches `path` '" + path + "': give a folder "
                    + "such as src/main or a glob such as *.java or docs/*.md" + (several() ? " (with several roots, "
                    + "optionally after a root's name: " + first().name() + "/src/main)" : ""));
        }
        if (!several()) {
            return new Searched(answers.get(0), first().index().status(), fresh.get(0));
        }
        return new Searched(merge(searched, answers, request.limit()), status(), freshness(fresh));
    }

    SearchResponse merge(List<Root> searched, List<SearchResponse> answers, int limit) {
        record Ranked(SearchHit hit, boolean above, int rank, int root) {
        }
        List<Ranked> all = new ArrayList<>();
        int above = 0;
        int longest = limit;
        boolean extended = false;
        Set<Leg> legs = EnumSet.noneOf(Leg.class);
        Duration total = Duration.ZERO;
        for (int i = 0; i < answers.size(); i++) {
            SearchResponse a = answers.get(i);
            above += a.totalAboveThreshold();
            longest = Math.max(longest, a.hits().size());
            extended |= a.extended();
            legs.addAll(a.legsRun());
            total = total.plus(a.timings().total());
            for (int k = 0; k < a.hits().size(); k++) {
                all.add(new Ranked(qualifiedHit(searched.get(i), a.hits().get(k)), k < a.totalAboveThreshold(), k, i));
            }
        }
        all.sort(Comparator.comparing((Ranked r) -> !r.above()).thenComparing(r -> -r.hit().score())
                .thenComparingInt(Ranked::rank).thenComparingInt(Ranked::root));
        List<SearchHit> hits = all.stream().limit(longest).map(Ranked::hit).toList();
        return new SearchResponse(hits, above, extended, legs, false,
                new SearchTimings(Duration.ZERO, total, Duration.ZERO, total));
    }

    /** A hit with its id and path qualified by its root's name. */
    SearchHit qualifiedHit(Root root, SearchHit h) {
        if (!several()) {
            return h;
        }
        return new SearchHit(qualified(root, h.id()), h.text(), qualifiedMetadata(root, h.metadata()),
                h.listMetadata(), h.score(), h.fusedScore(), h.legs(), h.rankSignals());
    }

    private Map<String, String> qualifiedMetadata(Root root, Map<String, String> m) {
        Map<String, String> out = new LinkedHashMap<>(m);
        out.computeIfPresent(ChunkMetadata.PATH, (k, v) -> qualified(root, v));
        out.put("root", root.name());
        return out;
    }

    /** The roots' state as one: the least advanced phase, sums of counts, the union of legs. */
    LiveIndex.Status status() {
        if (!several()) {
            return first().index().status();
        }
        List<LiveIndex.Status> all = roots.stream().map(r -> r.index().status()).toList();
        LiveIndex.Phase phase = all.stream().map(LiveIndex.Status::phase).min(Comparator.naturalOrder()).orElseThrow();
        Map<String, Integer> byKind = new LinkedHashMap<>();
        Set<Leg> legs = EnumSet.noneOf(Leg.class);
        long chunks = 0;
        long withDense = 0;
        long covered = 0;
        int files = 0;
        int done = 0;
        int toIndex = 0;
        boolean updating = false;
        boolean writer = true;
        boolean denseLoaded = true;
        String note = "";
        Instant updated = null;
        Instant saved = null;
        List<String> saveProblems = new ArrayList<>();
        Map<String, Integer> skipped = new java.util.TreeMap<>();
        String damage = "";
        for (LiveIndex.Status s : all) {
            s.chunksByKind().forEach((k, v) -> byKind.merge(k, v, Integer::sum));
            legs.addAll(s.legs());
            chunks += s.chunks();
            covered += s.coverage().chunks();
            withDense += s.coverage().withDense();
            files += s.files();
            done += s.filesDone();
            toIndex += s.filesToIndex();
            updating |= s.updating();
            writer &= s.writer();
            denseLoaded &= s.denseLoaded();
            note = note.isEmpty() ? s.denseNote() : note;
            updated = latest(updated, s.lastUpdated());
            saved = latest(saved, s.lastSaved());
            s.skipped().forEach((k, v) -> skipped.merge(k, v, Integer::sum));
            if (!s.saveProblem().isEmpty()) {
                saveProblems.add(s.saveProblem());
            }
            damage = damage.isEmpty() ? s.damage() : s.damage().isEmpty() ? damage : damage + "; " + s.damage();
        }
        LiveIndex.Status f = all.get(0);
        return new LiveIndex.Status(f.root(), f.indexDir(), writer, phase, updating, done, toIndex, files, chunks,
                byKind, legs, new DenseCoverage(covered, withDense), f.denseModel(), denseLoaded, note, updated, saved,
                String.join("; ", saveProblems), skipped, damage);
    }

    private static Instant latest(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
    }

    /** What several searches reflect as one: changes summed, an update running in any, the oldest check. */
    private static Freshness freshness(List<Freshness> all) {
        int changed = 0;
        boolean checkedNow = true;
        boolean running = false;
        int done = 0;
        int toIndex = 0;
        long ago = 0;
        long interval = 0;
        for (Freshness f : all) {
            changed += f.filesChanged();
            checkedNow &= f.checkedNow();
            running |= f.updateRunning();
            done += f.filesDone();
            toIndex += f.filesToIndex();
            ago = Math.max(ago, f.checkedMillisAgo());
            interval = Math.max(interval, f.checkIntervalMillis());
        }
        return new Freshness(changed, checkedNow, running, done, toIndex, ago, interval);
    }

    @Override
    public void close() {
        for (Root r : roots) {
            r.index().close();
        }
    }

    @Override
    public String toString() {
        return Objects.toString(names());
    }
}
