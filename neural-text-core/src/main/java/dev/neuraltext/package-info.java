/**
 * neural-text: embeddable hybrid retrieval over source code and technical text.
 *
 * <p>Start with {@link dev.neuraltext.retrieve.HybridCaseRetriever}.
 *
 * <h2>Contracts that hold across the public API</h2>
 * <ul>
 *   <li><b>Null.</b> No public method or constructor accepts {@code null} unless its documentation says so ("may be
 *       null", "null means …"). A null argument, or a null element of a collection or map argument, throws
 *       {@link java.lang.NullPointerException} whose message names the parameter ({@code "chunks[3] must not be
 *       null"}), as Lucene and Caffeine do.</li>
 *   <li><b>Bad values.</b> A non-null argument outside its allowed range or form throws
 *       {@link java.lang.IllegalArgumentException} whose message names the parameter, the value and what is allowed
 *       ({@code "limit must be > 0, got 0"}). A call made in the wrong state (a builder missing a required setting, a
 *       closed resource) throws {@link java.lang.IllegalStateException}.</li>
 *   <li><b>Run-time failures</b> (a model that does not load, a store that cannot be reached, an unreadable index) are
 *       {@link dev.neuraltext.NeuralTextException}s, retriable or not, always with the cause attached.</li>
 *   <li><b>Thread safety</b> is stated on every public type.</li>
 * </ul>
 *
 * <h2>Layout</h2>
 * Packages by concept; a package imports only packages listed before it:
 * <ol>
 *   <li>{@code internal}: argument checks and atomic file writes (not API);</li>
 *   <li>the leaves: {@code text} (tokenizer, expander), {@code filter}, {@code encode} (model SPIs), {@code fusion}
 *       (legs, leg results, fusion methods), {@code path} (the language table, the glob syntax);</li>
 *   <li>{@code chunk}, the chunk model;</li>
 *   <li>{@code search}, the values of a search and how an answer is packed for its reader (which reads the chunk
 *       model's metadata keys);</li>
 *   <li>{@code bm25}, the lexical index;</li>
 *   <li>{@code store}: the {@code CaseStore} SPI, the embedded store and its persistence;</li>
 *   <li>{@code retrieve}: the retriever, query analysis, adaptive extension;</li>
 *   <li>{@code ingest} (chunkers, folder walking, incremental indexing) and {@code eval} (datasets, metrics), which
 *       depend on the chunk model only.</li>
 * </ol>
 * Each package's documentation says what it holds and who imports it.
 */
package dev.neuraltext;
