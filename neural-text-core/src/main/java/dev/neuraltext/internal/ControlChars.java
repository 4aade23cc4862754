package dev.neuraltext.internal;

/**
 * Makes text from indexed files safe to print on a terminal: control characters (C0, DEL, C1), which could carry
 * escape sequences that retitle, clear or reprogram a terminal, become visible escapes such as {@code \x1b}.
 * Internal: not part of the public API. Stateless and thread-safe.
 */
public final class ControlChars {

    private ControlChars() {
    }

    /** {@code text} with every control character except newline and tab replaced by {@code \xNN}. */
    public static String escape(String text) {
        return escape(text, false);
    }

    /** {@code text} on one line: every control character, newline and tab included, replaced by {@code \xNN}. */
    public static String escapeLine(String text) {
        return escape(text, true);
    }

    private static String escape(String text, boolean newlinesToo) {
        if (text == null) {
            return null;
        }
        StringBuilder sb = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = Character.getType(c) == Character.CONTROL && (newlinesToo || (c != '\n' && c != '\t'));
            if (control) {
                if (sb == null) {
                    sb = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                sb.append(String.format("\\x%02x", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? text : sb.toString();
    }
}
