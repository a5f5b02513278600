"""The one-script composer: layout, imports, determinism, idempotency key."""

from __future__ import annotations

import ast
import hashlib

import pytest

from sam_plugin.compilers.composer import compose, idempotency_key
from sam_plugin.compilers.evidence import Prediction, Range
from sam_plugin.compilers.protocol import Fragment

EMPTY = Prediction(node_count=Range.exact(0), element_count=Range.exact(0),
                   shape_counts={s: Range.exact(0) for s in ("QUAD", "TRI", "BEAM")})


def _fragment(tool: str, **blocks: object) -> Fragment:
    return Fragment(tool=tool, normalized={}, evidence=EMPTY, **blocks)


def test_layout_orders_all_preflights_then_mutations_then_postflights() -> None:
    a = _fragment("edit_part", preflight="check_a()\n", mutation="do_a()\n",
                  postflight="after_a()\n", constants=["QUAD", "BEAM"], helpers=["part_ops"])
    b = _fragment("audit_part", preflight="check_b()\n", mutation="do_b()\n",
                  constants=["QUAD"], helpers=["part_audit"])
    text = compose([a, b]).text
    order = ["from sam import mdb, session", "from samConstants import BEAM, QUAD",
             "from sam_plugin.samops import part_audit as _part_audit",
             "from sam_plugin.samops import part_ops as _part_ops",
             "from sam_plugin.samops import snapshot as _snapshot",
             '_model = mdb.models[SAM_AGENT_TARGET["model_name"]]',
             '_part_name = SAM_AGENT_TARGET["part_name"]',
             "# --- preflight: edit_part (call 1) ---\ncheck_a()",
             "# --- preflight: audit_part (call 2) ---\ncheck_b()",
             "SAM_AGENT_SNAPSHOT = _snapshot.take(_model, _part_name, covers=('load_cover',))"
             "\ntry:\n",
             "    # --- mutation: edit_part (call 1) ---\n    do_a()",
             "    # --- mutation: audit_part (call 2) ---\n    do_b()",
             "    # --- postflight: edit_part (call 1) ---\n    after_a()",
             "except BaseException:\n    SAM_AGENT_RESTORE = _snapshot.restore_quietly(",
             "    raise\n",
             'session.viewports["Viewport: 1"].setValues(displayedObject=',
             "SAM_AGENT_COMPLETED = True"]
    positions = [text.index(piece) for piece in order]
    assert positions == sorted(positions)
    assert text.rstrip().endswith("SAM_AGENT_COMPLETED = True")
    assert "postflight: audit_part" not in text
    ast.parse(text)


def test_no_constants_means_no_samconstants_import() -> None:
    text = compose([_fragment("audit_part", mutation="x = 1\n")]).text
    assert "samConstants" not in text


def test_same_fragments_same_bytes_and_digest() -> None:
    first = compose([_fragment("t", mutation="x = (1.5, 'a')\n")])
    second = compose([_fragment("t", mutation="x = (1.5, 'a')\n")])
    assert first.text == second.text
    assert first.sha256 == second.sha256 == hashlib.sha256(first.text.encode()).hexdigest()
    other = compose([_fragment("t", mutation="x = (1.5, 'b')\n")])
    assert other.sha256 != first.sha256


def test_idempotency_key_mixes_script_and_run() -> None:
    sha = "ab" * 32
    assert idempotency_key(sha, "run-1") == idempotency_key(sha, "run-1")
    assert idempotency_key(sha, "run-1") != idempotency_key(sha, "run-2")
    assert idempotency_key(sha, "run-1") == hashlib.sha256(f"{sha}\nrun-1".encode()).hexdigest()


def test_bad_constant_or_helper_names_are_refused() -> None:
    with pytest.raises(ValueError, match="constant 'QUAD; import os' is not a Python"):
        compose([_fragment("t", constants=["QUAD; import os"])])
    with pytest.raises(ValueError, match="compose needs at least one fragment"):
        compose([])


def test_missing_target_model_stops_the_script(fresh_sam: object, tmp_path: object) -> None:
    from sam_plugin.compilers.protocol import Target
    from sam_plugin.runtime.host_gateway import HostGateway

    script = compose([_fragment("audit_part", mutation="raise RuntimeError('unreachable')\n")])
    receipt = HostGateway(fresh_sam).execute(script.text, Target(model_name="Gone",
                                                                 part_name="P"), tmp_path)
    assert receipt.status == "FAIL"
    assert "RuntimeError: target model 'Gone' does not exist; models: Model-1" in \
        receipt.traceback
