package p;

/** Class 1. */
public class C1 {
    /** Method of 1. */
    public int method1() {
        return 1;
    }
}
