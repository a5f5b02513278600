"""The free-Python baseline: the same model writes SAM Python straight from the request and
the observation (no tools, no spec gate), and the same acceptance checks judge the result.

A fair baseline (eval/README.md): the same observation as the pipeline's design request; the
host API reference the compilers target, with the preamble every composed script starts
with (already run before the model's script, as the composer's is); one example script, on
another part with other numbers so that it cannot be copied as an answer; and repair rounds
with the traceback, as many as the pipeline's. Every attempt runs on a fresh copy of the
workspace, in the box of ``sandbox.py``: a cassette is data, and what it answers runs as
untrusted code.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sam_plugin.evaluation import isolation
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.types import RequestOptions

PREAMBLE = ("from sam import mdb, session\n"
            "from samConstants import *\n"
            "SAM_AGENT_TARGET = {'model_name': ..., 'part_name': ...}  # the target, given")

SYSTEM_PROMPT = f"""You write Python scripts for SAM, an Abaqus-like CAE pre-processor.
The script runs inside SAM; answer with ONE ```python code block and nothing else.

These lines run before your script (you may repeat the imports):
{PREAMBLE}

Host API (Abaqus-like; the constants QUAD, TRI, BEAM, ON, OFF, N1_COSINES are symbolic
constants, never strings):
- mdb.models[name] -> Model: .parts, .materials, .sections, .profiles (mappings: keys(),
  [name], in, len). Model.Part(name) creates a part; Model.Material(name) -> material with
  .Elastic(table=((E, nu),)) and .Density(table=((rho,),));
  Model.HomogeneousShellSection(name, material, thickness); Model.BeamSection(name,
  material, profile); Model.RectangularProfile(name, a, b), CircularProfile(name, r),
  PipeProfile(name, r, t), IProfile(name, l, h, b1, b2, t1, t2, t3).
- Part: .nodes, .elements, .sets, .sectionAssignments, .beamOrientations.
  Node(coordinates=(x, y, z)) -> node; Element(nodes=(n1, n2, ...), elemShape=QUAD)
  (QUAD 4 nodes, TRI 3, BEAM 2; nodes are node objects); Set(name, nodes=None,
  elements=None); deleteNode(nodes) (their elements go too); deleteElement(elements,
  deleteUnreferencedNodes=OFF); editNode(nodes, coordinates) (one (x, y, z) per node);
  mergeNodes(nodes, tolerance=1e-6, removeDuplicateElements=True);
  SectionAssignment(region=a_set, sectionName=name);
  assignBeamSectionOrientation(region=a_set, method=N1_COSINES, n1=(x, y, z)).
- Node: .label, .coordinates. Element: .label, .type, .connectivity (node labels),
  getNodes().
- Arrays (part.nodes, part.elements, set.nodes, set.elements): len, iteration, [i],
  getFromLabel(label), sequenceFromLabels(labels), getByBoundingBox(xMin, yMin, zMin, xMax,
  yMax, zMax); nodes also getClosest(coordinates, searchTolerance).
Python: functions, loops, comprehensions, math and numpy may be used; nothing else is
imported. If the request cannot or should not be done, answer with a code block that
changes nothing.

Example (another part, for the form only): "move the nodes of set EDGE of part Bracket up by
2.5 in y and put the elements with all nodes in x <= 10 into a set LEFT":
```python
part = mdb.models[SAM_AGENT_TARGET["model_name"]].parts[SAM_AGENT_TARGET["part_name"]]
edge = part.sets["EDGE"].nodes
part.editNode(nodes=edge, coordinates=[(n.coordinates[0], n.coordinates[1] + 2.5,
                                        n.coordinates[2]) for n in edge])
left = part.elements.getByBoundingBox(-1e9, -1e9, -1e9, 10.0, 1e9, 1e9)
part.Set(name="LEFT", elements=left)
```
"""

_CODE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)
_SHOWN_ERROR_CHARS = 2000


def messages_for(mode: str, model: str, part: str, observation: dict[str, Any],
                 request: str) -> list[dict[str, str]]:
    user = (
        f"Mode: {mode}. Target: model {model!r}, part {part!r}.\n"
        f"Workspace observation (JSON): "
        f"{json.dumps(observation, separators=(',', ':'), ensure_ascii=False)}\n\n"
        f"Request:\n{request}"
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def repair_messages(messages: list[dict[str, str]], answer: str,
                    error: str) -> list[dict[str, str]]:
    """The next attempt: the script it wrote, what it raised, and a fresh copy to run on."""
    shown = error if len(error) <= _SHOWN_ERROR_CHARS else error[:_SHOWN_ERROR_CHARS] + " …"
    note = (f"Your script failed: {shown}\nThe workspace was put back as it was before your "
            "script ran. Answer with the whole script again, fixed, as one ```python code "
            "block.")
    return [*messages, {"role": "assistant", "content": answer},
            {"role": "user", "content": note}]


