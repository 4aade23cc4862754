package p;

/** Class 0. */
public class C0 {
    /** Method of 0. */
    public int method0() {
        return 0;
    }
}
