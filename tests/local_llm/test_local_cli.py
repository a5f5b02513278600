"""``sam-agent local`` as a user meets it: the sizes first, nothing done without an answer,
one line for a missing tool, and ``status --json``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sam_plugin.cli.local import setup_command
from sam_plugin.cli.main import main
from sam_plugin.local_llm.cpu import X86_SWITCHES, cpu_flags, ladder
from sam_plugin.local_llm.home import LocalHome
from tests.support.fake_llama_build import FakeCommands


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_with_no_one_at_the_terminal_setup_states_the_sizes_and_stops(
        home: LocalHome, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a tty
    assert main(["local", "setup", "--model", "0.5b"]) == 3
    out = capsys.readouterr().out
    for words in ("download", "disk", "RAM", "min on this machine's", "cmake and a C++ compiler",
                  "nothing was downloaded or built", "--yes"):
        assert words in out
    assert not home.root.exists()  # the real commands: nothing fetched, built or written


def test_a_missing_cmake_is_one_line_naming_the_packages(home: LocalHome) -> None:
    commands = FakeCommands(missing={"cmake", "c++", "g++", "clang++", "dnf", "brew"})
    out, err = io.StringIO(), io.StringIO()
    assert setup_command("0.5b", yes=True, stdin=io.StringIO(), out=out, err=err,
                         commands=commands, home=home) == 1
    assert err.getvalue().count("\n") == 1
    assert err.getvalue() == ("sam-agent local: error: missing cmake and a C++ compiler (g++ or "
                              "clang++): install them with sudo apt-get install cmake g++, then "
                              "run sam-agent local setup again\n")
    assert commands.ran == [] and commands.downloads == []


def test_setup_asks_and_a_no_does_nothing(home: LocalHome) -> None:
    commands = FakeCommands()
    out = io.StringIO()
    assert setup_command("0.5b", yes=False, stdin=Terminal("n\n"), out=out, err=io.StringIO(),
                         commands=commands, home=home) == 3
    assert "Download and build now? [y/N]" in out.getvalue()
    assert commands.ran == [] and commands.downloads == []


def test_yes_sets_it_up_with_a_progress_bar_and_says_what_to_use(
        home: LocalHome, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert setup_command("0.5b", yes=False, stdin=Terminal("y\n"), out=out, err=err,
                         commands=FakeCommands(), home=home) == 0
    bar = err.getvalue()
    for stage in ("download llama.cpp", "configure", "compile", "model parts", "smoke test",
                  "ready"):
        assert stage in bar
    assert "left" in bar and "100%" in bar
    last = bar.splitlines()[-1]  # the variant is this machine's
    assert "] 100% ready (" in last and last.endswith(")")  # nothing left to wait for
    assert "base URL: http://127.0.0.1:8080/v1" in out.getvalue()
    assert "model:    qwen2.5-coder-0.5b-instruct" in out.getvalue()

    assert main(["local", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["state"] == "ready" and status["model"] == "qwen2.5-coder-0.5b-instruct"
    assert status["home"] == str(home.root)

    again = io.StringIO()
    assert setup_command("0.5b", yes=False, stdin=io.StringIO(), out=again, err=io.StringIO(),
                         commands=FakeCommands(), home=home) == 0
    assert "already set up" in again.getvalue()


def test_status_when_nothing_is_set_up(home: LocalHome,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["local", "status"]) == 0
    assert "state:    not set up" in capsys.readouterr().out
    assert main(["local", "status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == "not set up"


def test_an_unknown_model_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["local", "setup", "--model", "7b"]) == 2
    assert "0.5b" in capsys.readouterr().err


def test_the_default_home_is_the_per_user_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.delenv("SAM_AGENT_LLM_HOME", raising=False)
    monkeypatch.delenv("LLM_HOME", raising=False)
    assert LocalHome.default().root == Path(platformdirs.user_cache_dir("sam-agent")) / "llm"


@pytest.mark.parametrize(("flags", "first"), [
    ("fpu sse4_2 avx avx2 fma f16c avx512f avx512cd avx512bw avx512dq avx512vl", "avx512"),
    ("fpu sse4_2 avx avx2 fma f16c avx512f", "avx2"),  # AVX-512 not whole: not granted
    ("fpu sse4_2 avx", "avx"),
    ("fpu", "x86-64"),
])
def test_the_variant_is_the_highest_the_cpu_lists(tmp_path: Path, flags: str, first: str) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n\nprocessor\t: 1\n")
    variants = ladder(cpu_flags(cpuinfo), "x86_64")
    assert variants[0].name == first and variants[-1].name == "x86-64"
    switches = variants[0].cmake_flags(cpu_flags(cpuinfo))
    assert switches[0] == "-DGGML_NATIVE=OFF"
    assert len(switches) == 1 + len(X86_SWITCHES)  # every switch said: none left to default


def test_an_arm_machine_builds_for_itself() -> None:
    assert [v.name for v in ladder({"neon"}, "aarch64")] == ["native"]


def test_the_estimate_says_when_other_work_keeps_the_cores_busy() -> None:
    from sam_plugin.local_llm.catalog import model_spec
    from sam_plugin.local_llm.estimate import estimate, estimate_lines

    spec = model_spec("0.5b")
    idle = estimate_lines(estimate(spec, 2, load=0.2), spec.title, [], "")
    busy = estimate_lines(estimate(spec, 2, load=9.4), spec.title, [], "")
    assert idle[4] == "  time      about 15 min on this machine's 2 core(s) (the compile: 12 min)"
    assert busy[4] == idle[4] + "; longer now: other work keeps them busy (load 9.4)"


def test_each_verb_runs_its_own_handler() -> None:
    from sam_plugin.cli import local
    from sam_plugin.cli.main import build_parser

    parser = build_parser()
    for argv, handler in ((["local", "setup"], local.handle_setup),
                          (["local", "serve"], local.handle_serve),
                          (["local", "stop"], local.handle_stop),
                          (["local", "status", "--json"], local.handle_status)):
        assert parser.parse_args(argv).handler is handler
