package com.example.consumer;

import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.store.CaseStore;
import dev.neuraltext.store.CaseStoreContract;
import dev.neuraltext.store.InMemoryCaseStore;
import dev.neuraltext.store.IndexFingerprint;
import dev.neuraltext.store.IndexedCase;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/** A user's own CaseStore (here: one that forwards to the embedded store) held to the published contract. */
class MyStoreContractTest extends CaseStoreContract {

    /** Stands for a user's store: every call forwarded, as a caching or auditing wrapper would. */
    static final class ForwardingStore implements CaseStore {
        private final CaseStore delegate;

        ForwardingStore(CaseStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public void upsert(List<IndexedCase> cases) {
            delegate.upsert(cases);
        }

        @Override
        public void delete(Collection<String> ids) {
            delegate.delete(ids);
        }

        @Override
        public void deleteWhere(PayloadFilter filter) {
            delegate.deleteWhere(filter);
        }

        @Override
        public long count(PayloadFilter filter) {
            return delegate.count(filter);
        }

        @Override
        public List<SearchHit> search(HybridQuery query) {
            return delegate.search(query);
        }

        @Override
        public Set<Leg> legsWithData() {
            return delegate.legsWithData();
        }

        @Override
        public OptionalInt denseDimension() {
            return delegate.denseDimension();
        }

        @Override
        public IndexFingerprint fingerprint() {
            return delegate.fingerprint();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    @Override
    protected CaseStore createStore(int denseDimension) {
        return new ForwardingStore(InMemoryCaseStore.builder().denseDimension(denseDimension).build());
    }
}
