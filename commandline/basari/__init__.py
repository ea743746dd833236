"""BASARI's command-line options, shared by its training and tournaments."""
