"""Helpers for CLI tests: workspaces written with the offline stub, an in-process ``main``."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sam_plugin.cli import main as cli
from sam_plugin.compilers.evidence import SHAPES
from sam_plugin.compilers.protocol import CompileContext, Fragment, Route
from sam_plugin.compilers.spec.vocabulary import CallOperation
from sam_plugin.errors import RouteRefused
from tests.support.fake_vocabulary import FAKE_VOCABULARY, fake_calls_from_steps, fake_operations

API_KEY = "sk-cli-SECRET-0815"


def new_workspace(path: Path, quads: int = 0, part: str = "Plate") -> Path:
    """A ``*.sam.json`` with ``Model-1`` and, when ``quads``, a row of unit QUADs."""
    import sam
    from samConstants import QUAD

    sam.mdb = sam.database.Mdb()
    if quads:
        p = sam.mdb.models["Model-1"].Part(name=part)
        for i in range(quads):
            nodes = [
                p.Node(coordinates=c)
                for c in [(i, 0.0, 0.0), (i + 1, 0.0, 0.0), (i + 1, 1.0, 0.0), (i, 1.0, 0.0)]
            ]
            p.Element(nodes=nodes, elemShape=QUAD)
    sam.mdb.saveAs(str(path))
    return path


def saved_counts(path: Path, part: str = "Plate") -> tuple[int, int]:
    data = json.loads(path.read_text())
    for model in data["models"]:
        for p in model["parts"]:
            if p["name"] == part:
                return len(p["nodes"]["labels"]), len(p["elements"]["labels"])
    raise AssertionError(f"no part {part} in {path}")


@dataclass
class CliRun:
    code: int
    out: str
    err: str

    @property
    def result(self) -> dict[str, Any]:
        return json.loads(self.out)


def run_cli(argv: Sequence[str], capsys: Any, stdin: str = "") -> CliRun:
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = cli.main(list(argv))
    finally:
        sys.stdin = old_stdin
    captured = capsys.readouterr()
    return CliRun(code=code, out=captured.out, err=captured.err)


def base_args(workspace: Path, runs: Path, mode: str = "part", part: str = "Plate",
              new_part: bool | None = None) -> list[str]:
    """``run`` with its target; ``--new-part`` when Part mode names a part the workspace
    lacks (the run builds it), unless ``new_part`` says otherwise."""
    if new_part is None:
        new_part = mode == "part" and part not in workspace_parts(Path(workspace))
    return [
        "run",
        "--workspace",
        str(workspace),
        "--mode",
        mode,
        "--model",
        "Model-1",
        "--part",
        part,
        *(["--new-part"] if new_part else []),
        "--runs-dir",
        str(runs),
    ]


def workspace_parts(path: Path, model: str = "Model-1") -> set[str]:
    """The part names of ``model`` in a saved workspace (none when there is no file: a
    device such as /dev/zero, a loop or a folder is what some tests name on purpose)."""
    if not path.is_file() or path.is_symlink():
        return set()
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return set()
    return {p["name"] for m in data.get("models", []) if m.get("name") == model
            for p in m.get("parts", [])}


class StubQuadModule:
    """A minimal Part-like module generating real stub SAM code (add quads, audit)."""

    mode = "part"
    title = "Part"
    creates_target = True
    capabilities = ("build", "audit")
    tool_names: Mapping[str, str] = {"build": "build_part", "audit": "audit_part"}
    vocabulary = FAKE_VOCABULARY

    def design_prompt(self, language: str = "en") -> str:
        return "Answer with the spec as one JSON object."

    def collection_prompt(self, language: str = "en") -> str:
        return "Call the offered tools."

    def describe(self, fragments: Any, ctx: Any) -> Any:
        from sam_plugin.compilers.plan import generic_detail

        return generic_detail(fragments, ctx)

    def record_values(self, run_dir: Any, model: Any) -> None:
        """No values to read back: the plan's checks say it all."""

    def value_checks(self, run_dir: Any, model: Any) -> list:
        return []

    # the contribution points a domain without them gives (compilers/table_module.py)
    mcp_examples: Mapping[str, Any] = {}
    snapshot_covers: tuple[str, ...] = ()

    def observation_lines(self, model: Any) -> dict[str, Any]:
        return {}

    def request_contradictions(self, spec: Any, request: str) -> list:
        return []

    def route(self, spec_text: str, target_is_empty: bool) -> Route:
        match = re.search(r"Planned Part capabilities:\s*(.+)", spec_text)
        if not match:
            raise RouteRefused("no capability line; end the spec with 'Planned Part ...'")
        caps = [c for c in self.capabilities if c in match.group(1)]
        return Route(
            method="capability_line", capabilities=caps, tools=[self.tool_names[c] for c in caps]
        )

    def route_steps(self, capabilities: Sequence[str], target_is_empty: bool) -> Route:
        unknown = [c for c in capabilities if c not in self.capabilities]
        if unknown:
            raise RouteRefused(f"unknown capabilities {unknown}; legal: build, audit")
        caps = [c for c in self.capabilities if c in capabilities]
        return Route(method="steps", capabilities=caps, tools=[self.tool_names[c] for c in caps])

    def operations(self, fragment: Fragment) -> list[CallOperation]:
        return fake_operations(fragment)

    def calls_from_steps(self, spec: Any, tools: Sequence[str]) -> list[Any]:
        return fake_calls_from_steps(spec, tools)

    def part_at(self, fragment: Fragment, index: int, ctx: CompileContext) -> Any:
        return ctx.part

    def design_examples(self) -> tuple[tuple[str, str], ...]:
        return ()

    def request_counts(self, request: str) -> tuple[Any, ...]:
        return ()

    def tool_definitions(self, tool_names: Sequence[str], strict: bool = False) -> list[dict]:
        return [
            {
                "type": "function",
                "function": {"name": n, "parameters": {"type": "object", "properties": {}}},
            }
            for n in tool_names
        ]

    def compile(self, tool: str, arguments: Any, ctx: CompileContext) -> Fragment:
        args = json.loads(arguments) if isinstance(arguments, str) else dict(arguments)
        state = ctx.state
        if tool == "build_part":
            quads = int(args.get("quads", 1))
            crash = "raise RuntimeError('host refused')\n" if args.get("crash") else ""
            mutation = (
                f"{crash}if _part_name not in _model.parts.keys():\n"
                "    _model.Part(name=_part_name)\n"
                "_p = _model.parts[_part_name]\n"
                f"for _i in range({quads}):\n"
                "    _c = [(_i, 0, 5.0), (_i + 1, 0, 5.0), (_i + 1, 1, 5.0), (_i, 1, 5.0)]\n"
                "    _n = [_p.Node(coordinates=c) for c in _c]\n"
                "    _p.Element(nodes=_n, elemShape=QUAD)\n"
            )
            counts = {s: state.shape_counts[s] for s in SHAPES}
            counts["QUAD"] = counts["QUAD"].plus(quads)
            evidence = state.model_copy(
                update={
                    "node_count": state.node_count.plus(4 * quads),
                    "element_count": state.element_count.plus(quads),
                    "shape_counts": counts,
                    "geometry_unchanged": False,
                }
            )
            return Fragment(
                tool=tool, mutation=mutation, normalized=args, evidence=evidence, constants=["QUAD"]
            )
        # the script guard allows helper calls, not open(): the real audit helper writes it
        postflight = (
            "_part_audit.write_audit(_model.parts[_part_name], SAM_AGENT_OUTPUT_DIR, "
            "('counts',))\n"
        )
        evidence = state.model_copy(update={"files": [*state.files, "part_audit.json"]})
        return Fragment(tool=tool, postflight=postflight, normalized=args, evidence=evidence,
                        helpers=["part_audit"])
