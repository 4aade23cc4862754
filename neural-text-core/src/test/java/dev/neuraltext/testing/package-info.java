/**
 * Fixtures for unit tests of code that uses neural-text, published in {@code neural-text-core}'s test-jar:
 * {@link dev.neuraltext.testing.HashingEmbedder} (a deterministic, model-free dense leg, not for production) and
 * {@link dev.neuraltext.testing.FixtureCorpus} (a tiny Java and Markdown corpus with known answers). The
 * {@code CaseStore} contract a store implementation must pass is {@link dev.neuraltext.store.CaseStoreContract}.
 */
package dev.neuraltext.testing;
