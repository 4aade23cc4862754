#!/usr/bin/env bash
# Runs the commands whose figures docs/benchmarks.md reports, and leaves every report in bench-out/<commit>/<section>/
# with commands.txt saying what ran, so that the page's tables are regenerated, not hand-copied.
#
#   docs/benchmarks/regenerate.sh [section...]     sections: quality static ranked presets semble related speed scale
#                                                   first-answer mcp adapters lab, or all (the default)
# Environment:
#   DATASETS            folder holding the BEIR datasets commons-lang, commons-lang-commits, testcontainers-docs
#                       (quality, static, ranked, presets, speed, lab)
#   SEMBLE_ROOTS        roots.tsv: name<TAB>language<TAB>folder-to-index, one repository a line (semble, related,
#                       lab)
#   SEMBLE_ANNOTATIONS  the folder of <name>.json questions (semble, lab)
#   OUT                 output folder (default: bench-out/<short commit>)
#   BENCH_LOCK          a lock file: each run holds it (flock), so that two benchmarks never share the machine
#   DRY_RUN=1           print the commands instead of running them
# Build first: mvn -B -q package -DskipTests (the tool, the examples and the lab).
set -euo pipefail
cd "$(dirname "$0")/../.."

NT=neural-text-cli/target/neural-text/bin/neural-text
LAB=(java -jar neural-text-lab/target/neural-text-lab.jar)
EXAMPLES=examples/target/neural-text-examples.jar
OUT=${OUT:-bench-out/$(git rev-parse --short HEAD)}
PRESETS=(bge-small-en-v1.5-q bge-small-en-v1.5 all-minilm-l6-v2 all-minilm-l6-v2-q e5-small-v2)
VARIANTS=(chunk header header-head)

need() {
    local name=$1
    if [ -z "${!name:-}" ]; then
        echo "regenerate.sh: set $name (see the comment at the top of this script)" >&2
        exit 2
    fi
}

# run <section/name> <command...>: stdout and stderr to files in $OUT/<section/name>/, the command to commands.txt
run() {
    local dir="$OUT/$1"
    shift
    local line="${JAVA_OPTS:+JAVA_OPTS=$JAVA_OPTS }$*"
    if [ -n "${DRY_RUN:-}" ]; then
        echo "$line"
        return
    fi
    echo "$dir: $line" >> "$OUT/commands.txt"
    mkdir -p "$dir"
    echo "== $dir" >&2
    local lock=()
    if [ -n "${BENCH_LOCK:-}" ]; then
        lock=(flock "$BENCH_LOCK")
    fi
    "${lock[@]}" "$@" > "$dir/stdout.txt" 2> "$dir/stderr.txt"
}

datasets() {
    echo "$DATASETS/commons-lang,$DATASETS/commons-lang-commits,$DATASETS/testcontainers-docs"
}

