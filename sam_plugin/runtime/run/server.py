"""The server at the provider's URL, before a run starts: probed once per URL
(``runtime/provider/probe.py``), the profile it implies unless one was set, and the
``server_detected`` event that opens every run's log (docs/architecture.md §6, §8)."""

from __future__ import annotations

from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.event_types import ServerDetected
from sam_plugin.runtime.provider.probe import Detection, Probe, apply, detect
from sam_plugin.runtime.run.context import StepContext


async def detect_server(settings: ProviderSettings,
                        probe: Probe | None) -> tuple[ProviderSettings, Detection]:
    """The settings the run's requests follow, and what answered at their URL."""
    detection = await detect(settings, probe)
    return apply(settings, detection), detection


def report_server(ctx: StepContext, detection: Detection) -> None:
    fields = detection.result_fields()
    ctx.emit(ServerDetected(server=fields["server"], profile=fields["profile"],
                            profile_from=detection.profile_from, note=detection.server.note,
                            text=detection.words()))
