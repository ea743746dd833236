"""The applications on top of the library and the agents: every console script's entry
point and the modules it needs (`apps.scripts`), the `asara` console script
(`apps.asara.cli`), the terminal games (`apps.<game>.play`) and the web page (`apps.serve`,
static files in `apps/web/`). The options every console script shares are `commandline`'s."""
