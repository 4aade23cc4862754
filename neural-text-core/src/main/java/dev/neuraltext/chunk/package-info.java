/**
 * The chunk model: what a source document becomes before it is indexed.
 *
 * <ul>
 *   <li>{@link dev.neuraltext.chunk.ExtractionResult}: the text and metadata extracted from one source document.</li>
 *   <li>{@link dev.neuraltext.chunk.Chunker}: turns one extraction result into chunks.</li>
 *   <li>{@link dev.neuraltext.chunk.ChunkInput}: one unit to index, with its id, text and metadata.</li>
 *   <li>{@link dev.neuraltext.chunk.ChunkMetadata}: the metadata keys and BM25 field names every chunker writes.</li>
 * </ul>
 *
 * <p>Dependencies: {@code filter} (payload values) and {@code internal} only. Imported by every package that handles
 * chunks: stores, legs, the retriever, ingestion and the adapters. It knows nothing of parsers, so a store never sits
 * above JavaParser or commonmark.
 */
package dev.neuraltext.chunk;
