package dev.neuraltext.encode;

/** Whether a text is a search query or a document to index; asymmetric models (E5, BGE, SPLADE) treat them differently. */
public enum TextRole {
    QUERY,
    DOCUMENT
}
