"""The free-Python baseline: the same model writes SAM Python straight from the request and
the observation (no tools, no spec gate); the script runs on a COPY of the workspace in a
separate process with a timeout, and the same acceptance checks judge the saved result.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SYSTEM_PROMPT = """You write Python scripts for SAM, an Abaqus-like CAE pre-processor.
The script runs inside SAM; answer with ONE ```python code block and nothing else.

Host API (Abaqus-like): `from sam import mdb`; `from samConstants import *` gives QUAD, TRI,
BEAM, ON, OFF, N1_COSINES (SymbolicConstants, never strings).
- The target is in the variable SAM_AGENT_TARGET = {"model_name": ..., "part_name": ...}.
- mdb.models[name] -> Model: .parts, .materials, .sections, .profiles;
  Model.Part(name) creates a part; Model.Material(name) -> .Elastic(table=((E, nu),)),
  .Density(table=((rho,),)); Model.HomogeneousShellSection(name, material, thickness);
  Model.BeamSection(name, material, profile); Model.RectangularProfile(name, a, b),
  CircularProfile(name, r), PipeProfile(name, r, t), IProfile(name, l, h, b1, b2, t1, t2, t3).
- Part: .nodes, .elements, .sets, .sectionAssignments; Node(coordinates=(x, y, z)) -> node;
  Element(nodes=(n1, n2, ...), elemShape=QUAD) (QUAD 4 nodes, TRI 3, BEAM 2);
  Set(name, nodes=None, elements=None); deleteNode(nodes); deleteElement(elements);
  editNode(nodes, coordinates); mergeNodes(nodes, tolerance=1e-6);
  SectionAssignment(region=a_set, sectionName=name);
  assignBeamSectionOrientation(region=a_set, method=N1_COSINES, n1=(x, y, z)).
- Node: .label, .coordinates. Element: .label, .type, .connectivity (node labels).
- Arrays: len, iteration, [i], getFromLabel(label), sequenceFromLabels(labels),
  getByBoundingBox(xMin, yMin, zMin, xMax, yMax, zMax).
If the request cannot or should not be done, answer with a code block that changes nothing.
"""

HARNESS = r"""
import json, sys, traceback
stubs, source, out, script, model, part = sys.argv[1:7]
sys.path.insert(0, stubs)
import sam
sam.openMdb(source)
namespace = {"__name__": "__main__",
             "SAM_AGENT_TARGET": {"model_name": model, "part_name": part}}
error = None
try:
    code = compile(open(script, encoding="utf-8").read(), "<free_python>", "exec")
    exec(code, namespace)
except BaseException as exc:
    error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
finally:
    sam.mdb.saveAs(out)  # partial changes too: SAM has no undo
print(json.dumps({"error": error}))
"""

_CODE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)


def messages_for(mode: str, model: str, part: str, observation: dict[str, Any],
                 request: str) -> list[dict[str, str]]:
    user = (
        f"Mode: {mode}. Target: model {model!r}, part {part!r}.\n"
        f"Workspace observation (JSON): "
        f"{json.dumps(observation, separators=(',', ':'), ensure_ascii=False)}\n\n"
        f"Request:\n{request}"
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def extract_code(text: str) -> str | None:
    blocks = _CODE.findall(text)
    if blocks:
        return max(blocks, key=len)
    return None


@dataclass
class ScriptRun:
    ran: bool
    error: str | None
    saved: Path | None


def run_script(code: str, workspace: Path, work: Path, stubs: Path, model: str, part: str,
               timeout: float) -> ScriptRun:
    """Runs ``code`` on a copy of ``workspace`` in a child Python; the copy is saved after."""
    work.mkdir(parents=True, exist_ok=True)
    source = work / "copy.sam.json"
    source.write_bytes(workspace.read_bytes())
    script = work / "free_python.py"
    script.write_text(code, encoding="utf-8")
    out = work / "after.sam.json"
    try:
        done = subprocess.run(
            [sys.executable, "-c", HARNESS, str(stubs), str(source), str(out), str(script),
             model, part],
            capture_output=True, text=True, timeout=timeout, cwd=work,
        )
    except subprocess.TimeoutExpired:
        return ScriptRun(True, f"timed out after {timeout:g} s", None)
    (work / "stdout.txt").write_text(done.stdout, encoding="utf-8")
    (work / "stderr.txt").write_text(done.stderr, encoding="utf-8")
    last = done.stdout.strip().splitlines()[-1:] or [""]
    try:
        error = json.loads(last[0])["error"]
    except (ValueError, KeyError, TypeError):
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        return ScriptRun(True, f"the harness failed: {tail[0]}", out if out.is_file() else None)
    return ScriptRun(True, error, out if out.is_file() else None)
