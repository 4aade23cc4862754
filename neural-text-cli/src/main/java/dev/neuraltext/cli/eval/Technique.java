package dev.neuraltext.cli.eval;

import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import java.util.ArrayList;
import dev.neuraltext.retrieve.GradedFusion;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One neural-text retrieval technique over the shared index: which legs run, how they are fused, and whether the
 * shortlist is reranked and adaptively extended. Names: a base ({@code bm25}, {@code dense}, {@code sparse},
 * {@code hybrid} = the library default, automatic graded fusion, {@code hybrid-switch} = the former binary shape switch
 * ({@link GradedFusion#shapeSwitch()}), {@code hybrid-rrf}, {@code hybrid-weighted}) optionally followed by {@code +rerank} and/or {@code +adaptive}.
 *
 * @param name     the name in reports
 * @param base     the base name
 * @param legs     the legs that run
 * @param fusion   the fusion method; null for the retriever's automatic fusion ({@code hybrid}) or the former switch
 *                 ({@code hybrid-switch}, see {@link #fusionFor(String)})
 * @param rerank   whether the reranker reorders the shortlist
 * @param adaptive whether adaptive extension decides the length (limit = k); otherwise a fixed cut at the depth
 */
record Technique(String name, String base, Set<Leg> legs, FusionMethod fusion, boolean rerank, boolean adaptive) {

    static final List<String> BASES = List.of("bm25", "dense", "sparse", "hybrid", "hybrid-switch", "hybrid-rrf",
            "hybrid-weighted");

    /** The technique named {@code name}, given what the index offers; throws when it cannot run. */
    static Technique parse(String name, Set<Leg> available, boolean hasReranker, double alpha) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        String[] parts = n.split("\\+");
        String base = parts[0];
        boolean rerank = false;
        boolean adaptive = false;
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].equals("rerank")) {
                rerank = true;
            } else if (parts[i].equals("adaptive")) {
                adaptive = true;
            } else {
                throw new IllegalArgumentException("unknown technique modifier '+" + parts[i] + "' in '" + name
                        + "', expected +rerank or +adaptive");
            }
        }
        if (rerank && !hasReranker) {
            throw new IllegalArgumentException("technique '" + name + "' needs a reranker (--reranker-model)");
        }
        Set<Leg> legs;
        FusionMethod fusion = FusionMethod.defaultMethod();
        switch (base) {
            case "bm25" -> legs = EnumSet.of(Leg.BM25);
            case "dense" -> legs = EnumSet.of(Leg.DENSE);
            case "sparse" -> legs = EnumSet.of(Leg.SPARSE);
            case "hybrid" -> {
                legs = EnumSet.copyOf(available);
                fusion = null;
            }
            case "hybrid-switch" -> {
                legs = EnumSet.copyOf(available);
                fusion = null;
            }
            case "hybrid-rrf" -> legs = EnumSet.copyOf(available);
            case "hybrid-weighted" -> {
                legs = EnumSet.copyOf(available);
                fusion = FusionMethod.alpha(alpha);
            }
            default -> throw new IllegalArgumentException("unknown technique '" + name + "', expected one of "
                    + BASES + " with optional +rerank / +adaptive");
        }
        if (!available.containsAll(legs)) {
            Set<Leg> missing = EnumSet.copyOf(legs);
            missing.removeAll(available);
            throw new IllegalArgumentException("technique '" + name + "' needs the " + missing
                    + " leg(s), which this run has no encoder for");
        }
        if (base.startsWith("hybrid") && legs.size() < 2) {
            throw new IllegalArgumentException("technique '" + name + "' needs at least two legs, this run has "
                    + available);
        }
        String canonical = base + (rerank ? "+rerank" : "") + (adaptive ? "+adaptive" : "");
        return new Technique(canonical, base, legs, fusion, rerank, adaptive);
    }

    /** Every technique the configured encoders allow, in report order. */
    static List<Technique> all(Set<Leg> available, boolean hasReranker, double alpha) {
        List<Technique> out = new ArrayList<>();
        for (boolean rerank : hasReranker ? new boolean[] {false, true} : new boolean[] {false}) {
            for (boolean adaptive : new boolean[] {false, true}) {
                for (String base : BASES) {
                    String name = base + (rerank ? "+rerank" : "") + (adaptive ? "+adaptive" : "");
                    try {
                        out.add(parse(name, available, hasReranker, alpha));
                    } catch (IllegalArgumentException e) {
                        // not available with this configuration
                    }
                }
            }
        }
        return out;
    }

    /** The fusion method of a request for {@code query}: null for automatic fusion. */
    FusionMethod fusionFor(String query) {
        return base.equals("hybrid-switch") ? GradedFusion.shapeSwitch().methodFor(query) : fusion;
    }

    /** The same technique without adaptive extension (its fixed-cut baseline). */
    String fixedCutName() {
        return base + (rerank ? "+rerank" : "");
    }

    /** A short human description. */
    String description(double alpha) {
        StringBuilder sb = new StringBuilder();
        List<String> legNames = new ArrayList<>();
        legs.forEach(l -> legNames.add(l.label()));
        sb.append(String.join(" + ", legNames));
        if (legs.size() > 1) {
            sb.append(base.equals("hybrid-switch") ? ", former shape switch (RRF k=20, BM25 x10 for identifier shape)"
                    : fusion == null ? ", automatic graded fusion (RRF, BM25 weighted by query features)"
                    : fusion instanceof FusionMethod.Weighted
                    ? String.format(Locale.ROOT, ", weighted (alpha %.2f)", alpha) : ", RRF k=60");
        }
        if (rerank) {
            sb.append(", reranked");
        }
        if (adaptive) {
            sb.append(", adaptive extension");
        }
        return sb.toString();
    }
}
