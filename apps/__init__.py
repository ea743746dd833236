"""The applications on top of the library and the agents: every console script's entry
point and the modules it needs (`apps.scripts`), the `asara` console script
(`apps.asara.cli`), the terminal game (`apps.asara.play`), the options every console script shares
(`apps.asara.options`) and the web page (`apps.serve`, static files in `apps/web/`)."""
