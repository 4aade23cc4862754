package dev.neuraltext.path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** One test per rule of {@link PathGlob}'s Javadoc. */
class PathGlobTest {

    private static boolean file(String pattern, String path) {
        return PathGlob.of(pattern).matches(path);
    }

    private static boolean folder(String pattern, String path) {
        return PathGlob.of(pattern).matchesFolder(path);
    }

    @Test
    void aPatternWithoutASlashMatchesANameAtAnyDepth() {
        assertThat(file("*.md", "README.md")).isTrue();
        assertThat(file("*.md", "docs/deep/guide.md")).isTrue();
        assertThat(file("*.md", "guide.mdx")).isFalse();
        assertThat(file("generated", "src/generated/A.java")).isTrue();
        assertThat(folder("generated", "a/b/generated")).isTrue();
        assertThat(file("generated", "src/generated.java")).isFalse();
    }

    @Test
    void aSlashAtTheStartOrInTheMiddleAnchorsToTheRoot() {
        assertThat(file("src/main/**", "src/main/java/A.java")).isTrue();
        assertThat(folder("src/main/**", "src/main")).isTrue();
        assertThat(file("src/main/**", "x/src/main/A.java")).isFalse();
        assertThat(file("docs/*.md", "docs/a.md")).isTrue();
        assertThat(file("docs/*.md", "x/docs/a.md")).isFalse();
        assertThat(folder("/build", "build")).isTrue();
        assertThat(folder("/build", "mod/build")).as("a leading / anchors").isFalse();
        assertThat(folder("build", "mod/build")).isTrue();
    }

    @Test
    void aTrailingSlashMatchesFoldersOnlyAtAnyDepth() {
        assertThat(folder("build/", "build")).isTrue();
        assertThat(folder("build/", "mod/build")).as("a trailing / does not anchor").isTrue();
        assertThat(file("build/", "mod/build/out.txt")).isTrue();
        assertThat(file("build/", "build")).as("a file named build").isFalse();
        assertThat(file("build", "build")).isTrue();
    }

    @Test
    void aPatternMatchingAFolderMatchesEverythingInIt() {
        assertThat(file("src/main", "src/main/java/A.java")).isTrue();
        assertThat(file("src/main", "src/mainly/A.java")).as("whole names, not a string prefix").isFalse();
        assertThat(file("docs", "docs/guide/intro.md")).isTrue();
        assertThat(file("src/*", "src/main/x/A.java")).isTrue();
        assertThat(file("src/*/A.java", "src/main/A.java")).isTrue();
        assertThat(file("src/*/A.java", "src/main/x/A.java")).isFalse();
    }

    @Test
    void starsAndQuestionMarksStayWithinANameAndTwoStarsSpanFolders() {
        assertThat(file("src/*.java", "src/a/B.java")).isFalse();
        assertThat(file("file?.txt", "file1.txt")).isTrue();
        assertThat(file("file?.txt", "file/.txt")).isFalse();
        assertThat(file("**/src/test/**", "src/test/A.java")).isTrue();
        assertThat(file("**/src/test/**", "mod/src/test/A.java")).isTrue();
        assertThat(file("a/**/b", "a/b")).isTrue();
        assertThat(file("a/**/b", "a/x/y/b")).isTrue();
        assertThat(file("a/**/b", "x/a/b")).isFalse();
        assertThat(file("**", "any/thing")).isTrue();
    }

    @Test
    void classesAndBraces() {
        assertThat(file("**/*.{java,md}", "a/b/C.java")).isTrue();
        assertThat(file("**/*.{java,md}", "C.md")).isTrue();
        assertThat(file("*.{java,md}", "notes.txt")).isFalse();
        assertThat(file("[!a]*.txt", "b.txt")).isTrue();
        assertThat(file("[!a]*.txt", "a.txt")).isFalse();
        assertThat(file("[a-c]x", "bx")).isTrue();
        assertThat(file("a+b(1).txt", "a+b(1).txt")).isTrue();
    }

    @Test
    void backslashesEscapeGlobCharactersAndOtherwiseSeparateFolders() {
        assertThat(file("\\*.md", "*.md")).isTrue();
        assertThat(file("\\*.md", "a.md")).isFalse();
        assertThat(file("src\\main\\A.java", "src/main/A.java")).isTrue();
        assertThat(file("./src/main", "src/main/A.java")).isTrue();
        assertThat(file("  *.md  ", "a.md")).isTrue();
    }

    @Test
    void matchingIsCaseSensitive() {
        assertThat(file("*Test.java", "FooTest.java")).isTrue();
        assertThat(file("*Test.java", "Latest.java")).isFalse();
        assertThat(file("**/Tests/**", "Sources/tests/A.swift")).isFalse();
    }

    @Test
    void malformedPatternsAreRejectedWithTheirText() {
        assertThatThrownBy(() -> PathGlob.of("[")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unclosed '['").hasMessageContaining("'['");
        assertThatThrownBy(() -> PathGlob.of("{a,b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unclosed '{'");
        assertThatThrownBy(() -> PathGlob.of("[z-a]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid glob pattern '[z-a]'");
        assertThatThrownBy(() -> PathGlob.of(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> PathGlob.of("/")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no file or folder");
    }
}
