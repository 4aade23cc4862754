// nothing of the command line (picocli, the MCP SDK), no Lucene beyond the lucene-core that neural-text-core uses
// for its HNSW graph (no analyzers, no peers), no model (ONNX Runtime, DJL, the embedding model jars, our onnx module),
// no SLF4J binding (a library leaves the choice to the application) and none of our other modules
def common = [/info\.picocli:.*/, /io\.modelcontextprotocol.*/, /org\.apache\.lucene:(?!lucene-core$).*/,
        /com\.microsoft\.onnxruntime:.*/, /ai\.djl.*/, /dev\.langchain4j:langchain4j-embeddings.*/,
        /dev\.neuraltext:neural-text-(onnx|qdrant|cli)/, /org\.slf4j:slf4j-(?!api$).*/, /ch\.qos\.logback:.*/,
        /org\.apache\.logging\.log4j:log4j-slf4j.*/]
required = [/dev\.neuraltext:neural-text-langchain4j/, /dev\.neuraltext:neural-text-core/, /dev\.langchain4j:langchain4j-core/]
forbidden = common + [/org\.springframework.*/, /dev\.neuraltext:neural-text-spring-ai/]
return evaluate(new File(dependencyCheck))
