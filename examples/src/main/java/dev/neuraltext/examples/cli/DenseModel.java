package dev.neuraltext.examples.cli;

import dev.neuraltext.encode.Embedder;
import java.io.PrintStream;

/** Loads the dense leg's embedder (all-MiniLM-L6-v2 on ONNX Runtime), or says why it cannot. */
final class DenseModel {

    private DenseModel() {
    }

    /**
     * The MiniLM preset, or null (with a note on {@code err}) when the ONNX module, its native library or the model
     * resources are missing: the CLI then carries on with BM25 alone.
     */
    static Embedder loadOrNull(PrintStream err) {
        try {
            Class<?> c = Class.forName("dev.neuraltext.onnx.OnnxEmbedder");
            return (Embedder) c.getMethod("allMiniLmL6V2").invoke(null);
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            err.println("note: the ONNX module is not on the class path; continuing with BM25 only");
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            err.println("note: the dense model could not be loaded (" + firstLine(cause) + "); continuing with BM25 only");
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            err.println("note: the dense model could not be loaded (" + firstLine(e) + "); continuing with BM25 only");
        }
        return null;
    }

    static void close(Embedder embedder) {
        if (embedder instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                // closing a model at exit: nothing useful to do with a failure
            }
        }
    }

    static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
