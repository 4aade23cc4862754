package dev.neuraltext.path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules of {@code languages.yaml}, each checked on the paths it is for and on a near miss. */
class LanguageTableTest {

    private static final LanguageTable TABLE = LanguageTable.standard();

    @Test
    void extensionsAndNamesGiveTheLanguageAndOthersGiveNone() {
        assertThat(TABLE.languageOf("Shapes.KT")).isEqualTo("kotlin");
        assertThat(TABLE.languageOf("types.d.ts")).as("the last extension decides").isEqualTo("typescript");
        assertThat(TABLE.languageOf("Makefile")).isEqualTo("makefile");
        assertThat(TABLE.languageOf("Dockerfile")).isEqualTo("dockerfile");
        assertThat(TABLE.languageOf("Gemfile")).isEqualTo("ruby");
        assertThat(TABLE.languageOf("README")).isEqualTo("text");
        assertThat(TABLE.languageOf("report.cobol")).as("a language absent from the table").isNull();
        assertThat(TABLE.languageOf("Jenkinsfile")).as("an extensionless name absent from the table").isNull();
        assertThat(TABLE.languageOf(".bashrc")).as("a leading dot is no extension").isNull();
        assertThat(TABLE.languageOf("Makefile.in")).isNull();
    }

    @Test
    void shebangInterpretersExactThenLongestPrefixThenTheCatchAll() {
        assertThat(TABLE.interpreterLanguage("bash")).isEqualTo("shell");
        assertThat(TABLE.interpreterLanguage("fish")).isEqualTo("shell");
        assertThat(TABLE.interpreterLanguage("python3.12")).isEqualTo("python");
        assertThat(TABLE.interpreterLanguage("node")).isEqualTo("javascript");
        assertThat(TABLE.interpreterLanguage("ts-node")).isEqualTo("typescript");
        assertThat(TABLE.interpreterLanguage("runhaskell")).isEqualTo("haskell");
        assertThat(TABLE.interpreterLanguage("luajit")).isEqualTo("lua");
        assertThat(TABLE.interpreterLanguage("make")).isEqualTo("makefile");
        assertThat(TABLE.interpreterLanguage("perl5")).isEqualTo("perl");
        assertThat(TABLE.interpreterLanguage("shh")).as("sh is exact, not a prefix").isEqualTo("script");
        assertThat(TABLE.interpreterLanguage("osascript")).isEqualTo("script");
    }

    @Test
    void chunkersAndProse() {
        assertThat(TABLE.language("java").orElseThrow().chunking()).isEqualTo(Language.Chunking.JAVA);
        assertThat(TABLE.language("markdown").orElseThrow().chunking()).isEqualTo(Language.Chunking.MARKDOWN);
        assertThat(TABLE.language("zig").orElseThrow().chunking()).as("no zig grammar on Maven Central")
                .isEqualTo(Language.Chunking.TEXT);
        assertThat(TABLE.syntaxLanguages()).contains("kotlin", "python", "tsx", "shell").doesNotContain("zig", "java");
        assertThat(TABLE.language("rst").orElseThrow().prose()).isTrue();
        assertThat(TABLE.language("yaml").orElseThrow().prose()).isFalse();
        assertThat(TABLE.language("cobol")).isEmpty();
    }

    @Test
    void headersAndTheSourcesTheyDeclare() {
        assertThat(TABLE.isHeader("h")).isTrue();
        assertThat(TABLE.isHeader("hpp")).isTrue();
        assertThat(TABLE.isHeader("c")).isFalse();
        assertThat(TABLE.isSourceWithHeaders("cc")).isTrue();
        assertThat(TABLE.isSourceWithHeaders("c")).isTrue();
        assertThat(TABLE.isSourceWithHeaders("h")).isFalse();
        assertThat(TABLE.isSourceWithHeaders("go")).as("a language without headers").isFalse();
    }

