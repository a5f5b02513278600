#!/usr/bin/env bash
# Optional: a real model on this machine, offline, for `sam-agent eval`, `run` and the dock.
#
# A thin wrapper over `sam-agent local` (the installed plugin's command, docs/models.md),
# kept for the lines in eval/README.md; it runs the checkout's plugin with $PYTHON (python3).
#
#   scripts/local-llm.sh build|model [0.5b|1.5b]   # sam-agent local setup --model M
#   scripts/local-llm.sh serve [--model 0.5b|1.5b|FILE.gguf] [--port 8080] [--ngl N] [--ctx N]
#                              [--threads N] [--n-predict N] [--parallel SLOTS]
#   scripts/local-llm.sh all   [same flags as serve]   # setup --yes, then serve
#   scripts/local-llm.sh stop [PORT]
#   scripts/local-llm.sh status [--json]
#
# Everything lives in the per-user cache (~/.cache/sam-agent/llm on Linux), or in
# $SAM_AGENT_LLM_HOME when set.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
local_command() { PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" "${PYTHON:-python3}" -m sam_plugin.cli local "$@"; }

model_of() {  # the value of --model among the flags, else 0.5b
    local model=0.5b
    while [[ $# -gt 0 ]]; do
        [[ "$1" == --model && $# -gt 1 ]] && model=$2
        shift
    done
    echo "$model"
}

case "${1:-}" in
    build | model)
        shift
        case "${1:-}" in
            "") local_command setup ;;
            --smoke-model) local_command setup --model "${2:?--smoke-model 0.5b|1.5b}" ;;
            *) local_command setup --model "$1" ;;
        esac ;;
    serve) shift; local_command serve "$@" ;;
    all) shift; local_command setup --yes --model "$(model_of "$@")" && local_command serve "$@" ;;
    stop) shift; local_command stop --port "${1:-8080}" ;;
    status) shift; local_command status "$@" ;;
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
esac
