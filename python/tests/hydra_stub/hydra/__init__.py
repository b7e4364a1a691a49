"""Stand-in for Hydra (tests only)."""