section() {
    case "$1" in
        quality)
            need DATASETS
            run quality "$NT" eval --dataset "$(datasets)" --techniques bm25,dense,hybrid --peers --previous-default \
                --slice-by type,shape --out "$OUT/quality" ;;
        static)
            need DATASETS
            run static "$NT" eval --dataset "$(datasets)" --techniques bm25,dense,hybrid --model static-code \
                --slice-by type,shape --out "$OUT/static" ;;
        ranked)
            need DATASETS
            run ranked "$NT" eval --dataset "$(datasets)" --techniques bm25,dense,hybrid --ranking whole-repository \
                --slice-by type,shape --out "$OUT/ranked" ;;
        presets)
            need DATASETS
            # the presets other than the default need their jars in the installation's models/ folder (docs/models.md)
            for p in "${PRESETS[@]}"; do
                for v in "${VARIANTS[@]}"; do
                    run "presets/$p-$v" "$NT" eval --dataset "$(datasets)" --techniques dense,hybrid --model "$p" \
                        --dense-text "$v" --slice-by type,shape --out "$OUT/presets/$p-$v" || true
                done
            done
            run presets/throughput "${LAB[@]}" presets --limit 60 --slice 20 --dense-text chunk,header,header-head ;;
        semble)
            need SEMBLE_ROOTS
            need SEMBLE_ANNOTATIONS
            run semble "$NT" eval --semble "$SEMBLE_ROOTS" --annotations "$SEMBLE_ANNOTATIONS" --peers grep \
                --out "$OUT/semble"
            run semble-bm25 "$NT" eval --semble "$SEMBLE_ROOTS" --annotations "$SEMBLE_ANNOTATIONS" --no-dense \
                --out "$OUT/semble-bm25"
            run semble-static "$NT" eval --semble "$SEMBLE_ROOTS" --annotations "$SEMBLE_ANNOTATIONS" \
                --model static-code --out "$OUT/semble-static" ;;
        related)
            need SEMBLE_ROOTS
            run related "$NT" eval --related "$SEMBLE_ROOTS" --out "$OUT/related" ;;
        speed)
            need DATASETS
            run speed/bm25 "$NT" bench bm25 --dataset "$DATASETS/commons-lang" --builds 1 --warmup 1 --passes 2
            run speed/embed "$NT" bench embed --corpus "$DATASETS/commons-lang/corpus.jsonl" --limit 2000
            run speed/static "$NT" bench embed --corpus "$DATASETS/commons-lang/corpus.jsonl" \
                --preset bge-small-en-v1.5-q --only ours --static --limit 2000 ;;
        scale)
            [ -n "${DRY_RUN:-}" ] || mkdir -p "$OUT/scale"
            JAVA_OPTS=-Xmx6g run scale/5k "$NT" bench scale --docs 5000 --json "$OUT/scale/scale-5k.json"
            JAVA_OPTS=-Xmx14g run scale/100k "$NT" bench scale --docs 100000 --no-hnsw --json "$OUT/scale/scale-100k.json"
            JAVA_OPTS=-Xmx14g run scale/1m "$NT" bench scale --docs 1000000 --no-dense --no-hnsw --passes 3 \
                --json "$OUT/scale/scale-1m.json"
            JAVA_OPTS=-Xmx16g run scale/1m-dense "$NT" bench scale --docs 1000000 --no-hnsw --queries 200 --passes 1 \
                --ef-sweep 200,400,800,1600 --json "$OUT/scale/scale-1m-dense.json" ;;
        first-answer)
            rm -rf "$OUT/first-answer/index"
            run first-answer "$NT" index . --index "$OUT/first-answer/index" ;;
        mcp)
            rm -rf "$OUT/mcp/index"
            run mcp/first python3 neural-text-cli/src/test/python/mcp_measure.py . "$OUT/mcp/index" --idle 60
            run mcp/saved python3 neural-text-cli/src/test/python/mcp_measure.py . "$OUT/mcp/index" --idle 60 ;;
        adapters)
            run adapters java -cp "$EXAMPLES" dev.neuraltext.examples.bench.AdapterOverheadBenchmark . 200 ;;
        lab)
            need DATASETS
            run lab/fusion "${LAB[@]}" fit-fusion --dataset "$(datasets)" --slice-by type,shape \
                --dense-windows 900 --second-dense e5-small-v2 --out "$OUT/lab/fusion"
            need SEMBLE_ROOTS
            need SEMBLE_ANNOTATIONS
            run lab/ranking "${LAB[@]}" fit-ranking --semble "$SEMBLE_ROOTS" --annotations "$SEMBLE_ANNOTATIONS" \
                --out "$OUT/lab/ranking" ;;
        all)
            for s in quality static ranked presets semble related speed scale first-answer mcp adapters lab; do
                section "$s"
            done ;;
        *)
            echo "regenerate.sh: unknown section '$1' (quality static ranked presets semble related speed scale" \
                "first-answer mcp adapters lab all)" >&2
            exit 2 ;;
    esac
}

if [ -z "${DRY_RUN:-}" ]; then
    mkdir -p "$OUT"
    echo "# $(git rev-parse HEAD) $(date -u +%FT%TZ) $(nproc) cores, $(java -version 2>&1 | head -1)" >> "$OUT/commands.txt"
fi
if [ $# -eq 0 ]; then
    set -- all
fi
for s in "$@"; do
    section "$s"
done
[ -n "${DRY_RUN:-}" ] || echo "reports in $OUT" >&2
