"""``approval_channels`` in the settings must be a list of known channel names (docs/mcp.md
"Trust boundary"). On main a string turned every channel on (it was not a list, so the default
held), and an empty or misspelt list said ``--approval: nothing is not a channel``, naming a
flag nobody gave."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp_support import plate_workspace

from sam_plugin.cli.main import main
from sam_plugin.runtime.config.store import SettingsStore

LEGAL = "give a list of one or more of dock, elicitation, command"


@pytest.mark.parametrize("saved,what", [
    ("command", "'command' is text, not a list"),
    ([], "the list names no channel"),
    (["dokc"], "dokc is not a channel"),
    (["command", "dokc", 3], "dokc, 3 are not channels"),
])
def test_a_saved_channel_list_that_is_not_one_is_one_line(tmp_path, capsys, saved, what):
    settings = Path(os.environ["SAM_AGENT_SETTINGS_FILE"])
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"approval_channels": saved}))
    line = f"approval_channels in {settings}: {what}; {LEGAL}"
    with pytest.raises(ValueError) as refused:
        SettingsStore().approval_channels()
    assert str(refused.value) == line
    workspace = plate_workspace(tmp_path / "w.sam.json")
    assert main(["mcp", "--workspace", str(workspace)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"sam-agent: error: {line}"


def test_no_setting_means_every_channel_and_a_list_is_kept_in_order(tmp_path):
    assert SettingsStore().approval_channels() == ("dock", "elicitation", "command")
    settings = Path(os.environ["SAM_AGENT_SETTINGS_FILE"])
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"approval_channels": ["command", "elicitation"]}))
    assert SettingsStore().approval_channels() == ("elicitation", "command")
