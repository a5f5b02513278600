"""A verified run's calls applied again to other parts, with no model (docs/architecture.md §6
"rerun"): ``source`` reads the run, ``session`` runs it target by target through the
controller's ``plan_calls``, ``outcome`` says what became of each target."""
