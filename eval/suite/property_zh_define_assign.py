"""Property define + assign, Chinese request."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Plate",
    request=(
        "定义材料 Steel（弹性模量 210000，泊松比 0.3），"
        "定义厚度为 2 的壳截面 SHELL_2（材料 Steel），并把它赋给所有单元。"
    ),
    checks=[c.material("Steel", 210000, 0.3), c.shell_section("SHELL_2", "Steel", 2),
            c.coverage("SHELL_2", "QUAD")],
    tags=["define", "assign", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
