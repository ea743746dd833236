"""Training scripts and the tournament harness (see training/README.md)."""
