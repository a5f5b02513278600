"""The Load mode's words, as phrases (``sam_plugin/words/phrase.py``): its spec step and its
tools, in the record and the dock's English and Chinese."""

from __future__ import annotations

from sam_plugin.compilers.load.actions import VOCABULARY
from sam_plugin.compilers.spec.render import step_entry
from sam_plugin.words.phrase import Catalogue, register

CATALOGUE: Catalogue = {
    "tool.define_step": {"record": "define_step", "en": "define steps", "zh_CN": "定义分析步"},
    "tool.apply_load": {"record": "apply_load", "en": "apply loads", "zh_CN": "施加载荷"},
    "tool.apply_boundary": {"record": "apply_boundary", "en": "apply boundary conditions",
                            "zh_CN": "施加边界条件"},
    "tool.audit_loads": {"record": "audit_loads", "en": "audit the loads",
                         "zh_CN": "审计载荷"},
}
register(CATALOGUE)
register({"load.step": step_entry(VOCABULARY)})
