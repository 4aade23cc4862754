package dev.neuraltext.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neuraltext.text.CodeDomainTokenizer.TermKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CodeDomainTokenizerTest {

    private final CodeDomainTokenizer tokenizer = CodeDomainTokenizer.standard();

    private List<String> tokens(String text) {
        return tokenizer.tokenize(text);
    }

    @Test
    void camelCaseGivesCompoundThenParts() {
        assertThat(tokens("ChatModel")).containsExactly("chatmodel", "chat", "model");
        assertThat(tokens("chatModel")).containsExactly("chatmodel", "chat", "model");
    }

    @Test
    void acronymsSplitBeforeTheLastCapital() {
        assertThat(tokens("HTTPServerConfig")).containsExactly("httpserverconfig", "http", "server", "config");
        assertThat(tokens("parseXMLDocument")).containsExactly("parsexmldocument", "parse", "xml", "document");
        assertThat(tokens("URL")).containsExactly("url");
    }

    @Test
    void digitsArePartsAndJoinTheLettersBefore() {
        assertThat(tokens("Base64Encoder")).containsExactly("base64encoder", "base", "64", "base64", "encoder");
        // the letters+digits join would equal the compound, so it is not emitted twice
        assertThat(tokens("utf8")).containsExactly("utf8", "utf", "8");
        assertThat(tokens("UTF_8")).containsExactly("utf8", "utf", "8");
        assertThat(tokens("LangChain4j")).containsExactly("langchain4j", "lang", "chain", "4", "chain4", "j");
        assertThat(tokens("2024")).containsExactly("2024");
    }

    @Test
    void underscoresSplitAndTheCompoundDropsThem() {
        assertThat(tokens("snake_case")).containsExactly("snakecase", "snake", "case");
        assertThat(tokens("MAX_VALUE")).containsExactly("maxvalue", "max", "value");
        assertThat(tokens("SCREAMING_SNAKE_CASE")).containsExactly("screamingsnakecase", "screaming", "snake", "case");
        assertThat(tokens("__init__")).containsExactly("init");
        assertThat(tokens("___")).isEmpty();
    }

    @Test
    void dottedNamesYieldEverySegmentWithItsParts() {
        assertThat(tokens("java.util.concurrent.ConcurrentHashMap")).containsExactly(
                "java", "util", "concurrent", "concurrenthashmap", "concurrent", "hash", "map");
    }

    @Test
    void annotationMatchesTheIdentifierAndItsWords() {
        List<String> annotation = tokens("@DefaultBean");
        assertThat(annotation).containsExactly("defaultbean", "default", "bean");
        assertThat(annotation).containsAll(tokens("DefaultBean"));
        assertThat(annotation).containsAll(tokens("default bean"));
    }

    @Test
    void genericsAndPunctuationSeparate() {
        assertThat(tokens("Map<String, List<Integer>> m = new HashMap<>();"))
                .containsExactly("map", "string", "list", "integer", "m", "new", "hashmap", "hash", "map");
        assertThat(tokens("foo(bar)->baz[0]::qux")).containsExactly("foo", "bar", "baz", "0", "qux");
    }

    @Test
    void nonAsciiLettersAreWordCharacters() {
        assertThat(tokens("Größe")).containsExactly("größe");
        assertThat(tokens("ÜberKlasse")).containsExactly("überklasse", "über", "klasse");
        assertThat(tokens("日本語のテキスト")).containsExactly("日本語のテキスト");
        // a combining acute accent stays with its letter and never starts a part
        assertThat(tokens("cafe\u0301Bar")).containsExactly("cafe\u0301bar", "cafe\u0301", "bar");
    }

    @Test
    void englishStopWordsAreDroppedOnlyAsStandAloneWords() {
        assertThat(tokens("the value of a field")).containsExactly("value", "field");
        assertThat(tokens("isEmpty")).containsExactly("isempty", "is", "empty");
        assertThat(tokens("toString")).containsExactly("tostring", "to", "string");
    }

    @Test
    void stopWordsWrittenAsCodeAreKept() {
        assertThat(tokens("Pair.of(a, b) is the way")).containsExactly("pair", "of", "b", "way");
        assertThat(tokens("range.is(x) and as(y)")).containsExactly("range", "is", "x", "as", "y");
        assertThat(tokens("it is. Of course")).containsExactly("course");
        CodeDomainTokenizer prose = CodeDomainTokenizer.builder().keepCodeStopWords(false).build();
        assertThat(prose.tokenize("Pair.of(a, b)")).containsExactly("pair", "b");
        assertThat(prose.id()).contains("stop=english+code");
    }

    @Test
    void javaKeywordsAreKeptByDefaultAndCanBeDropped() {
        assertThat(tokens("public static final int")).containsExactly("public", "static", "final", "int");
        CodeDomainTokenizer dropping = CodeDomainTokenizer.builder().dropJavaKeywords(true).build();
        assertThat(dropping.tokenize("public static final int count return")).containsExactly("count");
    }

    @Test
    void pluralStemmingAppliesToWordsAndPartsButNotCompounds() {
        assertThat(tokens("annotations entries classes class status")).containsExactly(
                "annotation", "entry", "classe", "class", "status");
        assertThat(tokens("getBytes")).containsExactly("getbytes", "get", "byte");
        CodeDomainTokenizer noStem = CodeDomainTokenizer.builder().stemming(false).build();
        assertThat(noStem.tokenize("annotations getBytes")).containsExactly("annotations", "getbytes", "get", "bytes");
    }

    @Test
    void aCustomStemmerReplacesThePluralStemmerAndNamesItself() {
        CodeDomainTokenizer custom = CodeDomainTokenizer.builder()
                .stemmer("cut3", t -> t.length() > 3 ? t.substring(0, 3) : t).build();
        assertThat(custom.tokenize("parsing ChatModel")).containsExactly("par", "chatmodel", "cha", "mod");
        assertThat(custom.id()).contains("stem=cut3-parts");
        CodeDomainTokenizer empty = CodeDomainTokenizer.builder().stemmer("empty", t -> "").build();
        assertThat(empty.tokenize("words")).containsExactly("words");
        assertThatThrownBy(() -> CodeDomainTokenizer.builder().stemmer("a,b", t -> t))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a,b");
    }

    @Test
    void termKindsAreReported() {
        List<String> seen = new ArrayList<>();
        tokenizer.tokenize("ChatModel model", (term, kind) -> seen.add(term + ":" + kind));
        assertThat(seen).containsExactly("chatmodel:COMPOUND", "chat:PART", "model:PART", "model:WORD");
        List<TermKind> kinds = new ArrayList<>();
        tokenizer.tokenize("x", (term, kind) -> kinds.add(kind));
        assertThat(kinds).containsExactly(TermKind.WORD);
    }

    @Test
    void customStopWordsAndLongTerms() {
        CodeDomainTokenizer custom = CodeDomainTokenizer.builder().stopWords(List.of("Foo")).maxTermLength(5).build();
        // foobar (6 chars) is too long, its parts stay; stop words stay as parts of an identifier
        assertThat(custom.tokenize("foo bar FOO abcdef FooBar")).containsExactly("bar", "foo", "bar");
        assertThatThrownBy(() -> CodeDomainTokenizer.builder().maxTermLength(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    }

    @Test
    void idDescribesTheConfiguration() {
        assertThat(tokenizer.id()).isEqualTo(CodeDomainTokenizer.builder().build().id())
                .isEqualTo("code-v2(stop=english,digits=split+join,stem=minimal-plural-parts,maxTermLength=255)");
        assertThat(CodeDomainTokenizer.builder().dropJavaKeywords(true).build().id()).contains("stop=english+java");
        assertThat(CodeDomainTokenizer.builder().stopWords(List.of("x", "y")).build().id()).contains("stop=custom:2:");
        assertThat(CodeDomainTokenizer.builder().stopWords(List.of()).build().id()).contains("stop=none");
    }

    @Test
    void nullIsACallerMistake() {
        assertThatThrownBy(() -> tokenizer.tokenize(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void generatedIdentifiersYieldTheirCompoundAndEveryPart() {
        Random random = new Random(7);
        String[] words = {"chat", "model", "http", "server", "hash", "map", "value", "builder", "io"};
        for (int n = 0; n < 2_000; n++) {
            int count = 2 + random.nextInt(4);
            StringBuilder camel = new StringBuilder();
            StringBuilder compound = new StringBuilder();
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String w = words[random.nextInt(words.length)];
                parts.add(w);
                compound.append(w);
                camel.append(i == 0 ? w : Character.toUpperCase(w.charAt(0)) + w.substring(1));
            }
            List<String> terms = tokens(camel.toString());
            assertThat(terms.get(0)).as(camel.toString()).isEqualTo(compound.toString());
            assertThat(terms.subList(1, terms.size())).as(camel.toString()).containsExactlyElementsOf(parts);
            assertThat(tokens(String.join("_", parts).toUpperCase(Locale.ROOT))).as("screaming " + camel)
                    .isEqualTo(terms);
        }
    }

    @Test
    void neverThrowsOnRandomInput() {
        Random random = new Random(42);
        for (int n = 0; n < 10_000; n++) {
            String text = RandomText.next(random);
            List<String> terms = tokenizer.tokenize(text);
            for (String term : terms) {
                boolean wordChars = term.codePoints().allMatch(cp -> IdentifierSplitter.isWordChar(cp) && cp != '_');
                if (term.isEmpty() || term.length() > 255 || !wordChars) {
                    throw new AssertionError("bad term '" + term + "' from input '" + text + "'");
                }
            }
        }
    }

    /** Inputs that once looked risky; replayed through both the tokenizer and the expander. */
    static final List<String> NASTY = List.of("", "\uD800", "\uDC00\uD800", "a\uD800b", "x\u0000y\u001Fz",
            "\uD835\uDD18\uD835\uDD2B\uD835\uDD26", "İSTANBULİst", "\u0301\u0301", "_\u0301_", "a_\u0301B",
            "ǅǅa", "ΣΑΣ_σας", "ﬃ", "\uFEFF\u200BWord", "9_9_9", "A9a9A9", "$__$", "a.b.", ".of(", "of.", "(is)");

    @Test
    void nastyInputsNeverThrowAndGiveCleanTerms() {
        for (String text : NASTY) {
            for (String term : tokenizer.tokenize(text)) {
                assertThat(term).as(text).isNotEmpty().doesNotContain("_", " ", ".");
            }
            String expanded = CamelCaseExpander.expand(text);
            assertThat(CamelCaseExpander.expand(expanded)).as(text).isEqualTo(expanded);
        }
        assertThat(tokens("\uD835\uDD18\uD835\uDD2B")).hasSize(1); // supplementary letters are one word
        assertThat(tokens("x\uD800y")).containsExactly("x", "y"); // a lone surrogate separates
    }

    @Test
    void veryLongIdentifiersDropTheCompoundButKeepParts() {
        String longName = "Abc".repeat(200_000);
        List<String> terms = tokenizer.tokenize(longName);
        assertThat(terms).hasSize(200_000).allMatch("abc"::equals);
        assertThat(tokenizer.tokenize("x".repeat(1_000_000))).isEmpty();
    }

    @Test
    void isSafeForConcurrentUse() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        if (!tokenizer.tokenize("HTTPServerConfig snake_case " + i)
                                .equals(List.of("httpserverconfig", "http", "server", "config", "snakecase", "snake",
                                        "case", Integer.toString(i)))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : futures) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void wordsAreThePartsWithDigitsJoinedAndEachIsATerm() {
        assertThat(tokenizer.words("ZodError max-retry-count base64Encoder v3 LangChain4j x86_64"))
                .containsExactly("zod", "error", "max", "retry", "count", "base64", "encoder", "v3", "lang", "chain4",
                        "j", "x86", "64");
        assertThat(tokenizer.words("the isEmpty")).as("no stop words dropped, no stemming").containsExactly("the",
                "is", "empty");
        for (String text : List.of("ZodError base64Encoder v3 LangChain4j x86_64 HTTPServer", "max-retry-count")) {
            List<String> terms = CodeDomainTokenizer.builder().stemming(false).stopWords(List.of()).build()
                    .tokenize(text);
            assertThat(terms).as(text).containsAll(tokenizer.words(text));
        }
        assertThat(tokenizer.words("  ,; ")).isEmpty();
    }

    @Test
    void stemIsTheTokenizersStemmer() {
        assertThat(tokenizer.stem("policies")).isEqualTo("policy");
        assertThat(tokenizer.stem("args")).isEqualTo("arg");
        assertThat(tokenizer.stem("status")).isEqualTo("status");
        assertThat(CodeDomainTokenizer.builder().stemming(false).build().stem("args")).isEqualTo("args");
        assertThat(CodeDomainTokenizer.builder().stemmer("upper", String::toUpperCase).build().stem("a"))
                .isEqualTo("A");
    }
}
