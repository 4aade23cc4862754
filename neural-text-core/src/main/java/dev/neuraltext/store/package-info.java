/**
 * Where chunks live and where the legs run: the {@link dev.neuraltext.store.CaseStore} SPI (writes, counts, the fused
 * search and the capabilities a store declares), the embedded {@link dev.neuraltext.store.InMemoryCaseStore} with its
 * vector indexes, and the versioned, checksummed on-disk format with its fingerprint
 * ({@link dev.neuraltext.store.IndexFingerprint}), its errors and the one-writer lock
 * ({@link dev.neuraltext.store.IndexWriteLock}).
 *
 * <p>Dependencies: {@code bm25}, {@code chunk}, {@code encode}, {@code filter}, {@code fusion}, {@code search},
 * {@code text}, {@code internal}; never {@code ingest} (so stores do not sit above the parsers) nor {@code retrieve}.
 * External: Lucene's {@code org.apache.lucene.util.hnsw} ({@code lucene-core}, which has no dependencies of its own)
 * builds and searches the dense leg's HNSW graph above {@link dev.neuraltext.store.DenseSearch#AUTO_ANN_THRESHOLD}
 * vectors; nothing else of Lucene is used.
 * Imported by {@code retrieve}, the Qdrant module and applications.
 */
package dev.neuraltext.store;
