package dev.neuraltext.path;

import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A glob over paths relative to a root (forward slashes), with the syntax of a {@code .gitignore} line: the one
 * syntax of the command line's {@code --include} and {@code --exclude}, of the tool server's {@code path} argument,
 * of {@code .gitignore} files and of the test rules of {@link LanguageTable}.
 *
 * <ul>
 *   <li>A pattern without {@code /} matches a file or folder name at any depth: {@code *.md} takes
 *       {@code README.md} and {@code docs/guide/intro.md}; {@code generated} takes every folder so named.</li>
 *   <li>A pattern with a {@code /} at its start or in its middle is anchored to the root: {@code src/main},
 *       {@code /build} (the root's {@code build} only), {@code docs/*.md} (not {@code x/docs/a.md}).</li>
 *   <li>A trailing {@code /} matches folders only and does not anchor: {@code build/} takes every folder named
 *       {@code build}, not a file of that name.</li>
 *   <li>A pattern that matches a folder matches everything in it: {@code src/main} takes
 *       {@code src/main/java/A.java}.</li>
 *   <li>{@code *} and {@code ?} match within one name (never {@code /}); {@code **} spans folders:
 *       {@code **}{@code /test/**} is a {@code test} folder at any depth, {@code a/**}{@code /b} is {@code a/b},
 *       {@code a/x/b}, {@code a/x/y/b}; {@code [abc]}, {@code [a-z]} and {@code [!a-z]} match one character;
 *       <code>&#123;java,md&#125;</code> matches either word.</li>
 *   <li>A backslash before {@code * ? [ ] { } , ! #}, a space or a backslash makes it literal; any other backslash
 *       is a folder separator ({@code src\main} is {@code src/main}). White space around the pattern is dropped
 *       (unless escaped), and so is a leading {@code ./}.</li>
 * </ul>
 * Matching is case-sensitive. Immutable and thread-safe.
 */
public final class PathGlob {

    private static final String ESCAPABLE = "*?[]{},!# \\";

    private final String pattern;
    private final Pattern file;
    private final Pattern folder;

    private PathGlob(String pattern, Pattern file, Pattern folder) {
        this.pattern = pattern;
        this.file = file;
        this.folder = folder;
    }

    /**
     * The glob of {@code pattern}; see the class documentation for the syntax.
     *
     * @throws IllegalArgumentException if the pattern is null, blank, or malformed (an unclosed {@code [} or
     *                                  <code>&#123;</code>, an illegal character range); the message quotes it
     */
    public static PathGlob of(String pattern) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("glob pattern must not be blank, got '" + pattern + "'");
        }
        String p = separators(strip(pattern));
        while (p.startsWith("./")) {
            p = p.substring(2);
        }
        boolean folderOnly = p.endsWith("/") && !p.endsWith("\\/");
        if (folderOnly) {
            p = p.substring(0, p.length() - 1);
        }
        boolean anchored = p.contains("/");
        if (p.startsWith("/")) {
            p = p.substring(1);
        }
        if (p.isEmpty()) {
            throw new IllegalArgumentException("glob pattern '" + pattern + "' names no file or folder");
        }
        String body = (anchored ? "" : "(?:.*/)?") + toRegex(p, pattern);
        try {
            // a match of the path itself or of one of its folders; a folder-only pattern needs something below it
            Pattern asFile = Pattern.compile(body + (folderOnly ? "/.*" : "(?:/.*)?"), Pattern.DOTALL);
            Pattern asFolder = Pattern.compile(body + "(?:/.*)?", Pattern.DOTALL);
            return new PathGlob(pattern, asFile, asFolder);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid glob pattern '" + pattern + "': "
                    + e.getDescription().toLowerCase(Locale.ROOT), e);
        }
    }

    /**
     * Whether the file at {@code relativePath} (forward slashes, no leading slash) matches: the pattern matches the
     * path or one of its folders.
     */
    public boolean matches(String relativePath) {
        return file.matcher(relativePath).matches();
    }

    /** Whether the folder at {@code relativePath} matches: the pattern matches it or one of the folders above it. */
    public boolean matchesFolder(String relativePath) {
        return folder.matcher(relativePath).matches();
    }

    /** The pattern as given. */
    public String pattern() {
        return pattern;
    }

    @Override
    public String toString() {
        return pattern;
    }

    /** Without leading white space and without trailing white space that no backslash escapes. */
    private static String strip(String pattern) {
        String p = pattern.stripLeading();
        int end = p.length();
        while (end > 0 && Character.isWhitespace(p.charAt(end - 1)) && !(end > 1 && p.charAt(end - 2) == '\\')) {
            end--;
        }
        return p.substring(0, end);
    }

    /** Backslashes that escape nothing are folder separators: {@code src\main\A.java} is {@code src/main/A.java}. */
    private static String separators(String p) {
        StringBuilder sb = new StringBuilder(p.length());
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\' && i + 1 < p.length() && ESCAPABLE.indexOf(p.charAt(i + 1)) >= 0) {
                sb.append(c).append(p.charAt(++i));
            } else {
                sb.append(c == '\\' ? '/' : c);
            }
        }
        return sb.toString();
    }

    /** Translates a glob body to a regex: {@code **}{@code /} = any folders, {@code /**} at the end = anything below. */
    private static String toRegex(String glob, String original) {
        StringBuilder sb = new StringBuilder();
        int n = glob.length();
        int braces = 0;
        for (int i = 0; i < n; i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*':
                    if (i + 1 < n && glob.charAt(i + 1) == '*') {
                        boolean atStart = i == 0 || glob.charAt(i - 1) == '/';
                        if (atStart && i + 2 < n && glob.charAt(i + 2) == '/') {
                            sb.append("(?:.*/)?");
                            i += 2;
                        } else if (i > 0 && glob.charAt(i - 1) == '/' && i + 2 == n) {
                            // "dir/**": the dir itself and everything below it
                            sb.setLength(sb.length() - 1);
                            sb.append("(?:/.*)?");
                            i += 1;
                        } else {
                            sb.append(".*");
                            i += 1;
                        }
                    } else {
                        sb.append("[^/]*");
                    }
                    break;
                case '?':
                    sb.append("[^/]");
                    break;
                case '[': {
                    int close = glob.indexOf(']', i + 2);
                    if (close < 0) {
                        throw new IllegalArgumentException("glob pattern has an unclosed '[': '" + original
                                + "' (write [[] for a literal '[')");
                    }
                    String cls = glob.substring(i + 1, close);
                    if (cls.startsWith("!")) {
                        cls = "^" + cls.substring(1);
                    }
                    sb.append('[').append(cls.replace("\\", "\\\\").replace("[", "\\[")).append(']');
                    i = close;
                    break;
                }
                case '{':
                    braces++;
                    sb.append("(?:");
                    break;
                case '}':
                    if (braces > 0) {
                        braces--;
                        sb.append(')');
                    } else {
                        sb.append("\\}");
                    }
                    break;
                case ',':
                    sb.append(braces > 0 ? "|" : ",");
                    break;
                case '\\':
                    if (i + 1 < n) {
                        i++;
                        sb.append(Pattern.quote(String.valueOf(glob.charAt(i))));
                    }
                    break;
                default:
                    if ("().+^$|".indexOf(c) >= 0) {
                        sb.append('\\');
                    }
                    sb.append(c);
            }
        }
        if (braces > 0) {
            throw new IllegalArgumentException("glob pattern has an unclosed '{': '" + original + "'");
        }
        return sb.toString();
    }
}
