package dev.neuraltext.text;

/** Being written (issue 2). */
public final class CamelCaseExpander {

    private CamelCaseExpander() {
    }

    /** {@code ChatModel is a LangChain4j interface} becomes {@code Chat Model is a Lang Chain 4 j interface}. */
    public static String expand(String text) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
