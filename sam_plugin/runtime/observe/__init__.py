"""Read-only observation of the target: L0-L1 summary, L2 regions, L3 detail, exploration."""
