"""ASARA in the terminal: `asara play`, `asara-play-random`."""
