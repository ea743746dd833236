"""Applications: console scripts and the web page (layer 6, see docs/architecture.md)."""
