/**
 * A {@link dev.neuraltext.store.CaseStore} backed by Qdrant: {@link dev.neuraltext.qdrant.QdrantCaseStore} runs the
 * dense, sparse and BM25 legs and their RRF fusion inside Qdrant in one {@code query} call, with filters translated
 * one to one from {@link dev.neuraltext.filter.PayloadFilter} and fused scores on the same scale as the embedded
 * store. {@link dev.neuraltext.qdrant.Bm25Mode} chooses who tokenizes the BM25 leg. Needs a Qdrant server 1.16 or
 * later (RRF with an explicit {@code k}); 1.17 for server-side weighted RRF; 1.15.3 or later for server-side BM25.
 */
package dev.neuraltext.qdrant;
