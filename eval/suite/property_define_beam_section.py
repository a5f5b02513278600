"""Property define: a beam section with a rectangular profile."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Beam",
    request=(
        "Define material Alu with Young's modulus 70000 and Poisson's ratio 0.33, "
        "and a beam section BEAM_R made of Alu with a rectangular profile a = 10, "
        "b = 20."
    ),
    checks=[c.material("Alu", 70000, 0.33),
            c.beam_section("BEAM_R", "Alu", "rectangle", a=10, b=20)],
    tags=["define"],
)


def setup(mdb):
    w.beam_line(mdb, "Beam", (0, 0, 0), (100, 0, 0), 4)
