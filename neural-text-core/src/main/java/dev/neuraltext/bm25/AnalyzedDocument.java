package dev.neuraltext.bm25;

/**
 * A document tokenized outside the index's lock: per field (sorted by name) its distinct terms, their frequencies
 * (already 1 in a binary field) and the field's length in terms.
 */
record AnalyzedDocument(String id, String[] fields, String[][] terms, int[][] tfs, int[] lengths) {
}
