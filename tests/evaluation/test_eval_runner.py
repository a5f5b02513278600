"""``sam-agent eval`` on a small suite against the loopback fake provider: a task that
passes, one that fails acceptance, one refused at the right layer; record, then replay the
cassettes offline; a changed request is a named cassette mismatch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sam_plugin.cli import main as cli
from sam_plugin.evaluation.cassette import Cassette, first_difference
from tests.support.specs import answer, step

TASK_FILE = '''
from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(mode="part", part="Plate", request={request!r}, expect={expect!r},
            checks={checks})


def setup(mdb):
    {setup}
'''

PATCH = {"patches": [{"id": "P1", "shape": "QUAD",
                      "corners": [[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]],
                      "divisions": [2, 1]}]}
BUILD_SPEC = answer(step("build", shape="QUAD", size=[2, 1], divisions=[2, 1]),
                    summary="Build a 2 x 1 plate, one QUAD patch meshed 2 x 1.")
REFUSED_SPEC = "I cannot apply loads: that is outside what this tool can do."
FREE_PYTHON = """```python
from sam import mdb
from samConstants import QUAD
p = mdb.models['Model-1'].Part(name=SAM_AGENT_TARGET['part_name'])
n = [p.Node(coordinates=(x, y, 0.0)) for y in (0.0, 1.0) for x in (0.0, 1.0, 2.0)]
p.Element(nodes=(n[0], n[1], n[4], n[3]), elemShape=QUAD)
p.Element(nodes=(n[1], n[2], n[5], n[4]), elemShape=QUAD)
```"""


def write_suite(root: Path) -> Path:
    suite = root / "suite"
    suite.mkdir()
    tasks = {
        "a_build": ("build a 2 x 1 plate of QUAD elements", "verified",
                    "[c.shape_counts(QUAD=2), c.node_count(6), c.bbox((0, 0, 0), (2, 1, 0))]",
                    "pass"),
        "b_wrong_count": ("build a 2 x 1 plate of QUAD elements", "verified",
                          "[c.shape_counts(QUAD=3)]", "pass"),
        "c_refuse_load": ("apply a pressure load of 5 MPa on the top edge", "nothing_runs",
                          "[]", 'w.plate(mdb, "Plate", 2, 1, 2.0, 1.0)'),
    }
    for name, (request, expect, checks, setup) in tasks.items():
        (suite / f"{name}.py").write_text(TASK_FILE.format(
            request=request, expect=expect, checks=checks, setup=setup))
    return suite


def script_answers(fake, *, baseline: bool) -> None:
    for _ in range(2):  # a_build, b_wrong_count: design, tool call (, free Python)
        fake.enqueue_reply(BUILD_SPEC)  # each stream reports 120 + 48 tokens
        fake.enqueue_reply(tool_calls=[("build_part", json.dumps(PATCH))])
        if baseline:
            fake.enqueue_reply(FREE_PYTHON)
    fake.enqueue_reply(REFUSED_SPEC)
    fake.enqueue_reply(REFUSED_SPEC)  # words again in the design repair round: nothing runs
    if baseline:
        fake.enqueue_reply("This request is outside what a script should do here.")


def run_eval(argv: list[str], capsys) -> tuple[int, dict, str]:
    code = cli.main(["eval", *argv, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {}, captured.err


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    return write_suite(tmp_path)


def test_live_run_scores_on_the_final_model_and_records(tmp_path, suite, fake_provider, capsys):
    script_answers(fake_provider, baseline=True)
    cassettes = tmp_path / "cassettes"
    code, report, err = run_eval(
        [str(suite), "--base-url", fake_provider.base_url, "--api-model", "fake-model",
         "--record", str(cassettes), "--out", str(tmp_path / "out"),
         "--baseline", "free-python", "--min-success", "0.6"], capsys)
    tasks = {t["name"]: t for t in report["tasks"]}
    assert tasks["a_build"]["accepted"] and tasks["a_build"]["status"] == "verified"
    assert tasks["a_build"]["provider_rounds"] == 2
    assert tasks["a_build"]["prompt_tokens"] == 240
    assert tasks["a_build"]["completion_tokens"] == 96
    wrong = tasks["b_wrong_count"]
    assert wrong["status"] == "verified" and not wrong["accepted"]
    assert wrong["layer"] == "acceptance" and "expected {'QUAD': 3}" in wrong["message"]
    refused = tasks["c_refuse_load"]
    assert refused["accepted"] and refused["layer"] is None and refused["unchanged"]
    assert refused["status"] == "failed" and refused["provider_rounds"] == 2
    assert report["totals"]["success_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert report["totals"]["failures_per_layer"] == {"acceptance": 1}
    assert code == 0  # 0.667 >= 0.6
    # the free-Python baseline ran the same acceptance on a copy
    assert tasks["a_build"]["baseline"]["accepted"]
    assert tasks["c_refuse_load"]["baseline"]["accepted"]  # no code, model unchanged
    assert report["baseline_totals"]["success_rate"] == pytest.approx(2 / 3, abs=1e-3)
    # one progress line per task, and the three report files
    assert err.count("[1/3] a_build: accepted") == 1 and "[3/3] c_refuse_load" in err
    out = tmp_path / "out"
    assert {"report.json", "report.md", "outcomes.png"} <= {p.name for p in out.iterdir()}
    md = (out / "report.md").read_text()
    assert "| b_wrong_count | part | verified | verified | acceptance |" in md
    assert (out / "outcomes.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in cassettes.iterdir()) == [
        "a_build.baseline.json", "a_build.pipeline.json", "b_wrong_count.baseline.json",
        "b_wrong_count.pipeline.json", "c_refuse_load.baseline.json",
        "c_refuse_load.pipeline.json", "meta.json"]


def test_replay_reproduces_the_recording_with_no_network(tmp_path, suite, fake_provider,
                                                         capsys):
    script_answers(fake_provider, baseline=False)
    cassettes = tmp_path / "cassettes"
    _, live, _ = run_eval([str(suite), "--base-url", fake_provider.base_url, "--api-model",
                           "fake-model", "--record", str(cassettes), "--out",
                           str(tmp_path / "live")], capsys)
    fake_provider.close()  # nothing answers at that address any more
    code, replay, _ = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                str(tmp_path / "replay"), "--min-success", "0.99"], capsys)
    keys = ("name", "status", "layer", "accepted", "provider_rounds", "prompt_tokens", "seconds")
    assert [{k: t[k] for k in keys} for t in replay["tasks"]] == \
        [{k: t[k] for k in keys} for t in live["tasks"]]
    assert all(t["replay_seconds"] is not None for t in replay["tasks"])  # seconds: as recorded
    assert code == 1  # 2/3 is below --min-success 0.99


def test_no_task_keeps_its_run_locked_after_it_ends(tmp_path, suite, fake_provider, capsys):
    """Each task's run held its lock, an open file, until the process ended: the 116 tasks
    of a suite kept 116 files open, and a long evaluation ran out of them."""
    from sam_plugin.runtime.store.file_lock import is_locked

    script_answers(fake_provider, baseline=False)
    run_eval([str(suite), "--base-url", fake_provider.base_url, "--api-model", "fake-model",
              "--out", str(tmp_path / "live")], capsys)
    locks = list((tmp_path / "live").rglob("run.lock"))
    assert len(locks) == 3
    assert [lock for lock in locks if is_locked(lock)] == []


def test_a_changed_request_fails_that_task_naming_the_difference(tmp_path, suite,
                                                                  fake_provider, capsys):
    script_answers(fake_provider, baseline=False)
    cassettes = tmp_path / "cassettes"
    run_eval([str(suite), "--base-url", fake_provider.base_url, "--api-model", "fake-model",
              "--record", str(cassettes), "--out", str(tmp_path / "live")], capsys)
    recorded = Cassette.load(cassettes, "a_build", "pipeline")
    assert recorded is not None
    recorded.exchanges[0].request["messages"][1]["content"] += " (edited)"
    recorded.save(cassettes)
    (cassettes / "b_wrong_count.pipeline.json").unlink()
    code, report, err = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                  str(tmp_path / "replay")], capsys)
    tasks = {t["name"]: t for t in report["tasks"]}
    mismatch = tasks["a_build"]
    assert mismatch["outcome"] == "mismatch" and not mismatch["accepted"]
    assert mismatch["layer"] == "cassette"
    assert "request #1 differs from the recording at $.messages[1].content" in \
        mismatch["message"]
    assert "(edited)" in mismatch["message"]
    skipped = tasks["b_wrong_count"]
    assert skipped["outcome"] == "skipped" and "no pipeline cassette" in skipped["message"]
    totals = report["totals"]
    assert totals["skipped"] == 1 and totals["scored"] == 2 and totals["mismatches"] == 1
    assert tasks["c_refuse_load"]["accepted"]
    assert "skipped (no cassette)" in err


def test_first_difference_names_the_path_and_both_values():
    assert first_difference({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "x"}]}) is None
    assert first_difference({"a": [1, 2]}, {"a": [1]}) == "$.a: recorded 2 items, sent 1"
    assert first_difference({"t": 0.1}, {"t": 0.2}) == "$.t: recorded 0.1, sent 0.2"
    assert first_difference({"k": 1}, {}) == "$.k: recorded 1, sent nothing"


def test_usage_errors_exit_2_with_a_message(tmp_path, suite, capsys):
    assert cli.main(["eval", str(tmp_path / "nope")]) == 2
    assert "no such suite directory" in capsys.readouterr().err
    assert cli.main(["eval", str(suite), "--only", "zzz", "--replay", str(tmp_path)]) == 2
    assert "--only: no task zzz" in capsys.readouterr().err
    assert cli.main(["eval", str(suite), "--replay", str(tmp_path)]) == 2
    assert "has no meta.json" in capsys.readouterr().err
    assert cli.main(["eval", str(suite), "--min-success", "2"]) == 2


def test_the_shipped_suite_loads_and_its_setups_build(tmp_path):
    from sam_plugin.evaluation.runner import prepare_workspace
    from sam_plugin.evaluation.task import load_suite

    root = Path(__file__).resolve().parents[2] / "eval" / "suite"
    tasks = load_suite(root)
    assert len(tasks) >= 30
    assert sum("zh" in t.tags for t in tasks) >= 6
    assert sum(t.expect == "nothing_runs" for t in tasks) >= 5
    for mode in ("part", "property", "mesh"):
        assert any(t.mode == mode for t in tasks)
    for task in tasks:
        if "large" not in task.tags:
            assert prepare_workspace(task, tmp_path / task.name).is_file()


def _record(tmp_path: Path, suite: Path, fake, capsys, *extra: str) -> Path:
    cassettes = tmp_path / "cassettes"
    run_eval([str(suite), "--base-url", fake.base_url, "--api-model", "fake-model",
              "--record", str(cassettes), "--out", str(tmp_path / "live"), *extra], capsys)
    return cassettes


def test_a_changed_system_prompt_is_stale_not_a_mismatch(tmp_path, suite, fake_provider,
                                                        capsys):
    script_answers(fake_provider, baseline=False)
    cassettes = _record(tmp_path, suite, fake_provider, capsys)
    recorded = Cassette.load(cassettes, "a_build", "pipeline")
    assert recorded is not None and recorded.exchanges[0].fingerprint
    recorded.exchanges[0].request["messages"][0]["content"] += " (an older design prompt)"
    recorded.exchanges[0].fingerprint = None  # as cassettes from before fingerprints
    recorded.save(cassettes)
    code, report, err = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                  str(tmp_path / "replay"), "--fail-on-mismatch"], capsys)
    stale = {t["name"]: t for t in report["tasks"]}["a_build"]
    assert stale["outcome"] == "stale" and stale["layer"] == "cassette"
    assert "request #1 shows the model other prompts than the recording ($.system[0]" in \
        stale["message"]
    totals = report["totals"]
    assert (totals["stale"], totals["mismatches"], totals["scored"]) == (1, 0, 2)
    assert code == 0  # stale is no failure, even with --fail-on-mismatch
    assert "stale (the prompts changed since the recording)" in err
    md = (tmp_path / "replay" / "report.md").read_text()
    assert "| stale cassettes (other prompts) | 1 |" in md and "- a_build (pipeline)" in md


def test_an_observation_rendered_otherwise_is_stale_a_tampered_one_a_mismatch(
        tmp_path, suite, fake_provider, capsys):
    """The first user turn (mode, target, observation, request) is what the code renders from
    the task's workspace: a recording from before a change to how the part is rendered (here
    an older fingerprint format, its fingerprint from before v2) is stale, re-recorded with
    --only-stale; a request edited under its own fingerprint is still a mismatch."""
    script_answers(fake_provider, baseline=False)
    cassettes = _record(tmp_path, suite, fake_provider, capsys)
    older = Cassette.load(cassettes, "a_build", "pipeline")
    tampered = Cassette.load(cassettes, "b_wrong_count", "pipeline")
    assert older is not None and tampered is not None
    older.exchanges[0].request["messages"][1]["content"] += " (older rendering)"
    older.exchanges[0].fingerprint = "shown-v1:0123456789abcdef"
    older.save(cassettes)
    tampered.exchanges[0].request["messages"][1]["content"] += " (edited)"
    tampered.save(cassettes)
    code, report, _ = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                str(tmp_path / "replay"), "--fail-on-mismatch"], capsys)
    tasks = {t["name"]: t for t in report["tasks"]}
    assert tasks["a_build"]["outcome"] == "stale"
    assert "request #1 shows the model other prompts than the recording ($.first_user" in \
        tasks["a_build"]["message"]
    assert tasks["b_wrong_count"]["outcome"] == "mismatch"
    assert code == 1


def test_a_changed_tool_parameter_is_stale_and_a_changed_user_turn_a_mismatch(
        tmp_path, suite, fake_provider, capsys):
    script_answers(fake_provider, baseline=False)
    cassettes = _record(tmp_path, suite, fake_provider, capsys)
    a = Cassette.load(cassettes, "a_build", "pipeline")
    b = Cassette.load(cassettes, "b_wrong_count", "pipeline")
    assert a is not None and b is not None
    a.exchanges[1].request["tools"][0]["function"]["description"] += " (older schema)"
    a.exchanges[1].fingerprint = None
    a.save(cassettes)
    b.exchanges[1].request["messages"][1]["content"] += " (edited)"
    b.save(cassettes)
    code, report, _ = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                str(tmp_path / "replay"), "--fail-on-mismatch"], capsys)
    tasks = {t["name"]: t for t in report["tasks"]}
    assert tasks["a_build"]["outcome"] == "stale"
    assert "request #2" in tasks["a_build"]["message"]
    assert "$.tools[0].function.description" in tasks["a_build"]["message"]
    assert tasks["b_wrong_count"]["outcome"] == "mismatch"
    assert code == 1  # a mismatch fails CI's replay


def test_only_stale_records_only_what_does_not_replay(tmp_path, suite, fake_provider, capsys):
    script_answers(fake_provider, baseline=False)
    cassettes = _record(tmp_path, suite, fake_provider, capsys)
    a = Cassette.load(cassettes, "a_build", "pipeline")
    assert a is not None
    a.exchanges[0].request["messages"][0]["content"] = "an older design prompt"
    a.exchanges[0].fingerprint = None
    a.save(cassettes)
    (cassettes / "c_refuse_load.pipeline.json").unlink()
    kept = (cassettes / "b_wrong_count.pipeline.json").read_text()
    def posts() -> int:
        return sum(r.method == "POST" for r in fake_provider.requests)

    served = posts()
    fake_provider.enqueue_reply(BUILD_SPEC)  # a_build again, then c_refuse_load
    fake_provider.enqueue_reply(tool_calls=[("build_part", json.dumps(PATCH))])
    fake_provider.enqueue_reply(REFUSED_SPEC)
    fake_provider.enqueue_reply(REFUSED_SPEC)  # the design repair round of a refusal
    code, report, err = run_eval(
        [str(suite), "--base-url", fake_provider.base_url, "--api-model", "fake-model",
         "--record", str(cassettes), "--only-stale", "--out", str(tmp_path / "again")], capsys)
    assert posts() - served == 4  # b_wrong_count was not asked again
    assert (cassettes / "b_wrong_count.pipeline.json").read_text() == kept
    tasks = {t["name"]: t for t in report["tasks"]}
    assert tasks["b_wrong_count"]["message"].endswith("(cassette kept)")
    assert tasks["a_build"]["accepted"] and tasks["c_refuse_load"]["accepted"]
    code, replay, _ = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                str(tmp_path / "replay"), "--fail-on-mismatch"], capsys)
    assert code == 0 and replay["totals"]["stale"] == 0 and replay["totals"]["scored"] == 3


def test_only_stale_needs_record(tmp_path, suite, capsys):
    assert cli.main(["eval", str(suite), "--only-stale", "--base-url", "http://x/v1"]) == 2
    assert "--only-stale: needs --record DIR" in capsys.readouterr().err


def test_unconstrained_is_kept_in_meta_and_replays_and_no_pipeline_runs_the_baseline_only(
        tmp_path, suite, fake_provider, capsys):
    fake_provider.get_routes["/props"] = {"build_info": "b1", "model_path": "/m/q.gguf"}
    for _ in range(2):  # a_build, b_wrong_count: the design, then one call per round
        fake_provider.enqueue_reply(BUILD_SPEC)
        fake_provider.enqueue_reply(tool_calls=[("build_part", json.dumps(PATCH))])
    fake_provider.enqueue_reply(REFUSED_SPEC)
    cassettes = tmp_path / "cassettes"
    _, live, _ = run_eval([str(suite), "--base-url", fake_provider.base_url, "--api-model", "m",
                           "--record", str(cassettes), "--unconstrained", "--out",
                           str(tmp_path / "live")], capsys)
    meta = json.loads((cassettes / "meta.json").read_text())
    assert meta["constrained"] is False and meta["profile"] == "llamacpp"
    recorded = Cassette.load(cassettes, "a_build", "pipeline")
    assert "response_format" not in recorded.exchanges[1].request  # not held to the schema
    assert recorded.exchanges[1].request["max_tokens"] >= 512  # but bounded
    code, replay, _ = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                str(tmp_path / "replay"), "--fail-on-mismatch"], capsys)
    assert code == 0 and replay["totals"]["stale"] == 0 and replay["totals"]["mismatches"] == 0
    assert [t["accepted"] for t in replay["tasks"]] == [t["accepted"] for t in live["tasks"]]
    for _ in range(3):
        fake_provider.enqueue_reply("```python\nx = 1\n```")
    _, only, _ = run_eval([str(suite), "--base-url", fake_provider.base_url, "--api-model", "m",
                           "--baseline", "free-python", "--no-pipeline", "--out",
                           str(tmp_path / "free")], capsys)
    assert all(t["outcome"] == "skipped" and t["baseline"]["outcome"] != "skipped"
               for t in only["tasks"])
