"""docs/architecture.md "Adding a domain", tried: a made-up domain registered in one line of
the registry is found by everything that serves a mode (its spec schema, its routing, its
MCP tools and examples, the snapshot, the observation) without an edit anywhere else."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from sam_plugin.compilers import composer, registry
from sam_plugin.compilers.evidence import Prediction, Range
from sam_plugin.compilers.protocol import CompileContext, DomainModule, Fragment, Target
from sam_plugin.compilers.routing import RoutingRules
from sam_plugin.compilers.spec import spec_json_schema
from sam_plugin.compilers.spec import values as v
from sam_plugin.compilers.spec.computed import ComputedCall
from sam_plugin.compilers.spec.vocabulary import ActionDef, CallOperation, Vocabulary
from sam_plugin.compilers.table_module import TableDrivenModule, ToolCompiler
from sam_plugin.mcp_server.reads import capabilities
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.observe.observation import observe
from tests.support.pipeline import fresh_database

ROOT = Path(__file__).resolve().parents[2]
fresh_sam = pytest.fixture(fresh_database)


class NoteIR(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str


def _generate(ir: NoteIR, ctx: CompileContext) -> Fragment:
    return Fragment(tool="annotate_note", normalized=ir.model_dump(), evidence=ctx.state,
                    mutation=f"_model.description = {ir.text!r}\n")


def _operations(fragment: Fragment) -> list[CallOperation]:
    return [CallOperation(fragment.tool, "", "annotate", dict(fragment.normalized))]


def _calls(spec: Any, tools: Any) -> list[ComputedCall]:
    return [ComputedCall("annotate_note", dict(spec.steps[0].values), (0,))]


_prompts = types.SimpleNamespace(EXAMPLES=(), design_prompt=lambda language="en": "Notes.",
                                 collection_prompt=lambda language="en": "Notes.")
_vocabulary = Vocabulary(
    mode="note", title="Note", capabilities=("annotate",),
    capability_words={"annotate": ("annotate", "注释")},
    actions=(ActionDef("annotate", "annotate", {"text": v.name("the note")},
                       en="note {text}", zh="注释{text}", required=("text",)),))
_schema = {"type": "object", "properties": {"text": {"type": "string"}},
           "required": ["text"], "additionalProperties": False}

NOTE = TableDrivenModule(
    mode="note",  # type: ignore[arg-type]  # a mode the Literal does not know: a test's own
    title="Note", capabilities=("annotate",), tool_names={"annotate": "annotate_note"},
    rules=RoutingRules(title="Note", capabilities=("annotate",),
                       tool_names={"annotate": "annotate_note"},
                       keywords_en={"annotate": ("note",)}, keywords_zh={"annotate": ("注释",)}),
    schemas={"annotate_note": _schema}, descriptions={"annotate_note": "Write a note."},
    compilers={"annotate_note": ToolCompiler(NoteIR, lambda ir, ctx: [], _generate)},
    prompts=_prompts, vocabulary=_vocabulary, call_operations=_operations, step_calls=_calls,
    mcp_examples={"annotate_note": {
        "step": {"capability": "annotate", "action": "annotate", "values": {"text": "hi"},
                 "text": "Note hi."},
        "arguments": {"text": "hi"}}},
    snapshot_covers=("note_cover",),
    observation_reader=lambda model: {"description": getattr(model, "description", "")},
    does_words=(r"\bnotes?\b", r"注释"),
)


@pytest.fixture
def note_domain(monkeypatch: pytest.MonkeyPatch) -> DomainModule:
    """The registry's one line for the domain (its package: a module holding MODULE)."""
    package = types.ModuleType("note_domain_for_a_test")
    package.MODULE = NOTE  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, package.__name__, package)
    monkeypatch.setitem(registry._MODULE_PATHS, "note", package.__name__)
    monkeypatch.setattr(registry, "MODES", (*registry.MODES, "note"))
    return registry.get_module("note")


def test_a_registered_domain_is_a_domain_module(note_domain):
    assert isinstance(note_domain, DomainModule) and note_domain is NOTE


