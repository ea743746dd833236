"""Runnable recipes: asara-env with the RL libraries people use (docs/rl-libraries.md).

Each recipe is a script (`python -m examples.<name> --help`) whose `run(...)` trains for a
bounded number of steps and returns what it measured; tests/integration runs each with
tiny settings.
"""
