package dev.neuraltext.mcp;

/** The JSON Schemas (2020-12) of the MCP tools' inputs and outputs ({@link McpTools}, {@link RelatedTool}). */
final class ToolSchemas {

    private ToolSchemas() {
    }


    static final String EMPTY_INPUT = """
            {"type": "object", "properties": {}, "additionalProperties": false}""";

    static final String STATUS_INPUT = """
            {"type": "object", "properties": {
              "digest": {"type": "boolean", "default": false,
                "description": "Also give checksums of the index's content (chunks, files, dense vectors), to compare with another index of the same folder."}
            }, "additionalProperties": false}""";

    static final String SEARCH_INPUT = """
            {
              "type": "object",
              "properties": {
                "query": {"type": "string", "minLength": 1,
                  "description": "An identifier (RetryPolicy, backoffDelay, @Retryable) or a question in words."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10,
                  "description": "Hits to return at least (more when scores stay close)."},
                "filter": {"type": "string",
                  "description": "Metadata filter, e.g. type == 'code' and symbolType == 'method' and not path ~ 'test'. Keys: path, language, package, className, symbol, symbolType, startLine, endLine, type, tags."},
                "path": {"type": "string",
                  "description": "Only these files: a folder (src/main) or a glob as in .gitignore (*.md at any depth, docs/*.md, **/*Test.java)."},
                "kind": {"type": "string", "enum": ["code", "doc", "type", "method"],
                  "description": "code or doc chunks, or only type or method (and constructor) chunks."},
                "legs": {"type": "array", "items": {"type": "string", "enum": ["bm25", "dense", "sparse"]},
                  "uniqueItems": true, "description": "Retrieval legs to run (default: every leg the index has)."},
                "groupBy": {"type": "string", "enum": ["chunk", "file"], "default": "chunk",
                  "description": "file: `limit` files ranked by their evidence, each with its best spans (for opening the file next)."},
                "ranking": {"type": "string", "enum": ["whole-repository", "off"], "default": "whole-repository",
                  "description": "whole-repository: definitions, the file the query names and code first, one chunk per file before a second; off: the fused order as is."},
                "budget": {"type": "integer", "minimum": 0, "maximum": 20000, "default": 2000,
                  "description": "Tokens (characters / 4) the answer's code may take: hits packed best first, long ones trimmed with elided lines marked. 0: no code, one line and a short snippet per hit."}
              },
              "required": ["query"],
              "additionalProperties": false
            }""";

