"""The plan's cost at scale: compile + plan + shadow prediction vs doing the work directly.

A 300 x 300 QUAD patch (90,601 nodes, 90,000 elements) in the offline SAM. The plan side
compiles transform (translate_copy beside the patch) → repair (merge the shared edge) →
audit, composes the script and builds the plan, whose shadow run predicts the final part
(181,202 → 180,901 nodes, 180,000 elements) and its after-fingerprint, which must be the
fingerprint of the part the direct side makes. The direct side applies the same operations to a
copy of the part through the host API (the stub), calling the same samops helpers the script
calls, and writes the same audit. Both run in this process, alternating, best of ``ROUNDS``;
CPU time, since the machine is shared.

Run: ``.venv/bin/python bench/plan_scale.py`` (puts ``stubs/`` on ``sys.path`` itself).
The last line is ``ratio=<plan/direct> goal<=2``.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "stubs"))
sys.path.insert(0, str(ROOT))

import sam  # noqa: E402
import sam.database  # noqa: E402

from sam_plugin.compilers.composer import compose  # noqa: E402
from sam_plugin.compilers.evidence import Prediction  # noqa: E402
from sam_plugin.compilers.part import MODULE  # noqa: E402
from sam_plugin.compilers.protocol import CompileContext, Target  # noqa: E402
from sam_plugin.compilers.spec.reading import spec_from_json  # noqa: E402
from sam_plugin.runtime.host_gateway import HostGateway  # noqa: E402
from sam_plugin.runtime.run.plan_builder import build_plan  # noqa: E402
from sam_plugin.samops import part_audit, part_repair, part_transform  # noqa: E402
from sam_plugin.samops.readback import read_part  # noqa: E402

SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: the smallest size, fewest repeats
N = 60 if SMOKE else 300  # cells per side
GOAL = 2.0
ROUNDS = 1 if SMOKE else 3
TARGET = Target(model_name="Model-1", part_name="Patch")
COPY = {"op": "translate_copy", "vector": [float(N), 0.0, 0.0], "selection": {"by": "all"}}
CALLS = [
    ("transform_part", {"operations": [COPY]}),
    ("repair_part", {"merge_coincident_nodes": {"tolerance": 0.01}}),
    ("audit_part", {"checks": ["counts", "free_nodes", "coincident_nodes"]}),
]
REQUEST = "Copy the patch beside itself, merge the shared edge, audit."
SPEC = spec_from_json({
    "summary": REQUEST,
    "steps": [
        {"capability": "transform", "action": "translate_copy", "scope": {"by": "all"},
         "values": {"vector": COPY["vector"]}, "text": "copy the patch beside itself"},
        {"capability": "repair", "action": "merge_nodes", "values": {"tolerance": 0.01},
         "text": "merge the shared edge"},
        {"capability": "audit", "action": "audit",
         "values": {"checks": ["counts", "free_nodes", "coincident_nodes"]}, "text": "audit"}],
    "expected": {"nodes": 2 * (N + 1) ** 2 - (N + 1), "elements": 2 * N * N},
}, MODULE.vocabulary)


def _timed(action: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    start = time.process_time()
    result = action()
    return time.process_time() - start, result


def build_patch(gateway: HostGateway) -> None:
    patch = {"id": "P", "shape": "QUAD", "divisions": [N, N],
             "corners": [[0, 0, 0], [N, 0, 0], [N, N, 0], [0, N, 0]]}
    fragment = MODULE.compile("build_part", {"patches": [patch]}, _ctx(gateway, "build"))
    receipt = gateway.execute(compose([fragment]).text, TARGET, Path(tempfile.mkdtemp()))
    assert receipt.status == "PASS", receipt.traceback


def _ctx(gateway: HostGateway, request: str, state: Prediction | None = None,
         prior: tuple = ()) -> CompileContext:
    return CompileContext(
        request_text=request, target=TARGET,
        state=state or Prediction.from_readback(gateway.readback(TARGET)),
        model=gateway.model(TARGET.model_name), part=gateway.part(TARGET),
        prior_fragments=prior)


def plan_side(gateway: HostGateway) -> Any:
    before = gateway.readback(TARGET)
    state = Prediction.from_readback(before)
    fragments: list = []
    for tool, args in CALLS:
        fragment = MODULE.compile(tool, args, _ctx(gateway, REQUEST, state, tuple(fragments)))
        fragments.append(fragment)
        state = fragment.evidence
    script = compose(fragments)
    plan, detail = build_plan(run_id="bench", module=MODULE, fragments=fragments,
                              ctx=_ctx(gateway, REQUEST), prediction=state, before=before,
                              spec=SPEC, script_sha256=script.sha256)
    assert detail.predicted is not None, plan.prediction
    return plan, detail


def direct_side(model: Any, out: Path) -> Any:
    part = model.Part("Direct", objectToCopy=model.parts["Patch"])
    part_transform.apply(part, [COPY])
    part_repair.repair(part, merge=True, tolerance=0.01, delete_duplicates=False,
                       delete_free=False)
    part_audit.write_audit(part, str(out), ["counts", "free_nodes", "coincident_nodes"])
    return part


def main() -> None:
    sam.mdb = sam.database.Mdb()
    gateway = HostGateway(sam)
    build_patch(gateway)
    model = gateway.model("Model-1")
    out = Path(tempfile.mkdtemp())
    best = {"plan": float("inf"), "direct": float("inf")}
    for _ in range(ROUNDS):
        seconds, (plan, detail) = _timed(lambda: plan_side(gateway))
        best["plan"] = min(best["plan"], seconds)
        seconds, part = _timed(lambda: direct_side(model, out))
        best["direct"] = min(best["direct"], seconds)
        # the plan's predicted after-fingerprint is the part the same operations make
        direct = read_part(model, "Direct")
        assert direct.fingerprint == str(detail.predicted.after), (direct.fingerprint,
                                                                   detail.predicted.after)
        del model.parts["Direct"]
    after = detail.predicted.after
    print(f"part: {(N + 1) ** 2} nodes, {N * N} QUADs; plan predicts {after.nodes} nodes, "
          f"{after.elements} elements (after-fingerprint {after}, the direct part's own)")
    print(f"plan: {plan.summary()}; warnings: {plan.warnings or 'none'}")
    print(f"compile + plan + shadow: {best['plan']:.2f} s CPU")
    print(f"direct through the host API: {best['direct']:.2f} s CPU")
    print(f"ratio={best['plan'] / best['direct']:.2f} goal<={GOAL:g}")


if __name__ == "__main__":
    main()
