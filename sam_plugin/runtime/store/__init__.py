"""What a run leaves on disk: run directories, the journal, locks, the scrubber, undo, saves."""
