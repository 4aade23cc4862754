package dev.neuraltext.store;

import dev.neuraltext.filter.PayloadFilter;
import dev.neuraltext.search.HybridQuery;
import dev.neuraltext.search.SearchHit;
import java.util.Collection;
import java.util.List;

/** Being written (issue 3): the embedded default store. */
public final class InMemoryCaseStore implements CaseStore {

    private InMemoryCaseStore() {
    }

    public static InMemoryCaseStore create() {
        return new InMemoryCaseStore();
    }

    @Override
    public void upsert(List<IndexedCase> cases) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public void delete(Collection<String> ids) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public void deleteWhere(PayloadFilter filter) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public long count(PayloadFilter filter) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    @Override
    public List<SearchHit> search(HybridQuery query) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
