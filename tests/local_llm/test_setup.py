"""``sam-agent local setup`` against a fake build: the stages in order, resumed after a stop,
the next lower CPU variant after SIGILL, and the server it sets up served and stopped."""

from __future__ import annotations

import threading

import pytest

from sam_plugin.errors import IllegalInstruction, SetupCancelled
from sam_plugin.local_llm import catalog, server
from sam_plugin.local_llm.estimate import estimate
from sam_plugin.local_llm.home import LocalHome
from sam_plugin.local_llm.install import BuildRecord, Setup
from sam_plugin.local_llm.progress import Progress
from sam_plugin.local_llm.serve import ServeOptions, serve
from sam_plugin.local_llm.status import local_status
from tests.support.fake_llama_build import FakeCommands

AVX512_CPU = frozenset("sse4_2 avx avx2 fma f16c bmi2 avx512f avx512cd avx512bw avx512dq "
                       "avx512vl avx512_vnni".split())


def make_setup(home: LocalHome, commands: FakeCommands, seen: list[Progress],
               cancel: threading.Event | None = None,
               flags: frozenset[str] = AVX512_CPU) -> Setup:
    model = catalog.model_spec("0.5b")
    return Setup(home=home, model=model, commands=commands, found=estimate(model, 2),
                 on_progress=seen.append, cpu_flags=flags, cores=2, machine="x86_64",
                 cancel=cancel or threading.Event())


def test_setup_goes_through_its_stages_and_is_ready(home: LocalHome) -> None:
    commands, seen = FakeCommands(), []
    record = make_setup(home, commands, seen).run()

    stages = [p.stage for p in seen]
    firsts = sorted(set(stages), key=stages.index)
    assert firsts == ["download", "configure", "compile", "model", "smoke", "done"]
    assert "compile 5/5 (avx512)" in [p.words() for p in seen]
    assert "model parts 3/3 (0.5b)" in [p.words() for p in seen]
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert all(p.seconds_left is not None for p in seen) and seen[-1].seconds_left == 0
    assert record.variant == "avx512"
    assert "-DGGML_AVX512=ON" in commands.configured
    assert "-DGGML_NATIVE=OFF" in commands.configured
    assert not any("ALL_VARIANTS=ON" in flag for flag in commands.configured)
    # the pinned model, its check, the smoke-tested server; the build tree and parts gone
    model = home.models / catalog.MODELS["0.5b"].filename
    assert model.read_bytes().startswith(b"GGUF")
    assert (home.bin / "llama-server").exists()
    assert BuildRecord.model_validate_json(home.build_record.read_text()).variant == "avx512"
    assert not home.build.exists() and not home.parts.exists()
    assert not home.setup_lock.exists()
    now = local_status(home)
    assert (now.state, now.model, now.base_url) == (
        "ready", "qwen2.5-coder-0.5b-instruct", "http://127.0.0.1:8080/v1")


def test_a_stopped_setup_resumes_where_it_stopped(home: LocalHome) -> None:
    cancel = threading.Event()

    def stop_at_the_second_part(argv: list[str]) -> None:
        if argv[-1] == "fake-part2":
            cancel.set()

    commands, seen = FakeCommands(on_run=stop_at_the_second_part), []
    with pytest.raises(SetupCancelled):
        make_setup(home, commands, seen, cancel).run()
    assert local_status(home).state == "not set up"
    assert not home.setup_lock.exists()

    again = FakeCommands()
    make_setup(home, again, []).run()
    assert again.downloads == [] and again.configures() == 0
    assert again.compiles() == 1  # the build tool resumes its own work
    assert again.parts_installed() == ["fake-part2", "fake-part3"]
    assert local_status(home).state == "ready"

    # set up once more: nothing is downloaded, configured or compiled
    third = FakeCommands()
    make_setup(home, third, []).run()
    assert third.ran == [] and third.downloads == []


def test_sigill_steps_down_to_the_next_variant(home: LocalHome) -> None:
    commands, seen = FakeCommands(illegal={"AVX512"}), []
    record = make_setup(home, commands, seen).run()

    assert record.variant == "avx2"
    assert commands.configures() == 2 and commands.compiles() == 2
    assert "-DGGML_AVX512=OFF" in commands.configured and "-DGGML_AVX2=ON" in commands.configured
    assert "SIGILL" in (home.root / "setup.log").read_text()
    assert BuildRecord.model_validate_json(home.build_record.read_text()).variant == "avx2"


def test_the_ladder_ends_at_plain_x86_64(home: LocalHome) -> None:
    commands = FakeCommands(illegal={"SSE42"})
    record = make_setup(home, commands, [], flags=frozenset({"sse4_2"})).run()
    assert record.variant == "x86-64" and commands.configures() == 2


def test_sigill_on_every_variant_fails_and_installs_nothing(home: LocalHome) -> None:
    commands = FakeCommands(illegal={"ANY"})
    with pytest.raises(IllegalInstruction, match="SIGILL"):
        make_setup(home, commands, [], flags=frozenset({"sse4_2", "avx"})).run()
    assert commands.configures() == 3  # avx, sse42, x86-64
    assert not (home.bin / "llama-server").exists()
    assert local_status(home).state == "not set up"


def test_served_then_stopped(home: LocalHome) -> None:
    make_setup(home, FakeCommands(), []).run()
    port = server.free_port()
    running = serve(home, ServeOptions(port=port, threads=3))
    try:
        now = local_status(home)
        assert (now.state, now.base_url, now.model, now.pid) == (
            "serving", f"http://127.0.0.1:{port}/v1", "qwen2.5-coder-0.5b-instruct",
            running.pid)
        args = (home.bin / "args.log").read_text().splitlines()[-1]
        assert "--cache-prompt" in args and "-t 3" in args and "--jinja" in args
    finally:
        assert server.stop(home, port)
    assert local_status(home).state == "ready"
    assert not server.stop(home, port)
