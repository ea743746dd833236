"""The applications on top of the library and the agents: the `asara` console script
(`apps.cli`), the terminal game (`apps.play`), the options every console script shares
(`apps.options`) and the web page (`apps.serve`, static files in `apps/web/`)."""
