package dev.neuraltext.store;

/**
 * The store contract with the dense leg forced onto its HNSW graph ({@link DenseSearch#ANN}): on the contract's small
 * data the graph search must agree with the exact scan, including filters, deletes and upserts.
 */
class InMemoryCaseStoreAnnContractTest extends CaseStoreContract {

    @Override
    protected CaseStore createStore(int denseDimension) {
        return InMemoryCaseStore.builder().denseDimension(denseDimension).denseSearch(DenseSearch.ANN).build();
    }
}
