package p;

/** Class 3. */
public class C3 {
    /** Method of 3. */
    public int method3() {
        return 3;
    }
}
