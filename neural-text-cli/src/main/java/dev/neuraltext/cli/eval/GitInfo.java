package dev.neuraltext.cli.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the current commit from {@code .git} without running git. */
final class GitInfo {

    private GitInfo() {
    }

    /** The commit of the working directory's repository, else of the repository these classes were built in. */
    static String commit() {
        String c = commit(Path.of("").toAbsolutePath());
        if (!c.startsWith("unknown")) {
            return c;
        }
        try {
            return commit(Path.of(GitInfo.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return c;
        }
    }

    /** The commit id of HEAD for the repository containing {@code dir}, or {@code "unknown"}. */
    static String commit(Path dir) {
        for (Path d = dir; d != null; d = d.getParent()) {
            Path git = d.resolve(".git");
            if (Files.isDirectory(git)) {
                try {
                    String head = Files.readString(git.resolve("HEAD"), StandardCharsets.UTF_8).trim();
                    if (!head.startsWith("ref: ")) {
                        return head;
                    }
                    String ref = head.substring(5).trim();
                    Path refFile = git.resolve(ref);
                    if (Files.isRegularFile(refFile)) {
                        return Files.readString(refFile, StandardCharsets.UTF_8).trim();
                    }
                    Path packed = git.resolve("packed-refs");
                    if (Files.isRegularFile(packed)) {
                        for (String line : Files.readAllLines(packed, StandardCharsets.UTF_8)) {
                            if (line.endsWith(" " + ref)) {
                                return line.substring(0, line.indexOf(' '));
                            }
                        }
                    }
                } catch (IOException e) {
                    return "unknown (" + e.getMessage() + ")";
                }
                return "unknown";
            }
        }
        return "unknown";
    }
}
