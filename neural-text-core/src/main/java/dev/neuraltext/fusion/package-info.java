/**
 * Legs and their fusion: {@link dev.neuraltext.fusion.Leg}, a leg's ranked list
 * ({@link dev.neuraltext.fusion.LegResult}) and a hit's per-leg rank and score ({@link dev.neuraltext.fusion.LegScore});
 * how lists are fused ({@link dev.neuraltext.fusion.FusionMethod}, a value) and the fusion that applies it
 * ({@link dev.neuraltext.fusion.Fusion#of}: reciprocal rank fusion, or a convex combination of normalised scores).
 * Both put fused scores on one documented [0, 1] scale.
 *
 * <p>Dependencies: {@code internal} only. Imported by {@code search}, {@code bm25}, {@code store}, {@code retrieve}
 * and the Qdrant module, which reproduces these sums server-side.
 */
package dev.neuraltext.fusion;
