package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IssueTextTest {

    private static final String TRACEBACK = """
            Unexpected error when calling separability_matrix on nested models

            Running the snippet below fails:

            ```python
            from astropy.modeling import models as m
            cm = m.Linear1D(10) & m.Linear1D(5)
            ```

            Traceback (most recent call last):
              File "/home/user/venv/lib/python3.9/site-packages/astropy/modeling/core.py", line 912, in __call__
                return self.evaluate(*args)
              File "/home/user/venv/lib/python3.9/site-packages/astropy/modeling/separable.py", line 242, in _cstack
                cright = _coord_matrix(right, 'right', noutp)
            ValueError: operands could not be broadcast together
            """;

    @Test
    void tracebackFramesLoseTheirInstallPrefixAndComeInnermostLast() {
        IssueText issue = IssueText.parse(TRACEBACK);
        assertThat(issue.frames()).isEqualTo(2);
        assertThat(issue.paths()).startsWith("home/user/venv/lib/python3.9/site-packages/astropy/modeling/core.py",
                "home/user/venv/lib/python3.9/site-packages/astropy/modeling/separable.py");
        assertThat(IssueText.pathSuffixes(issue.paths().get(1))).contains("astropy/modeling/separable.py",
                "modeling/separable.py", "separable.py");
        // the innermost frame is the strongest
        assertThat(IssueRanking.frame(issue, "astropy/modeling/separable.py")).isEqualTo(1.0);
        assertThat(IssueRanking.frame(issue, "astropy/modeling/core.py")).isEqualTo(0.5);
        assertThat(IssueRanking.frame(issue, "astropy/modeling/fitting.py")).isZero();
        assertThat(issue.identifiers()).contains("_cstack", "ValueError", "Linear1D");
    }

    @Test
    void windowsPathsAndPathsWithLineNumbers() {
        IssueText issue = IssueText.parse("""
                Crash on Windows when the config has a BOM

                The error comes from C:\\Users\\dev\\AppData\\Python\\site-packages\\pylint\\config\\arguments_manager.py:241
                and also src/_pytest/pathlib.py:55:10 looks wrong.
                """);
        assertThat(issue.paths()).contains("Users/dev/AppData/Python/site-packages/pylint/config/arguments_manager.py",
                "src/_pytest/pathlib.py");
        assertThat(IssueRanking.pathMention(issue.paths(), "pylint/config/arguments_manager.py",
                java.util.Map.of())).isEqualTo(1.0);
    }

    @Test
    void dottedModulesNameFilesAndTheirPackages() {
        IssueText issue = IssueText.parse("""
                check_array rejects nullable dtypes

                Calling sklearn.utils.validation.check_array on a frame with pandas nullable dtypes raises.
                The helper in sphinx.ext.autodoc is fine. Version 1.2.3 and example.com are not modules.
                """);
        assertThat(issue.modules()).contains("sklearn.utils.validation.check_array", "sphinx.ext.autodoc")
                .doesNotContain("example.com");
        assertThat(IssueText.moduleFiles("sklearn.utils.validation.check_array"))
                .contains("sklearn/utils/validation.py", "sklearn/utils/validation/__init__.py");
        assertThat(IssueRanking.moduleMention(issue.modules(), "sklearn/utils/validation.py")).isEqualTo(1.0);
        assertThat(IssueRanking.moduleMention(issue.modules(), "sphinx/ext/autodoc/__init__.py")).isEqualTo(1.0);
        assertThat(IssueRanking.moduleMention(issue.modules(), "sklearn/utils/extmath.py")).isZero();
    }

    @Test
    void codeSpanAndCodeBlockIdentifiersButNotKeywords() {
        IssueText issue = IssueText.parse("""
                `autodoc_typehints = "description"` ignores `autoclass_content`

                With this conf the return type is lost:

                ```
                def setup(app):
                    return {"parallel_read_safe": True}
                ```
                """);
        assertThat(issue.identifiers()).contains("autodoc_typehints", "autoclass_content", "setup",
                "parallel_read_safe").doesNotContain("def", "return", "True");
    }

    @Test
    void aFileNamedWrongStillGivesTheRightOneTheOtherEvidence() {
        // the reporter blames utils.py, but the traceback's innermost frame and the function are elsewhere
        IssueText issue = IssueText.parse("""
                Bug in utils.py: wrong rounding of durations

                I think the problem is in utils.py. Traceback:

                  File "/opt/app/lib/timekit/format.py", line 10, in format_duration
                ZeroDivisionError: division by zero
                """);
        assertThat(issue.paths()).contains("utils.py", "opt/app/lib/timekit/format.py");
        assertThat(IssueRanking.frame(issue, "timekit/format.py")).isEqualTo(1.0);
        assertThat(IssueRanking.frame(issue, "timekit/utils.py")).isZero();
        // a bare file name shared by two candidate files counts half for each
        assertThat(IssueRanking.pathMention(issue.paths(), "timekit/utils.py",
                java.util.Map.of("utils.py", 2))).isEqualTo(0.5);
        assertThat(issue.identifiers()).contains("format_duration", "ZeroDivisionError");
    }

    @Test
    void jvmStackFramesNameTheirFiles() {
        IssueText issue = IssueText.parse("""
                NPE when the pool is closed twice
                java.lang.NullPointerException
                    at com.example.pool.Pool$Entry.release(Pool.java:88)
                    at com.example.pool.Pool.close(Pool.java:120)
                """);
        assertThat(issue.paths()).contains("com/example/pool/Pool.java");
        assertThat(IssueRanking.pathMention(issue.paths(), "src/main/java/com/example/pool/Pool.java",
                java.util.Map.of())).isEqualTo(1.0);
        assertThat(issue.identifiers()).contains("release", "close", "NullPointerException");
    }

    @Test
    void onlyLongStructuredTextReadsAsAnIssue() {
        assertThat(IssueText.looksLikeIssue("how are custom serializers registered")).isFalse();
        assertThat(IssueText.looksLikeIssue(TRACEBACK)).isTrue();
        assertThat(IssueText.looksLikeIssue("word ".repeat(30))).isFalse();
    }

    @Test
    void stemsAndFoldersAsIssueWords() {
        var words = IssueRanking.wordCounts("autodoc fails; the napoleon docstring parser and autodoc again");
        assertThat(IssueRanking.stem("sphinx/ext/autodoc/__init__.py")).isEqualTo("autodoc");
        assertThat(words.get("autodoc")).isEqualTo(2);
        assertThat(IssueRanking.folderShare("sphinx/ext/napoleon/docstring.py", words)).isEqualTo(0.5);
    }
}
