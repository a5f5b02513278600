"""Test support shared by every test folder: pytest fixtures, the domain pipeline."""
