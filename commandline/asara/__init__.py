"""ASARA's command-line options, shared by its terminal game, web page, training and
tournaments."""
