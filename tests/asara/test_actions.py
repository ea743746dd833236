"""The action space: one size for every configuration, a round-trip encoding, names, docs."""

from pathlib import Path

import pytest

from asara_env.asara.actions import (
    CARD_OPTIONS,
    GROUPS,
    NUM_ACTIONS,
    OFFSETS,
    TARGETS,
    Group,
    decode,
    describe_action,
    encode,
    layout_markdown,
)


def test_encode_decode_round_trip_over_the_whole_space():
    for action in range(NUM_ACTIONS):
        group, fields = decode(action)
        assert encode(group, *fields) == action


def test_groups_tile_the_space_without_gaps():
    ends = [OFFSETS[g.group] + g.size for g in GROUPS]
    assert OFFSETS[0] == 0
    assert list(OFFSETS[1:]) == ends[:-1]
    assert ends[-1] == NUM_ACTIONS


def test_every_action_has_a_distinct_name():
    names = [describe_action(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS


def test_names_read_like_the_documented_examples():
    bank12 = next(i for i, t in enumerate(TARGETS) if t.name == "bank 12")
    assert describe_action(encode(Group.PLACE, bank12, 0)) == "place blue on bank 12"
    assert (
        describe_action(encode(Group.BUILD_TILE, 2, 2, 1, 1))
        == "build: red gold window on red tower #2"
    )


def test_out_of_range_ids_and_fields_are_rejected():
    with pytest.raises(ValueError, match="outside"):
        decode(NUM_ACTIONS)
    with pytest.raises(ValueError, match="outside"):
        decode(-1)
    with pytest.raises(ValueError, match="colour"):
        encode(Group.BUY, 0, 5, 0)
    with pytest.raises(ValueError, match="takes fields"):
        encode(Group.BUY, 0, 1)


def test_card_options_are_five_singles_and_fifteen_pairs():
    assert [len(c) for c in CARD_OPTIONS] == [1] * 5 + [2] * 15
    assert len(set(CARD_OPTIONS)) == 20


def test_docs_are_generated_from_the_table():
    doc = Path(__file__).parents[2] / "docs" / "asara" / "actions.md"
    assert doc.read_text() == layout_markdown(), "regenerate with `make docs`"
