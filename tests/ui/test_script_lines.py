"""What the script printed, as data (``runtime/script_lines.py``): the host keeps each report
as its tool and its report beside the text printed byte for byte as before, and the dock says
it in words from that data, never by reading the printed text back (docs/ui.md "Script
output")."""

from __future__ import annotations

import tempfile
from pathlib import Path

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.mesh import MODULE
from sam_plugin.compilers.protocol import CompileContext, Target
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.script_lines import LINES_FILE, ScriptLine, ScriptLines, read_lines
from sam_plugin.ui.output_words import output_words

TARGET = Target(model_name="Model-1", part_name="Plate")
REPORT = {"levels": 1, "refined_elements": 4, "created_elements": 16, "created_nodes": 14,
          "reused_nodes": (3, 5)}


def test_a_report_is_printed_as_before_and_kept_as_its_tool_and_report(capsys, tmp_path):
    printed = ScriptLines()
    printed.print("refine_mesh:", REPORT)
    printed.print("two\nlines", 3)
    printed.print("to a file", end="")
    ours = capsys.readouterr().out
    print("refine_mesh:", REPORT)
    print("two\nlines", 3)
    print("to a file", end="")
    assert ours == capsys.readouterr().out  # byte for byte what print prints
    assert printed.lines == [
        ScriptLine(text=f"refine_mesh: {REPORT}", tool="refine_mesh",
                   report={**REPORT, "reused_nodes": [3, 5]}),
        ScriptLine(text="two"), ScriptLine(text="lines 3"), ScriptLine(text="to a file")]
    printed.write(tmp_path)
    assert read_lines(tmp_path) == printed.lines
    assert read_lines(tmp_path / "nowhere") is None and read_lines(None) is None


def test_a_line_that_only_reads_like_a_report_is_text():
    printed = ScriptLines()
    printed.print(f"refine_mesh: {REPORT}")  # one string: not a report handed over as data
    printed.print("not a tool:", {"a": 1})
    printed.print("refine_mesh:", [1, 2])
    assert [line.tool for line in printed.lines] == [None, None, None]
    assert output_words(printed.lines).splitlines() == [line.text for line in printed.lines]


def test_the_words_are_said_from_the_data_not_from_the_text():
    line = ScriptLine(text="whatever was printed", tool="refine_mesh", report=REPORT)
    assert output_words([line, ScriptLine(text="done")]) == (
        "Refine the mesh: 4 elements refined once, 16 new elements in their place; 14 new "
        "nodes; 2 existing nodes used again\ndone")


def test_the_host_keeps_the_scripts_lines_in_the_run_directory():
    import sam
    import samConstants
    from sam.database import Mdb

    saved, sam.mdb = sam.mdb, Mdb()
    try:
        _refine_once(sam, samConstants)
    finally:
        sam.mdb = saved


def _refine_once(sam, samConstants) -> None:
    from sam_plugin.compilers.evidence import Prediction

    model = sam.mdb.models["Model-1"]
    part = model.Part(name="Plate")
    nodes = [part.Node(coordinates=(float(i), float(j), 0.0)) for j in (0, 1) for i in (0, 1)]
    part.Element(nodes=(nodes[0], nodes[1], nodes[3], nodes[2]), elemShape=samConstants.QUAD)
    gateway = HostGateway(sam)
    state = Prediction.from_readback(gateway.readback(TARGET))
    ctx = CompileContext(request_text="", target=TARGET, state=state, model=model, part=part)
    fragment = MODULE.compile("refine_mesh", {"selection": {"by": "all"}, "levels": 1}, ctx)
    out = Path(tempfile.mkdtemp())
    assert gateway.execute(compose([fragment]).text, TARGET, out).status == "PASS"
    lines = read_lines(out)
    assert lines is not None and (out / LINES_FILE).is_file()
    reports = [line for line in lines if line.tool is not None]
    assert [line.tool for line in reports] == ["refine_mesh"]
    assert reports[0].text.startswith("refine_mesh: {'levels': 1")
    assert output_words(reports) == ("Refine the mesh: 1 elements refined once, 4 new "
                                     "elements in their place; 5 new nodes")


def test_a_run_written_before_the_lines_shows_its_output_as_printed(qtbot):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    printed = f"refine_mesh: {REPORT}\n"
    view.show_output(printed, None)
    assert view.output.toPlainText() == printed.rstrip()
    view.show_output(printed, [ScriptLine(text=printed.rstrip(), tool="refine_mesh",
                                          report=REPORT)])
    assert view.output.toPlainText().startswith("Refine the mesh: 4 elements refined once")
    view.output_raw_button.click()
    assert view.output.toPlainText() == printed.rstrip()


def test_a_definitions_report_names_them_by_kind_as_data():
    report = {"created": {"materials": ["Steel"], "sections": ["Shell-2mm", "B'1"]},
              "unchanged": {"materials": ["Q235"], "sections": []}}
    line = ScriptLine(text="", tool="define_property", report=report)
    assert output_words([line]) == ("Define materials and sections: created material Steel, "
                                    "section Shell-2mm, section B'1; already there as asked: "
                                    "material Q235")
    nothing = {"created": {"materials": [], "sections": []},
               "unchanged": {"materials": [], "sections": []}}
    assert output_words([ScriptLine(text="", tool="define_property", report=nothing)]) == (
        "Define materials and sections: nothing to define")
