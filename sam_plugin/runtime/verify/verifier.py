"""Judge a run by its evidence: the compilers' prediction against a readback taken after it ran.

Every ``actual`` comes from the live model or the file system, never from the prediction or
the script's own claims (the verifier never passes expected values off as actual).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sam_plugin.compilers.evidence import SHAPES, Check, Prediction, Range, Readback
from sam_plugin.compilers.plan import PlanDetail
from sam_plugin.runtime.verify.part_comparison import compare_with_plan
from sam_plugin.samops.part_inspect import free_node_labels
from sam_plugin.words.phrase import Phrase, phrase, render

FREE_NODES_CHECK = render(phrase("check.free_nodes"))


def verify(prediction: Prediction, before: Readback, after: Readback, run_dir: Path,
           plan: PlanDetail | None = None, live_part: Any = None,
           live_model: Any = None) -> list[Check]:
    """Counts, names and files against the prediction; with the plan's detail also the live
    part against the predicted one (I13, ``part_comparison``)."""
    checks = [
        Check.said(
            phrase("check.part_exists"),
            phrase("check.present"),
            phrase("check.present" if after.part_exists else "check.missing"),
            ok=after.part_exists,
        ),
        _in_range(phrase("check.node_count"), prediction.node_count, after.node_count),
        _in_range(phrase("check.element_count"), prediction.element_count,
                  after.element_count),
    ]
    for shape in SHAPES:
        predicted = prediction.shape_counts.get(shape)
        if predicted is not None:
            checks.append(
                _in_range(phrase("check.shape_elements", shape=shape), predicted,
                          after.shape_counts.get(shape, 0))
            )
    checks += [_present("set", name, after.sets) for name in prediction.sets_present]
    if prediction.geometry_unchanged:
        # the node and element records; what else may change is the plan comparison's
        held = (before.geometry_fingerprint == after.geometry_fingerprint
                and bool(after.geometry_fingerprint))
        checks.append(
            Check.said(
                phrase("check.geometry_unchanged"),
                phrase("check.as_before", text=before.geometry_fingerprint),
                phrase("check.as_before" if held else "check.changed",
                       text=after.geometry_fingerprint),
                ok=held,
            )
        )
    checks += [_present("material", name, after.materials) for name in prediction.materials_present]
    checks += [_present("section", name, after.sections) for name in prediction.sections_present]
    if prediction.assigned_elements is not None:
        checks.append(
            _in_range(phrase("check.elements_with_section"), prediction.assigned_elements,
                      after.assigned_elements)
        )
    if prediction.oriented_beams is not None:
        checks.append(
            _in_range(phrase("check.oriented_beams"), prediction.oriented_beams,
                      after.oriented_beams)
        )
    if prediction.hanging_nodes is not None:
        checks.append(_hanging_nodes(prediction.hanging_nodes, after.hanging_nodes))
    checks += [_file_written(Path(run_dir), name) for name in prediction.files]
    if after.non_finite:  # refused by the fingerprint: nothing else can be compared exactly
        return [*checks, Check.said(phrase("check.finite"), phrase("check.finite_values"),
                                    "; ".join(after.non_finite), ok=False)]
    if plan is not None and after.part_exists:
        checks += compare_with_plan(plan.predicted, live_part, after, plan.basis, live_model,
                                    plan.basis_phrase)
    if plan is not None and plan.free_nodes and live_part is not None:
        checks.append(_free_nodes(plan.free_nodes, live_part))
    return checks


def _free_nodes(planned: list[int], live_part: Any) -> Check:
    """The nodes the plan said the run leaves with no element, read on the live part: how
    many of them are free (a count, in any language; the plan's line names them)."""
    free = set(free_node_labels(live_part))
    found = [label for label in planned if label in free]
    return Check.said(phrase("check.free_nodes"), str(len(planned)), str(len(found)),
                      ok=found == planned)


def all_passed(checks: list[Check]) -> bool:
    return bool(checks) and all(check.ok for check in checks)


def _in_range(name: Phrase, expected: Range, actual: int) -> Check:
    return Check.said(name, expected.describe(), str(actual), ok=expected.contains(actual))


def _hanging_nodes(expected: Range, actual: int | None) -> Check:
    if actual is None:  # never pass the prediction off as what was found
        return Check.said(phrase("check.hanging_nodes"), expected.describe(),
                          phrase("check.not_read"), ok=False)
    return _in_range(phrase("check.hanging_nodes"), expected, actual)


def _present(kind: str, name: str, actual_names: list[str]) -> Check:
    found = name in actual_names
    return Check.said(phrase(f"check.{kind}", name=name), phrase("check.present"),
                      phrase("check.present" if found else "check.missing"), ok=found)


def _file_written(run_dir: Path, name: str) -> Check:
    path = run_dir / name
    if path.is_file() and path.stat().st_size > 0:
        actual, ok = phrase("check.written_bytes", bytes=path.stat().st_size), True
    elif path.is_file():
        actual, ok = phrase("check.empty"), False
    else:
        actual, ok = phrase("check.missing"), False
    return Check.said(phrase("check.file", name=name), phrase("check.written"), actual, ok=ok)
