"""Where the dock keeps its settings: moved to :mod:`sam_plugin.runtime.config.store` so that
the CLI reads the same file without Qt; this name stays for existing imports."""

from sam_plugin.runtime.config.store import (  # noqa: F401
    APP_NAME,
    SAVED_FIELDS,
    SettingsStore,
    default_settings_path,
    runs_dir_from_env,
)
