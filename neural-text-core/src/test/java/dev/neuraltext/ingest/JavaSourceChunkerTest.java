package dev.neuraltext.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ExtractionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JavaSourceChunkerTest {

    private final JavaSourceChunker chunker = new JavaSourceChunker();

    @Test
    void recordHasTypeCompactConstructorAndMethodChunksWithJavadoc() {
        List<ChunkInput> chunks = Fixtures.chunk(chunker, "java/Point.java.txt", "src/main/java/com/example/geo/Point.java");
        Map<String, ChunkInput> byId = Fixtures.byId(chunks);
        String p = "src/main/java/com/example/geo/Point.java#";
        assertThat(byId.keySet()).containsExactly(p + "Point", p + "Point.Point{compact}",
                p + "Point.distanceTo(Point)", p + "Point.compareTo(Point)");

        ChunkInput type = byId.get(p + "Point");
        assertThat(type.metadata()).containsEntry("symbolType", "type").containsEntry("className", "Point")
                .containsEntry("package", "com.example.geo").containsEntry("language", "java")
                .containsEntry("type", "code").containsEntry("startLine", "11").containsEntry("endLine", "37")
                .containsEntry("path", "src/main/java/com/example/geo/Point.java");
        assertThat(type.metadata().get("signature"))
                .isEqualTo("public record Point(double x, double y) implements Comparable<Point>");
        assertThat(type.text()).startsWith("com.example.geo.Point (record)\n/**\n * A point in the plane.")
                .contains("public static final Point ORIGIN = new Point(0, 0);")
                .contains("public double distanceTo(Point other);")
                // member signatures only: no method bodies in the type chunk
                .doesNotContain("Math.hypot");

        ChunkInput method = byId.get(p + "Point.distanceTo(Point)");
        assertThat(method.text()).isEqualTo("""
                Point.distanceTo
                /**
                 * Euclidean distance to another point.
                 *
                 * @param other the other point
                 * @return the distance
                 */
                public double distanceTo(Point other) {
                    return Math.hypot(x - other.x, y - other.y);
                }""");
        assertThat(method.metadata()).containsEntry("symbol", "Point.distanceTo").containsEntry("symbolType", "method")
                .containsEntry("signature", "public double distanceTo(Point other)")
                .containsEntry("startLine", "29").containsEntry("endLine", "31");
        assertThat(method.fields()).containsEntry("name", "Point.distanceTo")
                .containsEntry("signature", "public double distanceTo(Point other)");
        assertThat(method.fields().get("doc")).isEqualTo(
                "Euclidean distance to another point.\n@param other the other point\n@return the distance");
        assertThat(method.fields().get("body")).startsWith("public double distanceTo").doesNotContain("/**");

        ChunkInput compact = byId.get(p + "Point.Point{compact}");
        assertThat(compact.metadata()).containsEntry("symbolType", "constructor");
        assertThat(compact.text()).contains("Rejects NaN coordinates.").contains("throw new IllegalArgumentException");

        assertThat(byId.get(p + "Point.compareTo(Point)").text()).contains("@Override\npublic int compareTo");
    }

    @Test
    void enumConstantsWithBodiesStayInTheTypeChunk() {
        Map<String, ChunkInput> byId = Fixtures.byId(Fixtures.chunk(chunker, "java/Planet.java.txt", "Planet.java"));
        assertThat(byId.keySet()).containsExactly("Planet.java#Planet", "Planet.java#Planet.Planet(double)",
                "Planet.java#Planet.surfaceGravity()", "Planet.java#Planet.greeting()");
        ChunkInput type = byId.get("Planet.java#Planet");
        assertThat(type.text()).contains("(enum)").contains("MERCURY(3.303e+23),").contains("EARTH(5.976e+24) { ... },")
                .contains("private final double mass;");
        assertThat(byId.get("Planet.java#Planet.Planet(double)").metadata()).containsEntry("symbolType", "constructor")
                .containsEntry("symbol", "Planet.Planet");
    }

    @Test
    void interfaceWithGenericsDefaultAndStaticMethods() {
        Map<String, ChunkInput> byId = Fixtures.byId(Fixtures.chunk(chunker, "java/Cache.java.txt", "Cache.java"));
        assertThat(byId.keySet()).containsExactly("Cache.java#Cache", "Cache.java#Cache.get(K)",
                "Cache.java#Cache.put(K,V)", "Cache.java#Cache.contains(K)", "Cache.java#Cache.empty()");
        assertThat(byId.get("Cache.java#Cache").metadata().get("signature")).isEqualTo("public interface Cache<K, V>");
        assertThat(byId.get("Cache.java#Cache").text()).contains("(interface)").contains("@param <K> key type");
        assertThat(byId.get("Cache.java#Cache.empty()").metadata().get("signature"))
                .isEqualTo("static <K, V> Cache<K, V> empty()");
        assertThat(byId.get("Cache.java#Cache.contains(K)").text()).contains("default boolean contains(K key)");
    }

    @Test
    void annotationDeclarationKeepsItsMembers() {
        List<ChunkInput> chunks = Fixtures.chunk(chunker, "java/Retry.java.txt", "Retry.java");
        assertThat(chunks).hasSize(1);
        ChunkInput type = chunks.get(0);
        assertThat(type.id()).isEqualTo("Retry.java#Retry");
        assertThat(type.metadata()).containsEntry("symbolType", "type").containsEntry("startLine", "9");
        assertThat(type.text()).contains("(annotation)").contains("@Retention(RetentionPolicy.RUNTIME)")
                .contains("int attempts() default 3;").contains("How many attempts, at least 1.");
    }

    @Test
    void nestedClassesAreNamedOuterInnerAndAnonymousClassesStayInTheirMethod() {
        Map<String, ChunkInput> byId = Fixtures.byId(Fixtures.chunk(chunker, "java/Outer.java.txt", "Outer.java"));
        assertThat(byId.keySet()).containsExactly("Outer.java#Outer", "Outer.java#Outer.Inner",
                "Outer.java#Outer.Inner.increment()", "Outer.java#Outer.Inner.Deepest",
                "Outer.java#Outer.Inner.Deepest.name()", "Outer.java#Outer.byLength()");
        assertThat(byId.get("Outer.java#Outer.Inner.Deepest.name()").metadata())
                .containsEntry("className", "Outer.Inner.Deepest").containsEntry("symbol", "Outer.Inner.Deepest.name");
        assertThat(byId.get("Outer.java#Outer.byLength()").text()).contains("class Local")
                .contains("public int compare(String a, String b)");
        assertThat(byId.get("Outer.java#Outer").text()).contains("public class Inner { ... }");
    }

    @Test
    void overloadsGetDistinctIdsFromParameterTypesAndBoundedGenericsParse() {
        Map<String, ChunkInput> byId = Fixtures.byId(
                Fixtures.chunk(chunker, "java/Collections2.java.txt", "Collections2.java"));
        assertThat(byId).containsKeys("Collections2.java#Collections2.format(int)",
                "Collections2.java#Collections2.format(Map)",
                "Collections2.java#Collections2.Collections2()");
        assertThat(chunker.chunk(ExtractionResult.of("V.java",
                "class V { void f(java.util.Map.Entry<String, int[]>[] a, int[][] b, String... rest) {} }")))
                .extracting(ChunkInput::id).contains("V.java#V.f(Entry[],int[][],String...)");
        assertThat(byId.get("Collections2.java#Collections2.max(Collection)").metadata().get("signature"))
                .isEqualTo("public static <T extends Comparable<? super T>> T max(Collection<? extends T> items)");
    }

    @Test
    void java21SealedRecordPatternsAndTextBlocksParse() {
        Map<String, ChunkInput> byId = Fixtures.byId(Fixtures.chunk(chunker, "java/Shapes.java.txt", "Shapes.java"));
        assertThat(byId.keySet()).containsExactly("Shapes.java#Shape", "Shapes.java#Shape.Circle",
                "Shapes.java#Shape.Square", "Shapes.java#Shape.area(Shape)", "Shapes.java#Shape.describe(Object)");
        assertThat(byId.get("Shapes.java#Shape").metadata().get("signature"))
                .isEqualTo("public sealed interface Shape permits Shape.Circle, Shape.Square");
        assertThat(byId.get("Shapes.java#Shape.Circle").metadata())
                .containsEntry("signature", "record Circle(double radius) implements Shape")
                .containsEntry("className", "Shape.Circle");
        assertThat(byId.get("Shapes.java#Shape.area(Shape)").text()).contains("case Square(double s) when s > 0");
        assertThat(byId.get("Shapes.java#Shape.describe(Object)").text()).contains("a circle of radius %s");
    }

    @Test
    void unparsableFileFallsBackToPlainText() {
        List<ChunkInput> chunks = Fixtures.chunk(chunker, "java/Broken.java.txt", "Broken.java");
        assertThat(chunks).hasSize(1);
        assertThat(chunks.get(0).id()).isEqualTo("Broken.java#1");
        assertThat(chunks.get(0).metadata()).containsEntry("symbolType", "text").containsEntry("language", "java")
                .containsEntry("startLine", "1").containsEntry("endLine", "8");
        assertThat(chunks.get(0).text()).contains("unterminatedFrobnicator");
    }

    @Test
    void idsAreStableWhenLinesShift() {
        String source = Fixtures.read("java/Point.java.txt");
        List<ChunkInput> before = chunker.chunk(ExtractionResult.of("P.java", source));
        List<ChunkInput> after = chunker.chunk(ExtractionResult.of("P.java", "\n\n// moved\n" + source));
        assertThat(after).extracting(ChunkInput::id).containsExactlyElementsOf(
                before.stream().map(ChunkInput::id).toList());
        assertThat(after.get(1).metadata().get("startLine"))
                .isEqualTo(Integer.toString(Integer.parseInt(before.get(1).metadata().get("startLine")) + 3));
    }

    @Test
    void duplicateSignaturesAreDisambiguatedInSourceOrder() {
        String source = "class A { void f() {} }\nclass B { }\nclass A { void f() {} }";
        List<ChunkInput> chunks = chunker.chunk(ExtractionResult.of("x/A.java", source));
        assertThat(chunks).extracting(ChunkInput::id).containsExactly("x/A.java#A", "x/A.java#A.f()", "x/A.java#B",
                "x/A.java#A~2", "x/A.java#A.f()~2");
    }
}
