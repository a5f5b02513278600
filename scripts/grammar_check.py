"""Every tool's constrained round as the llama.cpp (or Ollama) server sees it: does the
server build a grammar from it and hold the answer to it?

    python scripts/grammar_check.py --base-url http://127.0.0.1:8080/v1 [--profile llamacpp]

For each tool of each module it sends the round's shape (runtime/provider/constraint.py) with
a one-line prompt and a small max_tokens, and prints one line per tool: the HTTP status, and
whether the answer began as the constraint says (``{"name": "<tool>"`` for llama.cpp,
``{`` for Ollama). A refused schema shows the server's message. Exit 1 when any tool fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import httpx

from sam_plugin.compilers.registry import MODES, get_module
from sam_plugin.runtime.provider.constraint import round_shape

CONSTRAINT = {"llamacpp": "wrapped", "ollama": "format"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", default="local")
    parser.add_argument("--profile", choices=sorted(CONSTRAINT), default="llamacpp")
    parser.add_argument("--max-tokens", type=int, default=12)
    args = parser.parse_args()
    failed = 0
    for mode in MODES:
        module = get_module(mode)
        for tool in module.tool_names.values():
            shape = round_shape(module.tool_definitions([tool]), CONSTRAINT[args.profile],
                                max_tokens=args.max_tokens)
            body = {"model": args.model, "stream": False, "temperature": 0.1,
                    "messages": [{"role": "user", "content": f"Call {tool}."}],
                    **({"tools": shape.tools} if shape.tools else {}),
                    **shape.options.model_dump(exclude_none=True)}
            started = time.perf_counter()
            response = httpx.post(args.base_url.rstrip("/") + "/chat/completions",
                                  json=body, timeout=600)
            seconds = time.perf_counter() - started
            text = ""
            if response.status_code == 200:
                text = (response.json()["choices"][0]["message"].get("content") or "").strip()
            expected = '{"name"' if shape.constraint == "wrapped" else "{"
            compact = text.replace(" ", "").replace("\n", "")
            ok = response.status_code == 200 and compact.startswith(expected.replace(" ", ""))
            failed += not ok
            shown = text[:60] if response.status_code == 200 else response.text[:200]
            print(f"{'ok ' if ok else 'BAD'} {mode:8} {tool:16} HTTP {response.status_code} "
                  f"{seconds:5.1f} s  {json.dumps(shown)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
