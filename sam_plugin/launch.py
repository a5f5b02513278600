"""What a caller that starts the host itself (``sam-agent demo``) tells the plugin it loads.

The demo used to say these things by writing ``SAM_AGENT_*`` variables into its own process
environment; they are passed to ``sam_plugin.load(host, launch=...)`` instead, so that a
demo started from a test (or any other caller) leaves the environment as it found it. SAM
itself passes none: then the environment and the saved settings decide, as before. No Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Launch:
    #: ``--replay``: the replay answers until the analyst saves a choice in Settings
    replay: bool = False
    #: with no provider configured, the replay answers (the demo); SAM's own load leaves it
    #: False: there the dock says that no model is configured and shows no examples
    replay_by_default: bool = False
    #: seconds between the replay's streamed pieces (None: ``SAM_AGENT_REPLAY_DELAY``)
    replay_delay: float | None = None
    #: where runs go (None: ``SAM_AGENT_RUNS_DIR``, else the per-user default)
    runs_dir: Path | None = None
