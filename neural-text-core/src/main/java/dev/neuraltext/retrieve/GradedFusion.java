package dev.neuraltext.retrieve;

import dev.neuraltext.fusion.FusionMethod;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.internal.Checks;
import java.util.Map;

/**
 * The automatic fusion of {@link HybridCaseRetriever}: weighted RRF with constant {@code k} in which the BM25 leg's
 * weight is a graded function of the query, the other legs at weight 1:
 *
 * <pre>
 * bm25Weight = exp(bias + codeShare * codeCoefficient + stopWordShare * stopWordCoefficient
 *                  + (identifierShaped ? identifierCoefficient : 0))
 * </pre>
 *
 * where {@code codeShare} is the share of the query's tokens that look like code (a case change as in {@code isBlank},
 * {@code _ . # :: $} between word characters, letters mixed with digits, {@code @}, {@code ()}, all capitals),
 * {@code stopWordShare} the share of English function words, and {@code identifierShaped} the binary shape of
 * {@link QueryAnalyzer} (no stop word, every token identifier-like, and all code-marked or at most three tokens). The
 * former binary switch (BM25 x10 for identifier-shaped queries, else 1, k = 20) is {@link #shapeSwitch()}.
 *
 * <p>Because the result is a plain {@link FusionMethod.Rrf} with per-leg weights, every store ranks it the same way:
 * the Qdrant store runs the legs in one {@code query_batch} call and fuses them in Java with the same
 * {@link dev.neuraltext.fusion.Fusion} as the embedded store (or, when asked, with Qdrant's own weighted RRF, which is
 * close to it but not identical; see {@code QdrantCaseStore}).
 *
 * @param k                     the RRF constant, {@code >= 0}
 * @param bias                  the natural logarithm of the BM25 weight of a query with no features
 * @param codeCoefficient       added to the log weight per unit of code share
 * @param stopWordCoefficient   added to the log weight per unit of stop-word share
 * @param identifierCoefficient added to the log weight of identifier-shaped queries
 */
public record GradedFusion(int k, double bias, double codeCoefficient, double stopWordCoefficient,
        double identifierCoefficient) {

    /** The BM25 weight is kept within [1/{@value}, {@value}] so that no leg is ever silenced. */
    public static final double MAX_WEIGHT_RATIO = 100;

    public GradedFusion {
        if (k < 0) {
            throw new IllegalArgumentException("k must be >= 0, got " + k);
        }
        Checks.finite(bias, "bias");
        Checks.finite(codeCoefficient, "codeCoefficient");
        Checks.finite(stopWordCoefficient, "stopWordCoefficient");
        Checks.finite(identifierCoefficient, "identifierCoefficient");
    }

    /**
     * The default: k = 10, bias 0.5, code 0, stop words -1.0, identifier shape +2.0, so an identifier-shaped query
     * ({@code StringUtils isBlank}, {@code withReuse()}) weighs BM25 12x, a query with no stop word 1.6x, an English
     * sentence with a third of stop words 1.2x and one with half 1.0x. Fitted leave-one-dataset-out (best mean MRR@10
     * on the other datasets, 1,793 candidates) over three dev datasets (Java members queried by Javadoc sentences and
     * identifiers, commit subjects, Markdown sections queried by headings and code spans), indexed as {@code index}
     * indexes their files, with bge-small-en-v1.5-q as the dense leg; the fit on all three is the one shipped, and
     * two of its three folds chose it too. Figures in docs/measured-not-shipped.md.
     */
    public static GradedFusion defaults() {
        return new GradedFusion(10, 0.5, 0, -1.0, 2.0);
    }

    /** The former binary switch: k = 20, BM25 weight 10 for identifier-shaped queries, else 1. */
    public static GradedFusion shapeSwitch() {
        return new GradedFusion(20, 0, 0, 0, Math.log(10));
    }

    /** The BM25 weight for {@code query} (the other legs weigh 1), rounded to 9 decimals. */
    public double bm25Weight(String query) {
        QueryAnalyzer.Features f = QueryAnalyzer.features(query);
        double log = bias + f.codeShare() * codeCoefficient + f.stopWordShare() * stopWordCoefficient
                + (f.identifierShaped() ? identifierCoefficient : 0);
        double w = Math.max(1 / MAX_WEIGHT_RATIO, Math.min(MAX_WEIGHT_RATIO, Math.exp(log)));
        return Math.round(w * 1e9) / 1e9; // exp(log(10)) is 10, not 10.000000000000002
    }

    /** The fusion method for {@code query}: RRF with this {@code k} and {@link #bm25Weight(String)} on BM25. */
    public FusionMethod.Rrf methodFor(String query) {
        Checks.notNull(query, "query");
        return new FusionMethod.Rrf(k, Map.of(Leg.BM25, bm25Weight(query)));
    }
}
