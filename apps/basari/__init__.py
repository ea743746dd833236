"""BASARI in the terminal: `basari play`."""