    @Test
    void aTestSourceOfEachLanguageAndItsNonTestSibling() {
        Map<String, String> testAndSource = Map.ofEntries(Map.entry("FooTest.java", "Foo.java"),
                Map.entry("FooIT.java", "Fit.java"), Map.entry("CartSpec.kt", "Cart.kt"),
                Map.entry("LedgerSuite.scala", "Ledger.scala"), Map.entry("queue_test.go", "queue.go"),
                Map.entry("test_inventory.py", "inventory.py"), Map.entry("router.test.js", "router.js"),
                Map.entry("cart.spec.ts", "cart.ts"), Map.entry("App.test.tsx", "App.tsx"),
                Map.entry("matrix_test.rs", "matrix.rs"), Map.entry("test_buffer.c", "buffer.c"),
                Map.entry("graph_test.cc", "graph.cc"), Map.entry("AccountTests.cs", "Account.cs"),
                Map.entry("greeter_spec.rb", "greeter.rb"), Map.entry("UserRepositoryTest.php", "UserRepository.php"),
                Map.entry("AppTests.swift", "App.swift"), Map.entry("stack_test.exs", "stack.ex"),
                Map.entry("ParseSpec.hs", "Parse.hs"), Map.entry("timer_spec.lua", "timer.lua"),
                Map.entry("run.bats", "run.sh"), Map.entry("args_test.zig", "args.zig"));
        testAndSource.forEach((test, source) -> {
            assertThat(TABLE.testSourceRule("lib/" + test, false)).as(test).isPresent();
            assertThat(TABLE.testSourceRule("lib/" + source, false)).as(source).isEmpty();
        });
        assertThat(TABLE.testSourceRule("mod/src/test", true)).contains("**/src/test/**");
        assertThat(TABLE.testSourceRule("web/__tests__/a.js", false)).contains("**/__tests__/**");
        assertThat(TABLE.testSourceRule("Latest.java", false)).as("case as written").isEmpty();
        assertThat(TABLE.testSourceRules()).startsWith("**/src/test/**").contains("*_test.go", "*.bats");
    }

    @Test
    void pathKindsOfTestsExamplesVendoredAndGeneratedFiles() {
        assertThat(TABLE.kindsOf("lib/bats-core/test_functions.bash")).containsExactly("test");
        assertThat(TABLE.kindsOf("src/testdata/input.txt")).containsExactly("test");
        assertThat(TABLE.kindsOf("Sources/Fixtures/a.swift")).as("folders in any case").containsExactly("test");
        assertThat(TABLE.kindsOf("src/FooTest.py")).as("the class-name convention").containsExactly("test");
        assertThat(TABLE.kindsOf("src/latest.py")).isEmpty();
        assertThat(TABLE.kindsOf("mod/src/it/Check.java")).as("test sources are tests").containsExactly("test");
        assertThat(TABLE.kindsOf("example/app.go")).containsExactly("example");
        assertThat(TABLE.kindsOf("src/com/example/App.java")).as("example/ counts at the top only").isEmpty();
        assertThat(TABLE.kindsOf("lib/vendor/x.go")).containsExactly("vendored");
        assertThat(TABLE.kindsOf("api/service.pb.go")).containsExactly("generated");
        assertThat(TABLE.kindsOf("api/service_pb2.py")).containsExactly("generated");
        assertThat(TABLE.kindsOf("dist/app.min.js")).containsExactly("generated");
        assertThat(TABLE.kindsOf("src/gen/Parser.java")).containsExactly("generated");
        assertThat(TABLE.kindsOf("src/general/Parser.java")).isEmpty();
        assertThat(TABLE.kindsOf("src/v3/compat_errors.ts")).containsExactly("compat");
        assertThat(TABLE.kindsOf("src/compatible.ts")).as("a whole word of the stem").isEmpty();
        assertThat(TABLE.kindsOf("types/index.ts")).containsExactly("stub", "barrel");
        assertThat(TABLE.kindsOf("src/index.d.ts")).containsExactly("stub");
        assertThat(TABLE.kindsOf("src/unix/poll.c")).isEmpty();
        assertThat(TABLE.kindsOf("src/win/poll.c")).containsExactly("platform");
        assertThat(TABLE.kindsOf("poll_windows.go")).containsExactly("platform");
        assertThat(TABLE.kindsOf("_windows.go")).isEmpty();
        assertThat(TABLE.queryPrefixes("compat")).contains("deprecat", "legacy");
        assertThatThrownBy(() -> TABLE.queryPrefixes("nonsense")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no path kind 'nonsense'");
    }

    @Test
    void aTableWithAnUnknownKeyOrATwiceGivenExtensionIsRefused() {
        Map<String, Object> typo = Map.of("languages", Map.of("go", Map.of("extension", List.of("go"))),
                "pathKinds", Map.of());
        assertThatThrownBy(() -> LanguageTable.parse(typo)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unknown key 'extension' in go");
        Map<String, Object> twice = Map.of("languages", Map.of("c", Map.of("extensions", List.of("h")),
                "cpp", Map.of("extensions", List.of("h"))), "pathKinds", Map.of());
        assertThatThrownBy(() -> LanguageTable.parse(twice)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("extension 'h' given to");
        Map<String, Object> chunker = Map.of("languages", Map.of("go", Map.of("chunker", "tree")),
                "pathKinds", Map.of());
        assertThatThrownBy(() -> LanguageTable.parse(chunker)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("go.chunker must be java, markdown, syntax or text, got 'tree'");
    }
}
