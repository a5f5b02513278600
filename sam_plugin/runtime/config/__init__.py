"""Settings: the provider, where they are kept, and the run policy."""
