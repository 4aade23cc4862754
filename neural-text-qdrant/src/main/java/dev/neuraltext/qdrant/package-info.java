/** A CaseStore that runs the retrieval legs and their fusion inside Qdrant. */
package dev.neuraltext.qdrant;
