package p;

/** Class 2. */
public class C2 {
    /** Method of 2. */
    public int method2() {
        return 2;
    }
}
