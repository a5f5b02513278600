"""pytest fixtures shared by every test folder (registered in tests/conftest.py)."""
