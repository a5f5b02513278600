"""``sam-agent run`` with the design asked whole (the default; docs/architecture.md §4 "One
repair before Review"): a step that does not compile is sent back to the model once with the
compiler's words, and Review says so."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli

from tests.support.specs import ALL, answer, step

REQUEST = "steel E 210000 nu 0.3, a 20 thick shell RECT on all elements"


def _spec(section: dict[str, object]) -> str:
    return answer(
        step("define_material", mode="property", name="Steel2", E=210000, nu=0.3),
        step("define_section", mode="property", **section),
        step("assign_section", ALL, mode="property", section="RECT"),
        summary="Steel and a shell section on all elements.")


def test_a_shell_section_given_a_profile_is_repaired_before_review(tmp_path, capsys,
                                                                    provider_env):
    shell = {"name": "RECT", "kind": "shell", "material": "Steel2", "thickness": 20}
    provider_env.enqueue_reply(_spec({**shell, "profile": {"shape": "rectangle", "a": 20,
                                                           "b": 40}}))
    provider_env.enqueue_reply(json.dumps(step("define_section", mode="property", **shell)))
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="property")
                  + ["--request", REQUEST, "--yes", "--json", "--design", "whole",
                     "--calls", "spec"], capsys)
    assert run.code == 0, run.err
    assert run.result["status"] == "verified"
    said = ("step 2 (define the shell section RECT of material Steel2, thickness 20, profile "
            "rectangle, a 20, b 40): sections[0].profile: unknown field 'profile' for kind "
            "'shell'; remove it (allowed fields: kind, name, material, thickness), or write "
            "kind 'beam', which has it")
    assert f"REPAIRED: step 2 (define_section) was asked again once, because: {said}" \
        in run.err
    sent = [r.json["messages"] for r in provider_env.requests]
    assert len(sent) == 2  # the design, its one repair; the calls are computed
    assert sent[1][-1]["content"] == (
        f"SAM Agent cannot use step 2 of this spec as it is:\n- {said}\n- its number 40 is "
        "in neither the request nor the observation: take the step's numbers from them"
        "\n\nAnswer with step 2 "
        'written again as ONE step, ONE JSON object {"capability", "action", "scope" (only '
        'for actions that act on existing entities), "values"} and nothing else: change what '
        "this problem names. The other steps stay as they are.")
    assert json.loads(sent[1][-2]["content"])["steps"][1]["values"]["profile"]
    # the step answered alone took its place; the others stayed as they were
    kept = json.loads((tmp_path / "runs" / run.result["run_id"] / "spec.json").read_text())
    assert [s["action"] for s in kept["steps"]] == ["define_material", "define_section",
                                                    "assign_section"]
    assert "profile" not in kept["steps"][1]["values"]


def test_a_whole_spec_answered_to_the_steps_question_is_taken_as_the_spec(
        tmp_path, capsys, provider_env):
    shell = {"name": "RECT", "kind": "shell", "material": "Steel2", "thickness": 20}
    provider_env.enqueue_reply(_spec({**shell, "profile": {"shape": "rectangle", "a": 20,
                                                           "b": 40}}))
    provider_env.enqueue_reply(_spec(shell))
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="property")
                  + ["--request", REQUEST, "--yes", "--json", "--design", "whole",
                     "--calls", "spec"], capsys)
    assert run.code == 0 and run.result["status"] == "verified", run.err
    assert len(provider_env.requests) == 2


def test_a_step_answered_as_it_was_is_not_asked_again(tmp_path, capsys, provider_env):
    """The 1.5B answered a whole spec asked again byte for byte as before in 15 of 24
    repairs: the same step again ends the repairs, and the spec that stood goes to Review
    (its diagnostic comes at the compile after Confirm)."""
    profiled = {"name": "RECT", "kind": "shell", "material": "Steel2", "thickness": 20,
                "profile": {"shape": "rectangle", "a": 20, "b": 40}}
    provider_env.enqueue_reply(_spec(profiled))
    provider_env.enqueue_reply(json.dumps(step("define_section", mode="property", **profiled)))
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="property")
                  + ["--request", REQUEST, "--yes", "--json", "--design", "whole",
                     "--calls", "spec"], capsys)
    assert len(provider_env.requests) == 2
    assert run.result["status"] != "verified"
    assert "unknown field 'profile' for kind 'shell'" in run.err


def test_a_spec_that_compiles_is_asked_once(tmp_path, capsys, provider_env):
    provider_env.enqueue_reply(_spec({"name": "RECT", "kind": "shell", "material": "Steel2",
                                      "thickness": 20}))
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="property")
                  + ["--request", REQUEST, "--yes", "--json", "--design", "whole",
                     "--calls", "spec"], capsys)
    assert run.code == 0 and run.result["status"] == "verified", run.err
    assert "REPAIRED" not in run.err and len(provider_env.requests) == 1


def test_a_translate_too_short_for_the_part_is_repaired_on_the_part_as_observed(
        tmp_path, capsys, provider_env, monkeypatch):
    """The design check judges the vector against the part's box as the run observed it,
    as the compile after Confirm does: not one more read of every node's coordinates."""
    from sam_plugin.compilers.part import scale_checks

    boxes: list[object] = []
    read_box = scale_checks.node_box
    monkeypatch.setattr(scale_checks, "node_box", lambda part: boxes.append(part)
                        or read_box(part))
    provider_env.enqueue_reply(answer(step("translate", ALL, vector=[0.0, 0.0, 1e-300]),
                                      summary="Translate the part."))
    provider_env.enqueue_reply(json.dumps(step("translate", ALL, vector=[0.0, 0.0, 5.0])))
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="part")
                  + ["--request", "translate everything by 5 along Z", "--yes", "--json",
                     "--design", "whole", "--calls", "spec"], capsys)
    assert run.code == 0 and run.result["status"] == "verified", run.err
    assert "REPAIRED: step 1 (translate) was asked again once, because: " in run.err
    assert "is within the merge tolerance" in run.err
    assert boxes == []  # both checks took the observed read's box


def test_a_steps_numbers_from_nowhere_are_named_beside_its_diagnostic(tmp_path, capsys,
                                                                       provider_env):
    """The 1.5B answered "put a copy of the plate right next to it" with a TRI on the
    prompt example's coordinates, collinear, and answered the same TRI when asked again with
    the compiler's words alone: the repair names the numbers that came from nowhere."""
    tri = {"count": 1, "shape": "TRI", "elements": [
        {"shape": "TRI", "nodes": [[1.25, 11.5, 0], [2.5, 11.5, 0], [3.75, 11.5, 0]]}]}
    provider_env.enqueue_reply(answer(step("add_elements", **tri), summary="A copy."))
    provider_env.enqueue_reply(json.dumps(step("translate_copy", ALL, vector=[2, 0, 0])))
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="part")
                  + ["--request", "Put a copy of the plate right next to it on the +X side.",
                     "--json", "--design", "whole", "--calls", "spec"], capsys)
    sent = [r.json["messages"] for r in provider_env.requests]
    assert len(sent) == 2, run.err
    assert sent[1][-1]["content"].startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- step 1 (add 1 TRI elements: a "
        "TRI on (1.25, 11.5, 0)–(2.5, 11.5, 0)–(3.75, 11.5, 0)): add_elements[0].node_ids: "
        "E1: TRI has zero area (its nodes are collinear)\n- its numbers 1.25, 2.5, 3.75, 11.5 "
        "are in neither the request nor the observation: take the step's numbers from them"
        "\n\nAnswer with step 1 written again as ONE step")
