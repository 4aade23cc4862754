package dev.neuraltext.retrieve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TwinFilesTest {

    @Test
    void aHeaderIsADeclarationTwinOnlyWhenItsImplementationIsACandidate() {
        boolean[][] t = TwinFiles.of(QueryTerms.of("IDNA encoding").words(),
                List.of("src/idna.h", "src/idna.c", "src/uv-common.h",
                "include/uv/tree.hpp", "src/tree.cpp", "src/inet.C"));
        assertThat(t[0][0]).as("idna.h beside idna.c").isTrue();
        assertThat(t[1][0]).as("the implementation itself").isFalse();
        assertThat(t[2][0]).as("a header without its implementation").isFalse();
        assertThat(t[3][0]).as("a C++ header, implementation in another folder").isTrue();
        assertThat(t[4][0]).isFalse();
    }

    @Test
    void aHeaderOnlyLibraryHasNoTwins() {
        boolean[][] t = TwinFiles.of(QueryTerms.of("format").words(),
                List.of("include/fmt/format.h", "include/fmt/core.h"));
        assertThat(t[0][0]).isFalse();
        assertThat(t[1][0]).isFalse();
    }

    @Test
    void aFileUnderAnOlderVersionFolderIsSupersededByANewerSiblingVersion() {
        List<String> paths = List.of("src/v3/ZodError.ts", "src/v4/core/errors.ts", "src/v4/classic/errors.ts",
                "lib/v1/api.go", "src/v3/types.ts");
        boolean[][] t = TwinFiles.of(QueryTerms.of("ZodError").words(), paths);
        assertThat(t[0][1]).as("v3 beside a v4 candidate").isTrue();
        assertThat(t[1][1]).as("the newest version").isFalse();
        assertThat(t[3][1]).as("v1 under another parent has no newer sibling").isFalse();
        assertThat(t[4][1]).isTrue();
        assertThat(t[0][0]).as("no declaration twin").isFalse();
    }

    @Test
    void aQueryNamingTheOlderVersionKeepsIt() {
        boolean[][] t = TwinFiles.of(QueryTerms.of("v3 compatibility error types").words(),
                List.of("src/v3/errors.ts", "src/v4/errors.ts"));
        assertThat(t[0][1]).isFalse();
    }

    @Test
    void onlyVersionFoldersCountNotFilesOrOtherNames() {
        boolean[][] t = TwinFiles.of(QueryTerms.of("routing").words(),
                List.of("api/v2.go", "api/v3.go", "src/vendor/x.go", "src/v10/x.go",
                "src/v9/x.go", "src/version2/a.go", "src/version3/a.go"));
        assertThat(t[0][1]).as("a file named v2 is not a folder").isFalse();
        assertThat(t[2][1]).isFalse();
        assertThat(t[3][1]).as("v10 is newer than v9").isFalse();
        assertThat(t[4][1]).isTrue();
        assertThat(t[5][1]).isFalse();
    }
}
