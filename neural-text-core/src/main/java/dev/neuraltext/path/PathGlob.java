package dev.neuraltext.ingest;

import java.util.regex.Pattern;

/**
 * Glob patterns over relative paths with forward slashes: {@code *} and {@code ?} stop at {@code /}, {@code **}
 * crosses directories ({@code **}{@code /} also matches no directory), {@code [abc]}, {@code [!a-z]} and
 * {@code {a,b}} as usual. Immutable.
 */
final class Glob {

    private final String pattern;
    private final Pattern regex;

    private Glob(String pattern, Pattern regex) {
        this.pattern = pattern;
        this.regex = regex;
    }

    /**
     * A glob for include and exclude options: a pattern without {@code /} matches a file or directory name at any
     * depth ({@code *.md}), a pattern with {@code /} matches the whole relative path ({@code src/main/**}); a leading
     * {@code /} is ignored.
     */
    static Glob of(String pattern) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("glob pattern must not be blank, got '" + pattern + "'");
        }
        String p = pattern.trim().replace('\\', '/');
        if (p.startsWith("/")) {
            p = p.substring(1);
        }
        if (p.endsWith("/")) {
            p = p + "**";
        }
        String body = toRegex(p);
        String full = p.contains("/") ? body : "(?:.*/)?" + body;
        try {
            return new Glob(pattern, Pattern.compile(full));
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid glob pattern '" + pattern + "': " + e.getDescription()
                    .toLowerCase(java.util.Locale.ROOT), e);
        }
    }

    /** Whether the relative path (forward slashes, no leading slash) matches. */
    boolean matches(String relativePath) {
        return regex.matcher(relativePath).matches();
    }

    String pattern() {
        return pattern;
    }

    /** Translates a glob body to a regex; {@code **}{@code /} = any directories, trailing {@code /**} = anything below. */
    static String toRegex(String glob) {
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
                        throw new IllegalArgumentException("glob pattern has an unclosed '[': '" + glob
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
            throw new IllegalArgumentException("glob pattern has an unclosed '{': '" + glob + "'");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return pattern;
    }
}
