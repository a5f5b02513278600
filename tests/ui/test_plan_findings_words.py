"""The free nodes a deletion leaves, in the dock's words, English and Chinese: the plan's
line and the check row after the run (compilers/part/plan_findings.py)."""

from __future__ import annotations

from sam_plugin.compilers.evidence import Check
from sam_plugin.compilers.part.plan_findings import FREE_NODES
from sam_plugin.compilers.plan import PlanOperation, touched
from sam_plugin.runtime.verify.verifier import FREE_NODES_CHECK
from sam_plugin.words.phrase import phrase


def _said(qapp, locale: str | None) -> tuple[str, str]:
    from sam_plugin.ui import i18n
    from sam_plugin.ui.check_words import check_row
    from sam_plugin.ui.plan_text import operation_words

    line = PlanOperation(text=FREE_NODES, touched=[touched("nodes", [1, 2, 3])])
    check = Check.said(phrase("check.free_nodes"), "3", "3", ok=True)  # as a run makes it
    assert check.name == FREE_NODES_CHECK
    translator = i18n.install_translator(locale) if locale else None
    try:
        return operation_words(line), check_row(check).name
    finally:
        i18n.remove_translator(translator)


def test_the_free_nodes_line_and_check_in_english_and_chinese(qapp):
    assert _said(qapp, None) == ("leaves nodes with no element (free nodes): 3 nodes [1-3]",
                                 "free nodes the run leaves")
    line, check = _said(qapp, "zh_CN")
    assert line.startswith("留下不属于任何单元的节点（自由节点）") and "[1-3]" in line
    assert check == "运行留下的自由节点"
