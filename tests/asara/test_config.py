"""Configuration: valid values accepted, invalid ones rejected with a message naming them."""

import subprocess
import sys

import pytest

from asara_env import GameConfig
from asara_env.asara.constants import ASSUMED, N_CARDS, N_LIGHTED, TILES_PER_COLOUR
from asara_env.asara.reference import engine


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["basic", "pro"])
def test_valid_configurations_set_up_a_game(players, variant):
    state = engine.new_game(GameConfig(num_players=players, variant=variant), 0)
    assert len(state.money) == players


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 5}, "num_players"),
        ({"num_players": "3"}, "num_players"),
        ({"num_players": True}, "num_players"),
        ({"variant": "expert"}, "variant"),
        ({"expansions": ("dragons",)}, "unknown expansion 'dragons'"),
        ({"expansions": ("genie",)}, "'genie' expansion needs the professional variant"),
        ({"expansions": ("genie", "gifts")}, "professional variant"),
        ({"num_players": 3, "start_seat": 3}, "start_seat"),
        ({"start_seat": -1}, "start_seat"),
    ],
)
def test_invalid_configurations_raise_value_error_naming_the_problem(kwargs, words):
    with pytest.raises(ValueError, match=words):
        GameConfig(**kwargs)


def test_config_round_trips_through_a_dict_and_rejects_unknown_keys():
    config = GameConfig(num_players=3, variant="pro", start_seat=2)
    assert GameConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ValueError, match="unknown config keys"):
        GameConfig.from_dict({"num_players": 3, "colour_blind": True})


def test_assumed_numbers_live_in_one_table_and_give_the_sourced_totals():
    """R1: the even splits are [assumed]; the totals 20/20/25/20, 45 cards, 15 lights are not."""
    assert [n * 5 for n in TILES_PER_COLOUR] == [20, 20, 25, 20]
    assert N_CARDS == 45 and N_LIGHTED == 15
    assert set(ASSUMED) >= {"tiles_per_colour", "cards_per_colour", "lighted_windows_per_colour"}


def test_the_rules_cores_import_only_numpy():
    """The reference engine and the vectorised core import no RL or DL library."""
    code = (
        "import sys, asara_env.asara.reference.serialize, asara_env.asara.reference.record,"
        " asara_env.asara.core,"
        " asara_env.asara.core.observation;"
        "print(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('pettingzoo', 'gymnasium', 'torch', 'tqdm')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
