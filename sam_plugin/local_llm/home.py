"""Where the local model lives: the per-user cache, never the repository or the working folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

from sam_plugin.runtime.config import env


@dataclass(frozen=True)
class LocalHome:
    """The files of one local-model home, by what they hold."""

    root: Path

    @classmethod
    def default(cls) -> LocalHome:
        chosen = env.llm_home()  # an explicit folder (tests, a shared disk)
        if chosen is not None:
            return cls(chosen)
        return cls(Path(platformdirs.user_cache_dir("sam-agent")) / "llm")

    @property
    def src(self) -> Path:
        return self.root / "src"

    @property
    def build(self) -> Path:
        return self.root / "build"

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def server_binary(self) -> Path:
        return self.bin / "llama-server"

    @property
    def build_record(self) -> Path:
        """Written last by a smoke-tested build: its variant and flags."""
        return self.bin / "BUILD.json"

    @property
    def models(self) -> Path:
        return self.root / "models"

    @property
    def parts(self) -> Path:
        return self.root / "pkgs"

    @property
    def setup_record(self) -> Path:
        """The model set up last, so that ``serve`` and ``status`` need no flag."""
        return self.root / "setup.json"

    @property
    def setup_lock(self) -> Path:
        """While a set-up runs: its process id and stage."""
        return self.root / "setup.lock"

    def server_record(self, port: int) -> Path:
        return self.root / f"server-{port}.json"

    def server_log(self, port: int) -> Path:
        return self.root / f"server-{port}.log"

    @property
    def smoke_log(self) -> Path:
        return self.root / "smoke.log"
