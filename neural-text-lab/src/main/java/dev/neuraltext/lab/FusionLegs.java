package dev.neuraltext.lab;

import dev.neuraltext.cli.eval.EmbeddingCache;
import dev.neuraltext.cli.eval.GrepPeer;
import dev.neuraltext.cli.eval.IndexedChunk;
import dev.neuraltext.cli.eval.ProgressBar;
import dev.neuraltext.encode.Embedder;
import dev.neuraltext.eval.BeirDataset;
import dev.neuraltext.eval.EvalDataset;
import dev.neuraltext.eval.EvalQuery;
import dev.neuraltext.fusion.LegResult;
import dev.neuraltext.onnx.DenseModels;
import dev.neuraltext.retrieve.DenseText;
import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.store.InMemoryCaseStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The leg lists {@link FusionFit} and {@link BeyondWeights} measure on, for one BEIR dataset: the dataset indexed as
 * {@code neural-text eval} indexes it ({@link IndexedChunk}, the dense model behind an {@link EmbeddingCache}), every
 * query's BM25 and dense lists, and the extra lists: file-level and feedback BM25 ({@link ExtraLegs}) and the literal
 * match ({@link GrepPeer}) always, a dense leg over windows of {@code denseWindows} characters and a second exhaustive
 * dense leg ({@code secondDense}, a preset) when asked. Not thread-safe.
 *
 * @param dataset      the BEIR folder
 * @param split        the qrels split
 * @param model        the dense model preset
 * @param denseText    what the dense leg embeds
 * @param cacheDir     the document embedding cache folder, or null (memory only)
 * @param denseWindows window size of the windowed dense lists, or null for none
 * @param secondDense  a second dense preset, or null for none
 */
record FusionLegs(Path dataset, String split, String model, DenseText denseText, Path cacheDir, Integer denseWindows,
        String secondDense) {

    FusionLegs {
        DenseModels.checkId(model);
        if (secondDense != null) {
            DenseModels.checkId(secondDense);
        }
        if (denseWindows != null && denseWindows <= 0) {
            throw new IllegalArgumentException("--dense-windows must be > 0, got " + denseWindows);
        }
    }

    /** Loads and indexes the dataset, then retrieves every list; models are closed before it returns. */
    FusionFit.DatasetLegs collect(ProgressBar progress, PrintStream log) {
        List<AutoCloseable> owned = new ArrayList<>();
        try {
            EvalDataset data = BeirDataset.loader(dataset).split(split).load();
            log.println(data.summary());
            Embedder loaded = DenseModels.load(model);
            owned.add((AutoCloseable) loaded);
            EmbeddingCache cache = new EmbeddingCache(loaded, cacheDir);
            HybridCaseRetriever retriever = HybridCaseRetriever.builder(InMemoryCaseStore.create()).denseText(denseText)
                    .embedder(cache).build();
            IndexedChunk.indexAll(retriever, data.documents(), progress);
            cache.flush();
            FusionFit.DatasetLegs legs = FusionFit.collect(data, retriever, progress);
            ExtraLegs extra = new ExtraLegs(data);
            return legs.withExtra(extraLists(data, extra, cache, owned, progress), extra.files());
        } finally {
            for (AutoCloseable c : owned) {
                try {
                    c.close();
                } catch (Exception e) {
                    log.println("warning: closing " + c + " failed: " + e);
                }
            }
        }
    }

    private Map<String, List<List<LegResult>>> extraLists(EvalDataset data, ExtraLegs extra, EmbeddingCache cache,
            List<AutoCloseable> owned, ProgressBar progress) {
        Map<String, List<List<LegResult>>> out = new LinkedHashMap<>();
        progress.start("extra lists " + data.name(), data.queries().size());
        List<List<LegResult>> file = new ArrayList<>();
        List<List<LegResult>> prf = new ArrayList<>();
        int i = 0;
        for (EvalQuery q : data.queries()) {
            file.add(extra.fileBm25(q.text()));
            prf.add(extra.feedbackBm25(q.text(), 3, 5));
            progress.update(++i);
        }
        progress.finish();
        GrepPeer grep = new GrepPeer();
        grep.index(data.documents(), ProgressBar.silent());
        List<List<LegResult>> literal = new ArrayList<>();
        for (EvalQuery q : data.queries()) {
            List<LegResult> list = new ArrayList<>();
            List<String> ids = grep.search(q.text(), FusionFit.LEG_DEPTH).ids();
            for (int r = 0; r < ids.size(); r++) {
                list.add(new LegResult(ids.get(r), 1.0 / (r + 1)));
            }
            literal.add(list);
        }
        out.put(BeyondWeights.FILE_BM25, file);
        out.put(BeyondWeights.GREP, literal);
        out.put("BM25 + feedback (RM3, 3 chunks, 5 terms)", prf);
        if (denseWindows != null) {
            DenseWindows.Lists w = DenseWindows.collect(data, cache, denseWindows);
            cache.flush();
            out.put(BeyondWeights.DENSE_PREFIX + " windows of " + denseWindows + " chars, max", w.max());
            out.put(BeyondWeights.DENSE_PREFIX + " windows of " + denseWindows + " chars, mean", w.mean());
        }
        if (secondDense != null) {
            Embedder second = DenseModels.load(secondDense);
            owned.add((AutoCloseable) second);
            EmbeddingCache secondCache = new EmbeddingCache(second, cacheDir);
            DenseWindows.Lists w = DenseWindows.collect(data, secondCache, Integer.MAX_VALUE);
            secondCache.flush();
            out.put(BeyondWeights.DENSE_PREFIX + " " + secondDense, w.max());
        }
        return out;
    }
}
