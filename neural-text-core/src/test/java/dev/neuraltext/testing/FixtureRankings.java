package dev.neuraltext.testing;

import dev.neuraltext.retrieve.HybridCaseRetriever;
import dev.neuraltext.search.SearchHit;
import dev.neuraltext.search.SearchRequest;
import java.util.ArrayList;
import java.util.List;

/** Prints the fixture's ranking of every known-answer query, one line each; run in a second JVM by the determinism test. */
final class FixtureRankings {

    private FixtureRankings() {
    }

    static List<String> rankings(HybridCaseRetriever retriever) {
        List<String> lines = new ArrayList<>();
        for (FixtureCorpus.KnownAnswer answer : FixtureCorpus.knownAnswers()) {
            StringBuilder line = new StringBuilder(answer.query()).append(" ->");
            for (SearchHit hit : retriever.search(SearchRequest.builder(answer.query()).limit(5).filter(answer.filter())
                    .build()).hits()) {
                line.append(' ').append(hit.id()).append('=').append(Double.toHexString(hit.score()));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    public static void main(String[] args) {
        rankings(FixtureCorpus.retriever()).forEach(System.out::println);
    }
}