def request_options(settings: ProviderSettings) -> RequestOptions:
    """A script is bounded like a design answer (runtime/run/budgets.py)."""
    from sam_plugin.runtime.run.budgets import design_tokens

    return RequestOptions(max_tokens=design_tokens(settings))


def extract_code(text: str) -> str | None:
    blocks = _CODE.findall(text)
    if blocks:
        return str(max(blocks, key=len))
    return None


@dataclass
class ScriptRun:
    ran: bool
    error: str | None
    saved: Path | None


CHILD = "import sys; from sam_plugin.evaluation.sandbox_child import main; main(sys.argv[1:])"


def run_script(code: str, workspace: Path, work: Path, stubs: Path, model: str, part: str,
               timeout: float, trust: bool = False) -> ScriptRun:
    """Runs ``code`` on a fresh copy of ``workspace`` in the box (``sandbox.py``): checked
    here first, then a child Python under the kernel's isolation (``isolation.py``) in a
    temporary directory that holds only the copy; the saved copy, stdout and stderr are kept
    in ``work`` afterwards. Without kernel isolation nothing runs unless ``trust``
    (``--trust-cassette``): :class:`UsageError`."""
    from sam_plugin.errors import ScriptRefused
    from sam_plugin.evaluation import sandbox

    boxing = isolation.require(trust)
    work.mkdir(parents=True, exist_ok=True)
    (work / "free_python.py").write_text(code, encoding="utf-8")
    (work / "after.sam.json").unlink(missing_ok=True)
    try:
        sandbox.check_free_script(code)
    except ScriptRefused as refused:
        return ScriptRun(True, _one_line(refused), None)
    return run_in_box(code, workspace, work, stubs, model, part, timeout, boxing)


def run_in_box(code: str, workspace: Path, work: Path, stubs: Path, model: str, part: str,
               timeout: float, boxing: isolation.Isolation) -> ScriptRun:
    """The child's part of :func:`run_script`, which checks ``code`` first: the script runs
    with restricted builtins and module views, boxed by ``boxing`` when it is boxed."""
    from sam_plugin.evaluation import sandbox

    work.mkdir(parents=True, exist_ok=True)
    out = work / "after.sam.json"
    out.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="sam-baseline-") as box, \
            tempfile.TemporaryFile() as result:
        root = Path(box)
        source, script, saved = root / "copy.sam.json", root / "free_python.py", \
            root / "after.sam.json"
        source.write_bytes(workspace.read_bytes())
        script.write_text(code, encoding="utf-8")
        job = {"box": box, "stubs": str(stubs), "source": str(source), "out": str(saved),
               "script": str(script), "model": model, "part": part, "seconds": timeout,
               "builtins": sorted(sandbox.builtin_names()), "confine": boxing.boxed,
               "result_fd": result.fileno()}
        command = [*boxing.command(root), sys.executable, "-I", "-B", "-c", CHILD,
                   json.dumps(job)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                  cwd=box, env=isolation.child_environment(root),
                                  stdin=subprocess.DEVNULL, start_new_session=True,
                                  pass_fds=(result.fileno(),))
        except subprocess.TimeoutExpired:
            return ScriptRun(True, f"timed out after {timeout:g} s", None)
        if saved.is_file():
            shutil.copyfile(saved, out)
        result.seek(0)
        answer = result.read().decode("utf-8", errors="replace")
    (work / "stdout.txt").write_text(done.stdout, encoding="utf-8")
    (work / "stderr.txt").write_text(done.stderr, encoding="utf-8")
    kept = out if out.is_file() else None
    lines = answer.splitlines()
    try:
        outcome = json.loads(lines[0]) if len(lines) == 1 else None
    except ValueError:
        outcome = None
    if isinstance(outcome, dict) and "unboxed" in outcome:
        return ScriptRun(False, f"the box could not be set up: {outcome['unboxed']}", None)
    if isinstance(outcome, dict) and "error" in outcome:
        return ScriptRun(True, outcome["error"], kept)
    if isinstance(outcome, dict) and "harness" in outcome:
        why = outcome["harness"]
    elif len(lines) > 1:
        why = f"its result channel held {len(lines)} lines, not one"
    else:
        why = (done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"])[0]
    return ScriptRun(True, f"the harness failed: {why}", kept)


def _one_line(error: BaseException) -> str:
    """An exception as the harness reports it (``Type: message``)."""
    import traceback

    return "".join(traceback.format_exception_only(type(error), error)).strip()
