"""The command-line toolkit every console script shares, below both `training/` and
`apps/`: `command` (typed, bounded argparse types, the parser that shows its defaults,
`run_main`, the one-line failure), `outputs` (files written atomically, output folders
never overwritten), and per game the options its scripts share (`commandline.asara.options`)."""
