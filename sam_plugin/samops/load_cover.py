"""The snapshot's cover of the model's steps, loads and boundary conditions (a covering
module, ``samops/covered.py``): captured before a run, compared and put back after a failed
one, and by an undo. The regions' sets belong to the part, which the snapshot keeps itself;
``restore`` runs after the part is back, so the sets it names exist again."""

from __future__ import annotations

from typing import Any

from sam_plugin.samops.load_ops import DOFS, INITIAL
from sam_plugin.samops.load_read import read_entry, read_steps

_REPOSITORIES = ("steps", "loads", "boundaryConditions")


def missing(model: Any) -> list[str]:
    lacking = [f"model.{name}" for name in _REPOSITORIES if not hasattr(model, name)]
    lacking += [f"Model.{call}" for call in ("StaticStep", "Pressure", "ConcentratedForce",
                                             "EncastreBC", "DisplacementBC")
                if not callable(getattr(model, call, None))]
    return lacking


def capture(model: Any) -> list[Any]:
    """Steps (in analysis order), then loads, then boundary conditions, as the host holds
    them; a region is kept by its part's and set's names."""
    entries: list[Any] = [{"repository": "steps", **step} for step in read_steps(model)
                          if step["name"] != INITIAL]
    entries += [{"repository": "loads", **_plain(read_entry(model, e))}
                for e in model.loads.values()]
    entries += [{"repository": "boundaryConditions", **_plain(read_entry(model, e))}
                for e in model.boundaryConditions.values()]
    return entries


def _plain(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: entry[key] for key in ("name", "kind", "step", "region", "values")}


def differences(saved: list[Any], model: Any) -> list[str]:
    now = capture(model)
    if now == saved:
        return []
    said = {(e["repository"], e["name"]): e for e in saved}
    found = {(e["repository"], e["name"]): e for e in now}
    lines = [f"{_noun(key[0])} {key[1]!r} is gone" for key in said if key not in found]
    lines += [f"{_noun(key[0])} {key[1]!r} was added" for key in found if key not in said]
    lines += [f"{_noun(key[0])} {key[1]!r} differs" for key in said
              if key in found and found[key] != said[key]]
    return lines or ["the order of the steps, loads or boundary conditions differs"]


def _noun(repository: str) -> str:
    return {"steps": "step", "loads": "load"}.get(repository, "boundary condition")


def restore(model: Any, saved: list[Any]) -> None:
    """Remove every load, condition and step, then create the saved ones in their order."""
    for name in list(model.loads.keys()):
        del model.loads[name]
    for name in list(model.boundaryConditions.keys()):
        del model.boundaryConditions[name]
    for name in reversed([n for n in model.steps.keys() if n != INITIAL]):
        del model.steps[name]
    for entry in saved:
        _create(model, entry)


def _create(model: Any, entry: dict[str, Any]) -> None:
    from samConstants import UNSET  # the host's constants exist only inside SAM (or the stub)

    repository = entry["repository"]
    if repository == "steps":
        model.StaticStep(name=entry["name"], previous=entry["previous"] or INITIAL,
                         description=entry.get("description", ""))
        return
    part_name, set_name = entry["region"]
    where = model.parts[part_name].sets[set_name]
    values = entry["values"]
    common = {"name": entry["name"], "createStepName": entry["step"], "region": where}
    if entry["kind"] == "pressure":
        model.Pressure(magnitude=values["magnitude"], **common)
    elif entry["kind"] == "force":
        model.ConcentratedForce(cf1=values["cf1"], cf2=values["cf2"], cf3=values["cf3"],
                                **common)
    elif entry["kind"] == "encastre":
        model.EncastreBC(**common)
    else:
        model.DisplacementBC(**common, **{dof: UNSET if values.get(dof) is None
                                          else values[dof] for dof in DOFS})
