"""Every console script of the package, as `pyproject.toml`'s `[project.scripts]` names
it: the function it runs and the optional modules it needs.

Each entry point is a `Script` of `SCRIPTS`, bound below under its name with `_` for `-`
(`asara-train = "apps.scripts:asara_train"`). Before importing its command it checks the
modules the command needs, so on an install without the extra it prints one line naming
the extra to install (`pip install 'asara-env[train]'`) and exits with status 2, `--help`
included; a module of an extra found missing later (an agent loading a shipped model) is
said the same way. A new console script is one `Script` here and one line in
`pyproject.toml` (tests/common/test_packaging.py checks they agree). A command whose
import takes seconds (the training commands import PyTorch) says so on a terminal while
it loads (`loads`); any other says it once its import has taken over a second.
"""

from __future__ import annotations

import importlib
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from asara_env.common.extras import missing_extra, require
from asara_env.common.status import slow_status, status
from commandline.command import exit_missing_extra

TRAIN = ("torch", "stable_baselines3", "sb3_contrib", "matplotlib")
EVALUATE = ("torch", "sb3_contrib", "matplotlib")
TOURNAMENT = ("openskill", "matplotlib")
LADDER = (*TOURNAMENT, "choix")
TORCH = "PyTorch and Stable-Baselines3"  # what the training commands import (seconds)
SERVE = ("fastapi", "uvicorn")


@dataclass(frozen=True)
class Script:
    """The console script `name`: it runs `target` ("module:function", a `main(argv=None)`)
    once the modules of `needs` are found installed."""

    name: str
    target: str
    needs: tuple[str, ...] = ()
    loads: str = ""  # what importing the command loads, said on a terminal while it does

    def loading(self) -> AbstractContextManager[None]:
        """What the command says on a terminal while it imports: what it loads (`loads`),
        or, when the import takes over a second (a loaded machine), that it is loading."""
        if self.loads:
            return status(f"{self.name}: loading {self.loads}")
        return slow_status(f"{self.name}: loading its modules")

    def __call__(self, argv: list[str] | None = None) -> Any:
        """The command's exit status (the console script exits with it) on `argv`
        (None: the command line)."""
        try:
            require("this command", self.needs)
            module, _, function = self.target.partition(":")
            with self.loading():
                main = getattr(importlib.import_module(module), function)
        except ImportError as e:
            missing = missing_extra(e, "this command")
            if missing is None:
                raise
            exit_missing_extra(self.name, missing)
        return main(argv)


SCRIPTS = (
    Script("asara", "apps.asara.cli:main_asara"),
    Script("asara-play-random", "apps.asara.cli:main"),
    Script("basari", "apps.basari.play:main"),
    Script("asara-tournament", "training.evaluation.asara.tournament:main", TOURNAMENT),
    Script("basari-tournament", "training.evaluation.basari.tournament:main", TOURNAMENT),
    Script("asara-ladder", "training.evaluation.asara.tournament:ladder", LADDER),
    Script("basari-ladder", "training.evaluation.basari.tournament:ladder", LADDER),
    Script("asara-train", "training.asara.train:main", TRAIN, TORCH),
    Script("basari-train", "training.basari.train:main", TRAIN, TORCH),
    Script("asara-selfplay", "training.asara.selfplay:main", TRAIN, TORCH),
    Script("basari-selfplay", "training.basari.selfplay:main", TRAIN, TORCH),
    Script("asara-evaluate", "training.evaluation.asara.evaluate:main", EVALUATE),
    Script("basari-evaluate", "training.evaluation.basari.evaluate:main", EVALUATE),
    Script("asara-serve", "apps.serve:main", SERVE),
    Script("basari-serve", "apps.serve:main_basari", SERVE),
)
BY_NAME = {script.name: script for script in SCRIPTS}

asara = BY_NAME["asara"]
asara_play_random = BY_NAME["asara-play-random"]
basari = BY_NAME["basari"]
asara_tournament = BY_NAME["asara-tournament"]
basari_tournament = BY_NAME["basari-tournament"]
asara_ladder = BY_NAME["asara-ladder"]
basari_ladder = BY_NAME["basari-ladder"]
asara_train = BY_NAME["asara-train"]
basari_train = BY_NAME["basari-train"]
asara_selfplay = BY_NAME["asara-selfplay"]
basari_selfplay = BY_NAME["basari-selfplay"]
asara_evaluate = BY_NAME["asara-evaluate"]
basari_evaluate = BY_NAME["basari-evaluate"]
asara_serve = BY_NAME["asara-serve"]
basari_serve = BY_NAME["basari-serve"]
