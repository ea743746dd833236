"""The applications on top of the library and the agents: the `asara` console script
(`apps.cli`), the terminal game (`apps.play`) and the options every console script shares
(`apps.options`)."""
