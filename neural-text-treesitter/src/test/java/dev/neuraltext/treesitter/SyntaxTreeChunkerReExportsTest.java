package dev.neuraltext.treesitter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neuraltext.chunk.ChunkInput;
import dev.neuraltext.chunk.ChunkMetadata;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A file's header chunk carries the names its statements re-export ({@code pub use}, {@code export … from}) as the
 * {@code exports} field and metadata: in an index of one crate or package, that is where a name defined elsewhere
 * enters the code, so a search for the name can find it.
 */
class SyntaxTreeChunkerReExportsTest {

    @Test
    void rustPublicUsesReExportEachLeafByItsAliasOrLastSegment() {
        String text = """
                //! Types and traits for extracting data from requests.
                pub use outer_core::extract::{
                    FromRequest, FromRequestParts, nested::{Deep, Other as Renamed},
                };
                pub use self::query::Query;
                pub use crate::Json;
                pub(crate) use self::rejection::Rejection;
                use std::sync::Arc;
                pub use self::wild::*;

                mod query;

                pub fn helper() -> Arc<u8> {
                    Arc::new(1)
                }
                """;
        ChunkInput header = header(SyntaxTreeChunkerLanguagesTest.chunk("extract/mod.rs", "rust", text));

        // a pub(crate) use re-exports too (a visibility); a private use and a glob name nothing
        assertThat(header.fields()).containsEntry(ChunkMetadata.FIELD_EXPORTS,
                "FromRequest FromRequestParts Deep Renamed Query Json Rejection");
        assertThat(header.metadata()).containsEntry(ChunkMetadata.EXPORTS,
                "FromRequest FromRequestParts Deep Renamed Query Json Rejection");
    }

    @Test
    void typeScriptExportsFromAnotherModuleReExportTheirNamesButLocalExportsDoNot() {
        String text = """
                import { helper } from "./helper";
                export { ZodError, ZodIssue as Issue } from "./errors";
                export type { Infer } from "./types";
                export * from "./schemas";
                export { helper };

                export function parse(input: string): string {
                  return helper(input);
                }
                """;
        ChunkInput header = header(SyntaxTreeChunkerLanguagesTest.chunk("index.ts", "typescript", text));

        assertThat(header.fields()).containsEntry(ChunkMetadata.FIELD_EXPORTS, "ZodError Issue Infer");
    }

    @Test
    void aFileWithoutReExportsHasNoExportsField() {
        String text = """
                use std::fmt;

                pub struct Point { x: i32 }

                impl fmt::Display for Point {
                    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "{}", self.x) }
                }
                """;
        List<ChunkInput> chunks = SyntaxTreeChunkerLanguagesTest.chunk("point.rs", "rust", text);

        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.fields()).doesNotContainKey(ChunkMetadata.FIELD_EXPORTS);
            assertThat(c.metadata()).doesNotContainKey(ChunkMetadata.EXPORTS);
        });
    }

    private static ChunkInput header(List<ChunkInput> chunks) {
        return chunks.stream()
                .filter(c -> ChunkMetadata.SYMBOL_TYPE_HEADER.equals(c.metadata().get(ChunkMetadata.SYMBOL_TYPE)))
                .findFirst().orElseThrow(() -> new AssertionError("no header chunk among " + chunks));
    }
}