def test_its_spec_schema_and_routing_come_from_it(note_domain):
    assert "annotate" in json.dumps(spec_json_schema("note"))
    assert note_domain.route_steps(["annotate"], target_is_empty=False).tools == [
        "annotate_note"]


def test_its_mcp_tools_and_examples_come_from_it(note_domain):
    offered = capabilities("note")
    assert [tool["name"] for tool in offered["tools"]] == ["annotate_note"]
    assert offered["tools"][0]["example"]["arguments"] == {"text": "hi"}


def test_its_compiled_call_is_snapshotted_with_its_repositories(note_domain):
    state = Prediction(node_count=Range.exact(0), element_count=Range.exact(0),
                       shape_counts={})
    ctx = CompileContext(request_text="", target=Target(model_name="M", part_name="P"),
                         state=state)
    fragment = note_domain.compile("annotate_note", {"text": "hi"}, ctx)
    # after the registered domains' covers (the Load mode's steps, loads and conditions)
    covers = registry.snapshot_covers()
    assert covers == ("load_cover", "note_cover")
    script = composer.compose([fragment]).text
    assert "_snapshot.take(_model, _part_name, covers=('load_cover', 'note_cover',))" in script


def test_its_observation_lines_show_in_its_mode_only(note_domain, fresh_sam):
    fresh_sam.mdb.models["Model-1"].description = "a model with a note"
    target = Target(model_name="Model-1", part_name="Plate")
    noted = observe(HostGateway(fresh_sam), "note", target)
    assert json.loads(noted.prompt_json())["domain"] == {"description": "a model with a note"}
    plain = observe(HostGateway(fresh_sam), "part", target)
    assert "domain" not in json.loads(plain.prompt_json())
    assert "domain" not in plain.model_dump(mode="json")


def test_the_words_that_name_what_it_does_and_its_title_come_from_it(note_domain):
    from sam_plugin.compilers.spec.out_of_mode import refused_by_words

    assert refused_by_words("apply a pressure of 2 MPa", "note") is not None
    assert refused_by_words("note that we apply a pressure of 2 MPa", "note") is None
    assert registry.mode_title("note", "zh_CN") == "Note"  # a package without mode_title.json


# -- the walk-through in docs/architecture.md against the tree --------------------------------

def _walkthrough(title: str) -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index(f"### {title}")
    end = text.find("\n### ", start + 1)
    return text[start:end if end != -1 else None]


def _paths(section: str) -> list[str]:
    return re.findall(r"`((?:sam_plugin|stubs|docs|tests)/[\w/.<>-]+)`", section)


@pytest.mark.parametrize("domain", ["part", "property", "mesh", "load"])
def test_every_package_file_the_walkthrough_names_exists_in_each_domain(domain):
    named = [p for p in _paths(_walkthrough("Adding a domain"))
             if p.startswith("sam_plugin/compilers/<domain>/") and not p.endswith("/")]
    assert named, "the walk-through names no file of a domain package"
    for path in named:
        assert (ROOT / path.replace("<domain>", domain)).is_file(), path


def test_the_files_outside_its_package_are_those_the_walkthrough_names():
    outside = {p for p in _paths(_walkthrough("Adding a domain"))
               if not p.startswith(("sam_plugin/compilers/<domain>/", "sam_plugin/samops/",
                                    "tests/"))}
    assert outside == {"sam_plugin/compilers/registry.py", "stubs/sam/", "docs/architecture.md",
                       "sam_plugin/compilers/units.py"}
    for path in outside:
        assert (ROOT / path).exists(), path


def test_every_file_the_part_action_walkthrough_names_exists():
    named = _paths(_walkthrough("Adding a Part action"))
    assert "sam_plugin/compilers/part/" in named
    for path in named:
        assert (ROOT / path).exists(), path
    section = _walkthrough("Adding a Part action")
    for name in re.findall(r"`(\w+\.py)`", section):
        assert any((ROOT / "sam_plugin" / where / name).is_file()
                   for where in ("compilers/part", "samops")), name
