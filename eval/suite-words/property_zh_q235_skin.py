"""Define a material and a shell section, Chinese, units in words."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Panel",
    request=(
        "新建材料 Q235，弹性模量 206 GPa，泊松比 0.3；再建一个叫 SKIN 的壳截面，厚 3 "
        "毫米，材料用 Q235。"
    ),
    checks=[c.material("Q235", 206000, 0.3), c.shell_section("SKIN", "Q235", 3)],
    tags=["define", "units", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Panel", 2, 2, 20.0, 20.0)
