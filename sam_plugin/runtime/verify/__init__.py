"""Verification: the live part read back and judged against the plan's prediction."""
