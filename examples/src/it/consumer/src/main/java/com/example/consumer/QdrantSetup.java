package com.example.consumer;

import dev.neuraltext.qdrant.QdrantCaseStore;

/** Compiles against neural-text-qdrant's published API; building the store would contact a server, so nothing runs. */
public final class QdrantSetup {

    private QdrantSetup() {
    }

    public static QdrantCaseStore.Builder builder(int dimension) {
        return QdrantCaseStore.builder().host("localhost", 6334).collection("my-code").denseDimension(dimension);
    }
}
