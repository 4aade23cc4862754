package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class GitIgnoreTest {

    @Test
    void gitignoreSubset() {
        GitIgnore root = GitIgnore.parse("", """
                # comment
                target/
                *.log
                !keep.log
                /build
                docs/**/draft-*.md
                \\#literal
                """);
        List<GitIgnore> stack = List.of(root);
        assertThat(GitIgnore.isIgnored(stack, "target", true)).isTrue();
        assertThat(GitIgnore.isIgnored(stack, "mod/target", true)).isTrue();
        assertThat(GitIgnore.isIgnored(stack, "target", false)).as("dir-only rule vs a file").isFalse();
        assertThat(GitIgnore.isIgnored(stack, "a/b/app.log", false)).isTrue();
        assertThat(GitIgnore.isIgnored(stack, "a/keep.log", false)).as("negation").isFalse();
        assertThat(GitIgnore.isIgnored(stack, "build", true)).isTrue();
        assertThat(GitIgnore.isIgnored(stack, "mod/build", true)).as("anchored").isFalse();
        assertThat(GitIgnore.isIgnored(stack, "docs/draft-1.md", false)).isTrue();
        assertThat(GitIgnore.isIgnored(stack, "docs/x/y/draft-1.md", false)).isTrue();
        assertThat(GitIgnore.isIgnored(stack, "other/draft-1.md", false)).isFalse();
        assertThat(GitIgnore.isIgnored(stack, "#literal", false)).isTrue();
        assertThat(GitIgnore.isIgnored(stack, "src/A.java", false)).isFalse();

        // a nested .gitignore applies below its folder and overrides the root's verdict
        GitIgnore nested = GitIgnore.parse("mod", "!*.log\n/local.txt\n");
        List<GitIgnore> deeper = List.of(root, nested);
        assertThat(GitIgnore.isIgnored(deeper, "mod/app.log", false)).isFalse();
        assertThat(GitIgnore.isIgnored(deeper, "other/app.log", false)).isTrue();
        assertThat(GitIgnore.isIgnored(deeper, "mod/local.txt", false)).isTrue();
        assertThat(GitIgnore.isIgnored(deeper, "mod/sub/local.txt", false)).isFalse();
    }
}
