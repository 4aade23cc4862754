package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.chunk.ChunkMetadata;
import dev.neuraltext.fusion.Leg;
import dev.neuraltext.fusion.LegScore;
import dev.neuraltext.search.SearchHit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RepositoryRankingTest {

    private static SearchHit hit(String id, String path, String symbol, String symbolType, double fused) {
        return new SearchHit(id, "text of " + id, Map.of(ChunkMetadata.PATH, path, ChunkMetadata.SYMBOL, symbol,
                ChunkMetadata.SYMBOL_TYPE, symbolType, ChunkMetadata.TYPE, ChunkMetadata.TYPE_CODE), Map.of(), fused,
                fused, Map.of());
    }

    private static List<String> ids(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::id).toList();
    }

    @Test
    void queryKinds() {
        assertThat(RepositoryRanking.QueryKind.of("GsonBuilder")).isEqualTo(RepositoryRanking.QueryKind.SYMBOL);
        assertThat(RepositoryRanking.QueryKind.of("how are custom serializers registered"))
                .isEqualTo(RepositoryRanking.QueryKind.NATURAL_LANGUAGE);
        assertThat(RepositoryRanking.QueryKind.of("how does JsonReader skip values"))
                .isEqualTo(RepositoryRanking.QueryKind.MIXED);
        // a few words: a name when one has a capital or a code mark, a topic when all are plain lower case
        assertThat(RepositoryRanking.QueryKind.of("Pair apply")).isEqualTo(RepositoryRanking.QueryKind.SYMBOL);
        assertThat(RepositoryRanking.QueryKind.of("StringUtils isBlank"))
                .isEqualTo(RepositoryRanking.QueryKind.SYMBOL);
        assertThat(RepositoryRanking.QueryKind.of("compose")).isEqualTo(RepositoryRanking.QueryKind.SYMBOL);
        assertThat(RepositoryRanking.QueryKind.of("function composition utility"))
                .isEqualTo(RepositoryRanking.QueryKind.NATURAL_LANGUAGE);
        assertThat(RepositoryRanking.QueryKind.of("json log formatting"))
                .isEqualTo(RepositoryRanking.QueryKind.NATURAL_LANGUAGE);
    }

    @Test
    void aDefinitionOutranksAMentionOnlyWhenItsWeightSaysSo() {
        List<SearchHit> hits = List.of(hit("mention", "src/Use.java", "Use.run", "method", 1.0),
                hit("def", "src/Builder.java", "Builder", "type", 0.8));
        RepositoryRanking none = new RepositoryRanking(50, Map.of());
        assertThat(ids(none.rank("Builder", hits))).containsExactly("mention", "def");
        RepositoryRanking defs = none.withWeights(Map.of("definition.symbol", 0.5));
        List<SearchHit> ranked = defs.rank("Builder", hits);
        assertThat(ids(ranked)).containsExactly("def", "mention");
        // the signals say why, and the shown score falls with the rank
        assertThat(ranked.get(0).rankSignals()).containsEntry("definition", 1.0).containsEntry("kind.symbol", 1.0)
                .containsEntry("base", 0.8).containsKey("score");
        assertThat(ranked.get(0).score()).isGreaterThanOrEqualTo(ranked.get(1).score());
        // a natural-language query uses its own weight (0 here): the order stays
        assertThat(ids(defs.rank("where is the builder made", hits))).containsExactly("mention", "def");
    }

    @Test
    void anIdentifierTheQueryWritesIsDefinedOnlyByThatSpelling() {
        QueryTerms trait = QueryTerms.of("FromRequest");
        assertThat(trait.namesSymbol("FromRequest")).isTrue();
        assertThat(trait.namesSymbol("extract.FromRequest")).isTrue();
        assertThat(trait.namesSymbol("Json.from_request")).isFalse(); // a method, not the trait
        assertThat(trait.namesSymbol("$FromRequest")).isTrue(); // only letters, digits and underscores count
        assertThat(QueryTerms.of("from_request").namesSymbol("Json.from_request")).isTrue();
        assertThat(QueryTerms.of("from_request").namesSymbol("FromRequest")).isFalse();
        // lower case, or one capital first (a sentence's first word), matches any spelling
        assertThat(QueryTerms.of("fromrequest").namesSymbol("Json.from_request")).isTrue();
        assertThat(QueryTerms.of("Router setup").namesSymbol("router")).isTrue();
        assertThat(QueryTerms.of("json reader").namesSymbol("JsonReader")).isTrue();
    }

    @Test
    void aHeaderReExportingTheQueriedNameIsItsDefinitionHere() {
        SearchHit reExport = new SearchHit("mod.rs#{header}", "pub use core::{FromRequest, FromRef};",
                Map.of(ChunkMetadata.PATH, "extract/mod.rs", ChunkMetadata.SYMBOL, "mod.rs",
                        ChunkMetadata.SYMBOL_TYPE, ChunkMetadata.SYMBOL_TYPE_HEADER, ChunkMetadata.TYPE,
                        ChunkMetadata.TYPE_CODE, ChunkMetadata.EXPORTS, "FromRequest FromRef"),
                Map.of(), 0.8, 0.8, Map.of());
        List<SearchHit> hits = List.of(hit("impl", "json.rs", "Json.from_request", "method", 1.0), reExport);
        RepositoryRanking defs = new RepositoryRanking(50, Map.of("definition.symbol", 1.0));

        List<SearchHit> ranked = defs.rank("FromRequest", hits);

        assertThat(ids(ranked)).containsExactly("mod.rs#{header}", "impl");
        assertThat(ranked.get(0).rankSignals()).containsEntry("definition", 1.0);
        assertThat(ranked.get(1).rankSignals()).doesNotContainKey("definition");
        assertThat(ids(defs.rank("FromRequestParts", hits))).containsExactly("impl", "mod.rs#{header}");
    }

    @Test
    void adjacentQueryWordsNameAFileAndAType() {
        QueryTerms t = QueryTerms.of("streaming json reader and token parsing");
        assertThat(t.namesFile("gson/stream/JsonReader.java")).isTrue();
        assertThat(t.namesSymbol("JsonReader")).isTrue();
        assertThat(t.namesSymbol("JsonWriter")).isFalse();
        assertThat(t.shareInFileName("x/JsonReader.java")).isEqualTo(2.0 / 5); // of streaming, json, reader, token, parsing
        assertThat(QueryTerms.of("Transaction").namesFile("core/Transactions.kt")).isTrue();
        assertThat(t.shareInFolders("gson/stream/JsonReader.java")).isEqualTo(1.0 / 5); // stream ~ streaming
    }

    @Test
    void pathPriorsFollowCommonConventions() {
        assertThat(PathPriors.of("src/test/java/FooTest.java")[0]).isEqualTo(1);
        assertThat(PathPriors.of("pkg/foo_test.go")[0]).isEqualTo(1);
        assertThat(PathPriors.of("src/Testing.java")[0]).isZero();
        assertThat(PathPriors.of("examples/basic/main.rs")[1]).isEqualTo(1);
        assertThat(PathPriors.of("src/main/java/com/example/Cache.java")[1]).as("a package, not examples").isZero();
        assertThat(PathPriors.of("example/simple.zig")[1]).as("a top-level example folder").isEqualTo(1);
        assertThat(PathPriors.of("src/types/store.ts")[5]).as("a folder of type declarations").isEqualTo(1);
        assertThat(PathPriors.of("third_party/x/y.c")[2]).isEqualTo(1);
        assertThat(PathPriors.of("api/v2/service.pb.go")[3]).isEqualTo(1);
        assertThat(PathPriors.of("lib/compat/old_api.py")[4]).isEqualTo(1);
        assertThat(PathPriors.of("types/index.d.ts")[5]).isEqualTo(1);
        assertThat(PathPriors.of("pkg/__init__.py")[6]).isEqualTo(1);
        assertThat(PathPriors.of("src/main/java/a/package-info.java")[6]).isEqualTo(1);
        assertThat(PathPriors.of("src/main/java/a/Parser.java")).containsOnly(0);
        assertThat(PathPriors.of("src/win/pipe.c")[7]).as("a Windows twin").isEqualTo(1);
        assertThat(PathPriors.of("internal/poll/fd_windows.go")[7]).isEqualTo(1);
        assertThat(PathPriors.of("src/unix/pipe.c")[7]).isZero();
        assertThat(PathPriors.of("src/window.c")[7]).as("a word, not a platform").isZero();
        assertThat(PathPriors.of("src/win/winapi.h")[7]).isEqualTo(1);
        assertThat(PathPriors.of("src/winapi.h")[7]).isZero();
    }

    @Test
    void wordsMatchByStem() {
        assertThat(QueryTerms.matches("streaming", "streams")).isTrue();
        assertThat(QueryTerms.matches("composition", "compose")).isTrue();
        assertThat(QueryTerms.matches("middlewares", "middleware")).isTrue();
        assertThat(QueryTerms.matches("connection", "connector")).isTrue();
        assertThat(QueryTerms.matches("utility", "utils")).isTrue();
        assertThat(QueryTerms.matches("parse", "path")).isFalse();
        assertThat(QueryTerms.matches("connect", "collect")).isFalse();
        assertThat(QueryTerms.matches("map", "maps")).as("under four letters only equal words match").isFalse();
        assertThat(QueryTerms.matches("test", "testimonial")).as("too long an ending").isFalse();
        QueryTerms t = QueryTerms.of("response streaming and payload");
        assertThat(t.shareInFileName("aiohttp/streams.py")).isEqualTo(1.0 / 3);
    }

    @Test
    void diversityKeepsOneFileFromFillingTheTopUnlessTheQueryNamesIt() {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            hits.add(hit("big" + i, "src/Big.java", "Big.m" + i, "method", 1.0 - i * 0.01));
        }
        hits.add(hit("other", "src/Other.java", "Other.m", "method", 0.9));
        RepositoryRanking diverse = new RepositoryRanking(50, Map.of("diversity", 0.1));
        // Other (0.9) beats Big's second chunk (0.99 - 0.1)
        assertThat(ids(diverse.rank("merge sorted lists", hits)).subList(0, 2)).containsExactly("big0", "other");
        // a query naming the file keeps its chunks together
        assertThat(ids(diverse.rank("Big", hits)).subList(0, 2)).containsExactly("big0", "big1");
    }

    @Test
    void twinsOfAnotherCandidateTakeTheStubAndCompatPriors() {
        List<SearchHit> hits = List.of(hit("h", "src/idna.h", "uv__idna_toascii", "function", 1.0),
                hit("c", "src/idna.c", "uv__idna_toascii", "function", 0.9),
                hit("old", "src/v3/errors.ts", "ZodError", "type", 0.8),
                hit("new", "src/v4/core/errors.ts", "ZodError", "type", 0.7));
        RepositoryRanking stubs = new RepositoryRanking(50, Map.of("stub", -0.5));
        List<SearchHit> ranked = stubs.rank("IDNA encoding", hits);
        assertThat(ids(ranked)).containsExactly("c", "old", "new", "h");
        assertThat(ranked.get(3).rankSignals()).containsEntry("stub", 1.0);
        RepositoryRanking compat = new RepositoryRanking(50, Map.of("compat", -0.5));
        assertThat(ids(compat.rank("ZodError", hits))).containsExactly("h", "c", "new", "old");
        assertThat(ids(compat.rank("v3 ZodError", hits))).as("the query names the older version")
                .containsExactly("h", "c", "old", "new");
        // without the implementation among the candidates a header is no stub
        assertThat(ids(stubs.rank("IDNA encoding", List.of(hits.get(0), hits.get(2))))).containsExactly("h", "old");
    }

    @Test
    void aQuestionAboutCompatibilityCodeKeepsIt() {
        List<SearchHit> hits = List.of(hit("shim", "src/compat/io.py", "read_all", "function", 1.0),
                hit("old", "src/v1/api.go", "Get", "function", 0.9), hit("new", "src/v2/api.go", "Get", "function", 0.8),
                hit("io", "src/io.py", "read_all", "function", 0.7));
        RepositoryRanking compat = new RepositoryRanking(50, Map.of("compat", -3.0));
        assertThat(ids(compat.rank("read the whole stream", hits))).containsExactly("new", "io", "shim", "old");
        assertThat(ids(compat.rank("legacy compatibility shims for reading", hits)))
                .containsExactly("shim", "old", "new", "io");
        assertThat(PathPriors.asksForCompat(QueryTerms.of("deprecated features").words())).isTrue();
        assertThat(PathPriors.asksForCompat(QueryTerms.of("printf-compatible formatting").words())).isTrue();
        assertThat(PathPriors.asksForCompat(QueryTerms.of("compose functions").words())).isFalse();
    }

    @Test
    void aFileCompetesByItsBestChunkAndItsCandidatesCount() {
        List<SearchHit> hits = List.of(hit("a1", "src/A.java", "A.x", "method", 1.0),
                hit("a2", "src/A.java", "A.y", "method", 0.95), hit("b", "src/B.java", "B.z", "method", 0.5),
                hit("c1", "src/C.java", "C.p", "method", 0.45), hit("c2", "src/C.java", "C.q", "method", 0.2),
                hit("c3", "src/C.java", "C.r", "method", 0.1));
        RepositoryRanking perFile = new RepositoryRanking(50, Map.of("rankInFile", -3.0));
        // a2 has one better chunk of its file above it: 0.95 - 3 falls below every file's best chunk
        assertThat(ids(perFile.rank("compute the thing", hits)).subList(0, 4)).containsExactly("a1", "b", "c1", "a2");
        // log2(1 + 3) = 2 candidates' worth for C's chunks, log2(1 + 1) = 1 for B's: c1 0.45 + 0.2 beats b 0.5 + 0.1
        RepositoryRanking counted = perFile.withWeights(Map.of("fileCandidates.natural", 0.1));
        assertThat(ids(counted.rank("compute the thing", hits)).subList(0, 3)).containsExactly("a1", "c1", "b");
        assertThat(ids(counted.rank("ComputeThing", hits)).subList(0, 3)).as("natural-language queries only")
                .containsExactly("a1", "b", "c1");
    }

    @Test
    void theFileNamesCoveredShareSaysHowLittleElseTheNameSays() {
        QueryTerms t = QueryTerms.of("upsert statement for insert or update");
        assertThat(t.fileNameCovered("core/statements/UpsertStatement.kt")).isEqualTo(1);
        assertThat(t.fileNameCovered("core/statements/BatchUpsertStatement.kt")).isCloseTo(2 / 3.0, within(1e-9));
        assertThat(t.fileNameCovered("core/Table.kt")).isZero();
        List<SearchHit> hits = List.of(hit("batch", "core/BatchUpsertStatement.kt", "BatchUpsertStatement", "type", 1.0),
                hit("one", "core/UpsertStatement.kt", "UpsertStatement", "type", 0.8));
        RepositoryRanking covered = new RepositoryRanking(50, Map.of("fileNameCovered.natural", 1.0));
        assertThat(ids(covered.rank("upsert statement for insert or update", hits))).containsExactly("one", "batch");
    }

    @Test
    void wordsThatSayAFileHoldsHelpersAreNotPartOfItsSubject() {
        QueryTerms t = QueryTerms.of("boolean conversion and parsing helpers");
        assertThat(t.fileNameCovered("lang3/BooleanUtils.java")).isEqualTo(1);
        assertThat(t.fileNameCovered("lang3/Conversion.java")).isEqualTo(1);
        assertThat(t.fileNameCovered("lang3/CharSequenceUtils.java")).isZero();
        assertThat(t.fileNameCovered("src/string_helper_impl.py")).isZero();
        // a name of generic words only is judged by them
        assertThat(QueryTerms.of("helpers").fileNameCovered("src/utils.py")).isZero();
        assertThat(QueryTerms.of("shared helpers").fileNameCovered("src/helpers.py")).isEqualTo(1);
    }

    @Test
    void aMixedQueryIsASentenceFirst() {
        SearchHit prose = new SearchHit("doc", "text", Map.of(ChunkMetadata.PATH, "README.md", ChunkMetadata.TYPE,
                ChunkMetadata.TYPE_DOC), Map.of(), 1.0, 1.0, Map.of());
        List<SearchHit> hits = List.of(prose, hit("code", "src/Reader.java", "Reader.skip", "method", 0.8));
        String mixed = "how does JsonReader skip values";
        assertThat(RepositoryRanking.QueryKind.of(mixed)).isEqualTo(RepositoryRanking.QueryKind.MIXED);
        RepositoryRanking sentences = new RepositoryRanking(50, Map.of("doc.natural", -3.0));
        // the natural-language weight applies to mixed queries too ...
        assertThat(ids(sentences.rank(mixed, hits))).containsExactly("code", "doc");
        // ... plus the mixed one, which here cancels it; symbol queries keep their own
        assertThat(ids(sentences.withWeights(Map.of("doc.mixed", 3.0)).rank(mixed, hits))).containsExactly("doc", "code");
        assertThat(ids(sentences.rank("JsonReader", hits))).containsExactly("doc", "code");
        assertThat(sentences.weightOf("doc", RepositoryRanking.QueryKind.MIXED)).isEqualTo(-3.0);
        assertThat(sentences.withWeights(Map.of("doc.mixed", 3.0)).weightOf("doc", RepositoryRanking.QueryKind.MIXED)).isZero();
        assertThat(sentences.weightOf("doc", RepositoryRanking.QueryKind.SYMBOL)).isZero();
        assertThatThrownBy(() -> sentences.weightOf("nope", RepositoryRanking.QueryKind.MIXED))
                .hasMessageContaining("'nope'");
    }

    @Test
    void fileEvidenceLiftsTheBestChunkOfACoherentFile() {
        List<SearchHit> hits = List.of(hit("lone", "a/Lone.java", "Lone.x", "method", 1.0),
                hit("c1", "a/Coherent.java", "Coherent.a", "method", 0.9),
                hit("c2", "a/Coherent.java", "Coherent.b", "method", 0.5));
        RepositoryRanking files = new RepositoryRanking(50, Map.of("fileEvidence.natural", 0.3));
        // c1: 0.9 + 0.3 * 0.5 = 1.05 > 1.0
        assertThat(ids(files.rank("compute the thing", hits))).containsExactly("c1", "lone", "c2");
    }

    private static SearchHit legHit(String id, String path, int start, int end, double fused, Double bm25,
            Double dense) {
        Map<Leg, LegScore> legs = new EnumMap<>(Leg.class);
        if (bm25 != null) {
            legs.put(Leg.BM25, new LegScore(Leg.BM25, 1, bm25));
        }
        if (dense != null) {
            legs.put(Leg.DENSE, new LegScore(Leg.DENSE, 1, dense));
        }
        return new SearchHit(id, "text", Map.of(ChunkMetadata.PATH, path, ChunkMetadata.START_LINE,
                String.valueOf(start), ChunkMetadata.END_LINE, String.valueOf(end), ChunkMetadata.TYPE,
                ChunkMetadata.TYPE_CODE), Map.of(), fused, fused, legs);
    }

    @Test
    void theDenseLegsRelativeSimilarityWeighsByQueryKind() {
        // dense similarity is scaled to [0, 1] between the lowest and highest candidate: 0.9 -> 1, 0.6 -> 0
        List<SearchHit> hits = List.of(legHit("keyword", "a/K.java", 1, 40, 1.0, 12.0, 0.6),
                legHit("meaning", "a/M.java", 1, 40, 0.8, 3.0, 0.9));
        RepositoryRanking dense = new RepositoryRanking(50, Map.of("dense.natural", 1.0));
        List<SearchHit> ranked = dense.rank("how are the values spread out", hits);
        assertThat(ids(ranked)).containsExactly("meaning", "keyword");
        assertThat(ranked.get(0).rankSignals()).containsEntry("dense", 1.0);
        // an identifier query uses the symbol weight (0 here): the fused order stays
        assertThat(ids(dense.rank("ValueSpreader", hits))).containsExactly("keyword", "meaning");
        // BM25's score relative to the best candidate's: 12 -> 1, 3 -> 0.25
        RepositoryRanking bm25 = new RepositoryRanking(50, Map.of("bm25.natural", 1.0));
        assertThat(bm25.prepare("how are the values spread out", hits).parameterValues(1)
                [RepositoryRanking.PARAMETERS.indexOf("bm25.natural")]).isEqualTo(0.25);
    }

    @Test
    void theExactFileNameBeatsAFileThatOnlyStartsWithIt() {
        QueryTerms t = QueryTerms.of("SqlMapper");
        assertThat(t.fileNaming("src/SqlMapper.cs")).isEqualTo(1);
        assertThat(t.fileNaming("src/SqlMapper.Settings.cs")).as("the stem before the first dot, and more").isEqualTo(0.5);
        assertThat(QueryTerms.of("Transaction").fileNaming("core/Transactions.kt")).isEqualTo(1);
        assertThat(t.fileNaming("src/GridReader.cs")).isZero();
        List<SearchHit> hits = List.of(hit("part", "src/SqlMapper.Settings.cs", "SqlMapper", "type", 1.0),
                hit("main", "src/SqlMapper.cs", "SqlMapper", "type", 0.9));
        RepositoryRanking exact = new RepositoryRanking(50, Map.of("fileQueried.symbol", 1.0));
        assertThat(ids(exact.rank("SqlMapper", hits))).containsExactly("main", "part");
    }

    @Test
    void tinyAndSizeDescribeTheChunksLines() {
        List<SearchHit> hits = List.of(legHit("one", "a.go", 7, 7, 1.0, 1.0, null),
                legHit("long", "b.go", 1, 1000, 0.9, 0.9, null));
        RepositoryRanking.Candidates c = new RepositoryRanking(50, Map.of()).prepare("how are the command line flags parsed", hits);
        int tiny = RepositoryRanking.PARAMETERS.indexOf("tiny");
        int size = RepositoryRanking.PARAMETERS.indexOf("size");
        assertThat(c.parameterValues(0)[tiny]).isEqualTo(1);
        assertThat(c.parameterValues(1)[tiny]).isZero();
        assertThat(c.parameterValues(0)[size]).isZero(); // log10(1) / 3
        assertThat(c.parameterValues(1)[size]).isEqualTo(1); // log10(1000) / 3
        assertThat(c.base(1)).isEqualTo(0.9);
        // a natural-language query's values sit in the natural slots only
        assertThat(c.parameterValues(0)[RepositoryRanking.PARAMETERS.indexOf("bm25.natural")]).isEqualTo(1);
        assertThat(c.parameterValues(0)[RepositoryRanking.PARAMETERS.indexOf("bm25.symbol")]).isZero();
    }

    @Test
    void wholeRepositoryPutsCodeAboveProseAndOneChunkPerFile() {
        RepositoryRanking w = RepositoryRanking.wholeRepository();
        assertThat(w.isOff()).isFalse();
        assertThat(RepositoryRanking.defaults().isOff()).as("the library default holds any collection").isTrue();
        SearchHit prose = new SearchHit("doc", "text", Map.of(ChunkMetadata.PATH, "README.md", ChunkMetadata.TYPE,
                ChunkMetadata.TYPE_DOC), Map.of(), 1.0, 1.0, Map.of());
        List<SearchHit> hits = List.of(prose, hit("c1", "src/Reader.java", "Reader.read", "method", 0.9),
                hit("c2", "src/Reader.java", "Reader.skip", "method", 0.85),
                hit("w", "src/Writer.java", "Writer.write", "method", 0.5));
        // each file's best chunk first, code before prose; then a file's second chunk and the prose, both demoted
        List<String> ranked = ids(w.rank("how is input consumed", hits));
        assertThat(ranked.subList(0, 2)).containsExactly("c1", "w");
        assertThat(ranked).containsExactlyInAnyOrder("c1", "w", "c2", "doc");
        // an identifier found only in the documentation stays first: prose is demoted for sentences only
        assertThat(ids(w.rank("zqaapq", hits)).get(0)).isEqualTo("doc");
        // a C header falls below its implementation, an older version below the newer one
        List<SearchHit> twins = List.of(hit("h", "src/idna.h", "uv__idna_toascii", "function", 1.0),
                hit("c", "src/idna.c", "uv__idna_toascii", "function", 0.95),
                hit("v3", "src/v3/errors.ts", "ZodError", "type", 0.9),
                hit("v4", "src/v4/core/errors.ts", "ZodError", "type", 0.5));
        assertThat(ids(w.rank("domain name encoding", twins))).containsExactly("c", "h", "v4", "v3");
    }

    @Test
    void offLeavesTheListAloneAndUnknownParametersAreRefused() {
        List<SearchHit> hits = List.of(hit("a", "a.go", "A", "type", 1), hit("b", "b.go", "B", "type", 0.5));
        assertThat(RepositoryRanking.off().rank("B", hits)).isSameAs(hits);
        assertThatThrownBy(() -> new RepositoryRanking(10, Map.of("nope", 1.0))).hasMessageContaining("'nope'");
        assertThatThrownBy(() -> new RepositoryRanking(-1, Map.of())).hasMessageContaining("-1");
    }
}