    static final String SEARCH_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "query": {"type": "string"},
                "legs": {"type": "array", "items": {"type": "string"}},
                "returned": {"type": "integer"},
                "aboveThreshold": {"type": "integer"},
                "extended": {"type": "boolean"},
                "summary": {"type": "string"},
                "indexComplete": {"type": "boolean"},
                "denseCoverage": {"type": "object", "properties": {
                  "chunks": {"type": "integer"}, "withDense": {"type": "integer"}}},
                "freshness": {"type": "object", "properties": {
                  "checkedNow": {"type": "boolean"}, "checkedMillisAgo": {"type": "integer"},
                  "checkIntervalMillis": {"type": "integer"}, "updateRunning": {"type": "boolean"},
                  "filesDone": {"type": "integer"}, "filesToIndex": {"type": "integer"},
                  "filesChanged": {"type": "integer"}}},
                "outputCapChars": {"type": "integer"},
                "cappedHits": {"type": "integer"},
                "notes": {"type": "array", "items": {"type": "string"}},
                "budget": {"type": "object", "description": "the packing, when the answer was packed into a token budget",
                  "properties": {
                    "tokens": {"type": "integer"}, "used": {"type": "integer"}, "shown": {"type": "integer"},
                    "trimmed": {"type": "integer"}, "notShown": {"type": "integer"},
                    "notShownReturned": {"type": "integer"}, "notShownTokens": {"type": "integer"}}},
                "hits": {"type": "array", "items": {
                  "type": "object",
                  "properties": {
                    "rank": {"type": "integer"},
                    "id": {"type": "string"},
                    "path": {"type": "string"},
                    "startLine": {"type": "integer"},
                    "endLine": {"type": "integer"},
                    "symbol": {"type": "string"},
                    "kind": {"type": "string"},
                    "score": {"type": "number"},
                    "aboveThreshold": {"type": "boolean"},
                    "snippet": {"type": "string"},
                    "text": {"type": "string", "description": "the hit as packed: header, kept lines, elision marks"},
                    "trimmed": {"type": "boolean"},
                    "elidedLines": {"type": "integer"},
                    "tokens": {"type": "integer"},
                    "lines": {"type": "array", "description": "the file lines [start, end] of each kept run",
                      "items": {"type": "array", "items": {"type": "integer"}}},
                    "root": {"type": "string", "description": "with several roots: the root the hit lies in"}
                  },
                  "required": ["rank", "id", "path", "startLine", "endLine", "score", "aboveThreshold"]
                }},
                "files": {"type": "array", "items": {"type": "object", "properties": {
                  "rank": {"type": "integer"}, "path": {"type": "string"}, "evidence": {"type": "number"},
                  "matchingChunks": {"type": "integer"}, "spans": {"type": "array"}}}}
              },
              "required": ["query", "returned", "aboveThreshold", "summary", "indexComplete", "hits"]
            }""";

    static final String GET_INPUT = """
            {
              "type": "object",
              "properties": {
                "id": {"type": "string", "description": "A chunk id from a search hit."},
                "path": {"type": "string", "description": "A file path relative to the indexed folder."},
                "startLine": {"type": "integer", "minimum": 1, "description": "First line, 1-based."},
                "endLine": {"type": "integer", "minimum": 1, "description": "Last line, inclusive."}
              },
              "additionalProperties": false
            }""";

    static final String GET_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "id": {"type": "string"},
                "path": {"type": "string"},
                "startLine": {"type": "integer"},
                "endLine": {"type": "integer"},
                "totalLines": {"type": "integer"},
                "capped": {"type": "boolean"},
                "text": {"type": "string"}
              },
              "required": ["path", "startLine", "endLine", "text"]
            }""";

    static final String STATUS_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "root": {"type": "string"},
                "index": {"type": "string"},
                "writer": {"type": "boolean"},
                "phase": {"type": "string", "enum": ["indexing", "embedding", "ready"]},
                "updating": {"type": "boolean", "description": "an update of changed files is running"},
                "filesDone": {"type": "integer"},
                "filesToIndex": {"type": "integer"},
                "files": {"type": "integer"},
                "chunks": {"type": "integer"},
                "chunksByKind": {"type": "object", "additionalProperties": {"type": "integer"}},
                "legs": {"type": "array", "items": {"type": "string"}},
                "denseCoverage": {"type": "object", "properties": {
                  "chunks": {"type": "integer"}, "withDense": {"type": "integer"}}},
                "denseModel": {"type": "string"},
                "denseLoaded": {"type": "boolean", "description": "whether queries are embedded (the dense leg runs)"},
                "lastUpdated": {"type": ["string", "null"]},
                "lastSaved": {"type": ["string", "null"]},
                "saveProblem": {"type": ["string", "null"], "description": "why saving the index fails, while it does"},
                "skipped": {"type": "object", "description": "files the last update left out, by reason",
                  "additionalProperties": {"type": "integer"}},
                "damage": {"type": ["string", "null"], "description": "the damage met in the saved index at start (the file and what is wrong); the index is then rebuilt from the files (phase indexing until done)"},
                "heapUsedBytes": {"type": "integer", "description": "the server's Java heap in use"},
                "heapMaxBytes": {"type": "integer", "description": "the most heap the server may use (-Xmx)"},
                "roots": {"type": "array", "description": "with several roots: each root's status, with its name",
                  "items": {"type": "object"}},
                "digest": {"type": "object", "description": "with `digest`: content checksums", "properties": {
                  "files": {"type": "integer"}, "chunks": {"type": "integer"}, "withDense": {"type": "integer"},
                  "lexical": {"type": "string"}, "content": {"type": "string"}, "vectors": {"type": "string"}, "manifest": {"type": "string"}}}
              },
              "required": ["root", "phase", "files", "chunks", "legs", "denseCoverage"]
            }""";

    static final String REINDEX_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "added": {"type": "array", "items": {"type": "string"}},
                "modified": {"type": "array", "items": {"type": "string"}},
                "deleted": {"type": "array", "items": {"type": "string"}},
                "unchanged": {"type": "integer"},
                "chunksIndexed": {"type": "integer"},
                "chunksDeleted": {"type": "integer"}
              },
              "required": ["added", "modified", "deleted", "unchanged"]
            }""";

    static final String RELATED_INPUT = """
            {
              "type": "object",
              "properties": {
                "path": {"type": "string", "minLength": 1,
                  "description": "A file of the index, relative to the indexed folder, as search hits show it."},
                "line": {"type": "integer", "minimum": 1,
                  "description": "A line of the file: the definition around it is the target (default: the whole file)."},
                "symbol": {"type": "string",
                  "description": "A definition of the file by name (delayFor, RetryPolicy.delayFor) instead of a line."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 8,
                  "description": "Hits to return."},
                "relations": {"type": "array", "items": {"type": "string", "enum": ["used-by", "uses", "test", "doc"]},
                  "uniqueItems": true, "description": "Only these relations (default: all)."},
                "budget": {"type": "integer", "minimum": 0, "maximum": 20000, "default": 2000,
                  "description": "Tokens (characters / 4) the answer's code may take, packed as search packs it. 0: no code, one line and a short snippet per hit."}
              },
              "required": ["path"],
              "additionalProperties": false
            }""";

    static final String RELATED_OUTPUT = """
            {
              "type": "object",
              "properties": {
                "path": {"type": "string"},
                "targets": {"type": "array", "items": {"type": "string"}},
                "names": {"type": "array", "items": {"type": "string"}},
                "returned": {"type": "integer"},
                "totalHits": {"type": "integer"},
                "totalFiles": {"type": "integer"},
                "summary": {"type": "string"},
                "notes": {"type": "array", "items": {"type": "string"}},
                "budget": {"type": "object", "description": "the packing, when the answer was packed into a token budget",
                  "properties": {
                    "tokens": {"type": "integer"}, "used": {"type": "integer"}, "shown": {"type": "integer"},
                    "trimmed": {"type": "integer"}, "notShown": {"type": "integer"},
                    "notShownReturned": {"type": "integer"}, "notShownTokens": {"type": "integer"}}},
                "hits": {"type": "array", "items": {
                  "type": "object",
                  "properties": {
                    "rank": {"type": "integer"},
                    "id": {"type": "string"},
                    "path": {"type": "string"},
                    "startLine": {"type": "integer"},
                    "endLine": {"type": "integer"},
                    "symbol": {"type": "string"},
                    "kind": {"type": "string"},
                    "score": {"type": "number"},
                    "relation": {"type": "string", "enum": ["used-by", "uses", "test", "doc"]},
                    "names": {"type": "array", "items": {"type": "string"}},
                    "snippet": {"type": "string"},
                    "text": {"type": "string", "description": "the hit as packed: header, kept lines, elision marks"},
                    "trimmed": {"type": "boolean"},
                    "elidedLines": {"type": "integer"},
                    "tokens": {"type": "integer"},
                    "lines": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
                    "root": {"type": "string"}
                  },
                  "required": ["rank", "id", "path", "startLine", "endLine", "score", "relation"]
                }}
              },
              "required": ["path", "names", "returned", "summary", "hits"]
            }""";
}
