/**
 * Evaluation: datasets in the BEIR format ({@link dev.neuraltext.eval.BeirDataset}), ranking metrics
 * ({@link dev.neuraltext.eval.Metrics}, {@link dev.neuraltext.eval.MetricSuite}), a runner that scores any retrieval
 * function on a dataset overall and per slice of query metadata ({@link dev.neuraltext.eval.EvalRunner},
 * {@link dev.neuraltext.eval.EvalRun}) and a paired comparison of two runs ({@link dev.neuraltext.eval.HeadToHead}).
 *
 * <p>Loading BEIR files needs {@code com.fasterxml.jackson.core:jackson-core} on the class path (an optional
 * dependency of neural-text-core); everything else here has no dependency.
 *
 * <p>Dependencies: {@code chunk}, {@code internal}. Imported by the eval harness and benchmarks in {@code examples}.
 */
package dev.neuraltext.eval;
