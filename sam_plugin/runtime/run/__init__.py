"""A run through its phases: the controller, its phase table and the steps it takes
(docs/architecture.md §1)."""
