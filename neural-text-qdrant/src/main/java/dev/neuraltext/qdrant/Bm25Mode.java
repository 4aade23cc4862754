package dev.neuraltext.qdrant;

/**
 * Where the BM25 leg's term weights come from in a {@link QdrantCaseStore}. In both modes the named sparse vector
 * {@code bm25} carries {@code Modifier.Idf}, so Qdrant computes the inverse document frequencies over the whole
 * collection at query time and the score is the Okapi BM25 sum; the modes differ in who tokenizes.
 *
 * <ul>
 *   <li>{@link #CLIENT_SIDE} (the default): terms come from {@link dev.neuraltext.text.CodeDomainTokenizer}, the same
 *       tokenizer the embedded store uses, so identifiers reach Qdrant as compound plus parts ({@code ChatModel} becomes
 *       {@code chatmodel chat model}) and no stemming or English stop-word list is imposed. Each distinct term becomes
 *       a sparse index (the murmur3 32-bit hash of its UTF-8 bytes, made non-negative, as Qdrant's own model hashes)
 *       whose document-side value is the embedded {@link dev.neuraltext.bm25.Bm25Index}'s BM25F saturated term
 *       frequency over the chunk's BM25 fields ({@code name} weighted 8 and binary, {@code signature} 3, {@code doc}
 *       and {@code body} 1); query-side values are term counts. Qdrant's dot product then equals the embedded BM25F
 *       score exactly when the configured per-field average lengths equal the corpus's
 *       ({@link QdrantCaseStore.Builder#bm25FieldAverageLengths(java.util.Map)}; Qdrant cannot track them), up to
 *       32-bit floats and rare hash collisions. Measured on commons-lang (BM25 leg, 900 queries): MRR@10 0.663 with
 *       the measured averages, identical to the embedded store; 0.644 with the name average halved. Works with
 *       any Qdrant server that supports the IDF modifier (1.10 and later).</li>
 *   <li>{@link #SERVER_SIDE}: the chunk text, first passed through {@link dev.neuraltext.text.CamelCaseExpander} so
 *       identifiers are split into words, is sent as a {@code Document} for Qdrant's built-in {@code qdrant/bm25}
 *       model, which tokenizes into words, lower-cases, removes English stop words and stems (defaults k1 1.2, b 0.75,
 *       average length 256 words). Needs Qdrant server 1.15.3 or later. Identifiers lose their compound form
 *       ({@code ChatModel} is only {@code chat model}), words are stemmed and there are no fields, so rankings differ
 *       from the embedded store's; requests are a little larger (the text travels twice: payload and document) and
 *       tokenization costs server CPU, but no Java-side tokenizer version has to match between writers.</li>
 * </ul>
 *
 * <p>A collection must be written and queried in one mode: the two modes produce different sparse indices.
 */
public enum Bm25Mode {
    /** Code-aware terms computed in Java, IDF by the server (default). */
    CLIENT_SIDE,
    /** Qdrant's {@code qdrant/bm25} model over CamelCase-expanded text (server 1.15.3 or later). */
    SERVER_SIDE
}
