"""``python -m sam_plugin.cli``: the same as the ``sam-agent`` console entry."""

from sam_plugin.cli.main import main

if __name__ == "__main__":  # importing it (the wheel check imports every module) runs nothing
    raise SystemExit(main())
