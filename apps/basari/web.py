"""BASARI on the web page (apps/serve.py): the position as JSON for the page to draw, the
moves offered, a move applied with the opponents' simultaneous choices, barters step by
step, round-end scoring explained, uploads read and continued.

Every seat picks its start archway and its card at once with the others (B3.4, B5.1): the
opponents choose from the same position as the person, before the person's choice is
known. In a barter only the party to act decides (E2): an offer is built gem by gem and
then submitted, or the standing offer accepted, or the barter forfeited. Everything in
BASARI is public but the bundle another player is building (B11): the page shows the
person's own bundle, and of an opponent's only that it is building one until it submits.
The seed, which tells every die, and the record come only once the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agents.basari.arena import choose_reference
from agents.base import Agent
from apps.webgame import (
    BAD_REQUEST,
    CONFLICT,
    MAX_SEED,
    Refused,
    agent_choices,
    fresh_seed,
    seat_agents,
    validated,
)
from apps.webrecord import (
    Engine,
    Origin,
    RecordedSession,
    RecordedWeb,
)
from asara_env.basari.actions import Group
from asara_env.basari.config import START_MODES, BasariConfig
from asara_env.basari.constants import (
    CARD_NAMES,
    COLOUR_NAMES,
    LAP_BONUS,
    MAJORITY_BONUS,
    MAJORITY_RETURN,
    ROUNDS,
    TIE_RETURN,
)
from asara_env.basari.phases import Phase
from asara_env.basari.reference.engine import step
from asara_env.basari.reference.record import RULES
from asara_env.basari.reference.rules import (
    acting_seats,
    bundle_name,
    illegal_reason,
    legal_actions,
)
from asara_env.basari.reference.scoring import ranks, winners
from asara_env.basari.reference.state import State
from asara_env.basari.render_svg import action_spots, svg_full, svg_of
from asara_env.games import game_card

GAME = "basari"
Joint = list[int]  # one action id per seat


class NewGame(BaseModel):
    """A BASARI game to start; the person sits in `seat`."""

    model_config = ConfigDict(strict=True, extra="forbid")

    players: int = Field(3, description=f"one of {list(game_card(GAME).player_counts)}")
    start_mode: str = "choose"
    opponents: list[str] = Field(["value", "value"], description="agent specs")
    seat: int = 0
    seed: int | None = Field(None, ge=0, lt=MAX_SEED)


def _config_json(config: BasariConfig) -> dict[str, Any]:
    return {"num_players": config.num_players, "start_mode": config.start_mode}


ENGINE: Engine[State, Joint] = Engine(
    rules=RULES,
    is_over=lambda state: state.phase == Phase.OVER,
    config_json=_config_json,
    draw_full=lambda state: str(svg_full(state)),
    draw_seat=lambda state, seat: str(svg_of(state, seat)),
)


# ------------------------------------------------------------------------ what the page draws
def board_json(state: State, viewer: int | None) -> dict[str, Any]:
    """The position's facts the page's move panel names (the card choices' gains, the
    bundle being built): archways, merchants, carpet, seats, barter. The bundle being
    built is shown only to its builder (`viewer`; None shows it)."""
    building = state.phase == Phase.BARTER and viewer in (None, state.to_act)
    return {
        "round": state.round + 1,
        "rounds": ROUNDS,
        "turn": state.turn + 1,
        "phase": state.phase.name,
        "archways": state.board.tolist(),
        "carpet": state.carpet.tolist(),
        "colours": list(COLOUR_NAMES),
        "cards": list(CARD_NAMES),
        "viewer": viewer,
        "seats": [
            {
                "score": int(state.score[s]),
                "gems": state.gems[s].tolist(),
                "position": int(state.position[s]),
                "start": int(state.start[s]),
                "progress": int(state.progress[s]),
                "move_roll": int(state.move_roll[s]),
                "revealed": int(state.revealed[s]),
            }
            for s in range(state.num_players)
        ],
        "barter": None
        if state.phase != Phase.BARTER
        else {
            "card": CARD_NAMES[state.barter_card],
            "opener": state.opener,
            "responder": state.responder,
            "to_act": state.to_act,
            "offer": state.offer.tolist() if state.offer_by >= 0 else None,
            "offer_by": state.offer_by,
            "offers": state.offers,
            "pending": state.pending.tolist() if building else None,
        },
    }


def move_json(state: State, action: int) -> dict[str, Any]:
    group, arg = state.config.actions.decode(action)
    return {
        "id": action,
        "group": group.name.lower(),
        "arg": arg,
        "name": state.config.actions.describe(action),
        "spots": action_spots(action, state.n_archways),
    }


# ------------------------------------------------------------------------ one game
@dataclass(eq=False)
class BasariSession(RecordedSession[State, Joint]):
    """One BASARI game on the page."""

    agents: dict[int, Agent[Any]] = field(kw_only=True)

    def yours(self) -> bool:
        return self.seat in acting_seats(self.state)

    def joint(self, mine: int | None) -> Joint:
        """Every seat's action now: the agents' for their decisions, `mine` for the
        person's, NOOP for the seats without one."""
        acting, noop = acting_seats(self.state), self.state.config.actions.noop
        joint = []
        for s in range(self.state.num_players):
            if s not in acting:
                joint.append(noop)
            elif s == self.seat:
                assert mine is not None, "the person has a decision"
                joint.append(mine)
            else:
                joint.append(choose(self.agents[s], self.state, s))
        return joint

    def apply(self, joint: Joint) -> None:
        """Play one joint action and log what everybody may see of it."""
        before = self.state.copy()
        step(self.state, joint)
        self.decisions.append(joint)
        n = len(self.decisions)
        ended = round_ended(before, self.state)
        scored = before_scoring(before, joint) if ended else self.state
        for text in self.events(before, joint, scored.score - before.score):
            self.log.append({"kind": "move", "decision": n, "text": text})
        if ended:
            text = round_end_text(before, scored, self.state, self.label)
            self.log.append({"kind": "year", "decision": n, "text": text})
        if self.over:
            self.log.append({"kind": "final", "decision": n, "text": self.final_text()})

    def events(self, before: State, joint: Joint, gained: np.ndarray) -> list[str]:
        """The public events of one step: start archways, cards, each barter decision
        (an opponent's gem added is not named), the points the actions `gained`."""
        layout = before.config.actions
        decoded = [layout.decode(a) for a in joint]
        if before.phase == Phase.SETUP:
            texts = [
                f"{self.label(s)} starts at archway {arg}" for s, (_, arg) in enumerate(decoded)
            ]
        elif before.phase == Phase.SELECT:
            texts = [
                "cards: "
                + ", ".join(
                    f"{self.label(s)} {CARD_NAMES[arg or 0]}" for s, (_, arg) in enumerate(decoded)
                )
            ]
        else:
            event = self.barter_event(before, *decoded[before.to_act])
            texts = [] if event is None else [event]
        if gained.any():
            texts.append(
                "points: "
                + ", ".join(f"{self.label(s)} +{int(g)}" for s, g in enumerate(gained) if g)
            )
        return texts

    def barter_event(self, before: State, group: Group, arg: int | None) -> str | None:
        """One barter decision in words; an opponent's gem added to the bundle it builds
        is hidden (B11): None."""
        actor, card = self.label(before.to_act), CARD_NAMES[before.barter_card]
        if group == Group.ADD:
            if before.to_act != self.seat:
                return None
            return f"{actor} adds a {COLOUR_NAMES[arg or 0]} gem to the offer"
        if group == Group.SUBMIT:
            return f"{actor} offers {bundle_name(before.pending)} for {card}"
        if group == Group.ACCEPT:
            giver = self.label(before.offer_by)
            return (
                f"{actor} accepts {bundle_name(before.offer)} from {giver}, who carries out {card}"
            )
        return f"{actor} forfeits: {self.label(before.responder)} carries out {card}"

    def final_text(self) -> str:
        return f"final scoring (B10): winner(s) {', '.join(self.winner_labels())}"

    def winner_labels(self) -> list[str]:
        return [self.label(s) for s, won in enumerate(winners(self.state)) if won]

    def advance(self) -> None:
        """Let the opponents decide until the person has a decision or the game is over."""
        while not self.over and not self.yours():
            self.apply(self.joint(None))

    def apply_move(self, action: int) -> None:
        n = self.state.config.n_actions
        if not 0 <= action < n:
            raise Refused(BAD_REQUEST, f"action ids are 0..{n - 1}, got {action}")
        reason = illegal_reason(self.state, self.seat, action)
        if reason is not None:
            name = self.state.config.actions.describe(action)
            raise Refused(CONFLICT, f"illegal move {action} ({name}): {reason}")
        self.apply(self.joint(action))
        self.advance()

    def view(self) -> dict[str, Any]:
        state, yours = self.state, self.yours()
        mask = legal_actions(state, self.seat) if yours else np.zeros(0, np.int8)
        return {
            "game": GAME,
            "status": self.status(yours),
            "your_turn": yours,
            "scores": state.score.tolist(),
            "board": {"svg": svg_of(state, self.seat)},
            "position": board_json(state, self.seat),
            "moves": [move_json(state, int(a)) for a in np.flatnonzero(mask)],
            "final": self.final_json(),
        }

    def status(self, yours: bool) -> str:
        state = self.state
        if self.over:
            return f"Game over after {len(self.decisions)} decisions."
        where = f"Round {state.round + 1}/{ROUNDS}, turn {state.turn + 1}"
        if state.phase == Phase.SETUP:
            return f"{where}: choose your start archway."
        if state.phase == Phase.SELECT:
            return f"{where}: choose your card."
        card = CARD_NAMES[state.barter_card]
        whose = "your turn" if yours else f"{self.label(state.to_act)} to act"
        return f"{where}: barter for {card}, {whose}."

    def final_json(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        place = ranks(self.state)
        rows = [
            {
                "player": self.label(s),
                **{c: int(self.state.gems[s, k]) for k, c in enumerate(COLOUR_NAMES)},
                "gems": int(self.state.gems[s].sum()),
                "score": int(self.state.score[s]),
                "place": float(place[s]),
            }
            for s in range(self.state.num_players)
        ]
        columns = ["player", *COLOUR_NAMES, "gems", "score", "place"]
        return {"columns": columns, "rows": rows, "winners": self.winner_labels()}


def choose(agent: Agent[Any], state: State, seat: int) -> int:
    """The agent's action for `seat`: from its observation and legal mask, or a search
    agent's from the game through what the seat knows."""
    return choose_reference(agent, state, seat)


def round_ended(before: State, after: State) -> bool:
    """Whether the step from `before` to `after` ended a round (B9.1)."""
    if before.phase in (Phase.SETUP, Phase.OVER):
        return False
    return after.round != before.round or after.phase == Phase.OVER


def before_scoring(before: State, joint: Joint) -> State:
    """The position right before the round-end scoring the joint action brings.

    The merchants' progress is read only to see who completed a lap, so the same joint
    action replayed with no progress plays the cards and barters alike and goes on to the
    next turn instead of scoring: its holdings and scores are those right before the
    scoring. The progress is put back as it was then: the new start disks (B9.5) stand
    where the merchants stood."""
    probe = before.copy()
    probe.progress[:] = 0
    step(probe, joint)
    return probe


def round_end_text(before: State, scored: State, after: State, label: Any) -> str:
    """B9's scoring of the round that ended between `before` and `after`, explained from
    the position right before it (`scored`, of `before_scoring`)."""
    n = before.n_archways
    progress = before.progress + (after.start - before.position) % n
    laps = [label(s) for s in range(before.num_players) if progress[s] >= n]
    parts = [f"lap bonus +{LAP_BONUS}: {', '.join(laps) or 'nobody'}"]
    for c, colour in enumerate(COLOUR_NAMES):
        held = scored.gems[:, c]
        most = int(held.max())
        if most == 0:
            continue
        holders = np.flatnonzero(held == most)
        bonus = int(MAJORITY_BONUS[before.round, c]) // len(holders)
        back = min(MAJORITY_RETURN if len(holders) == 1 else TIE_RETURN, most)
        names = ", ".join(label(int(s)) for s in holders)
        parts.append(f"most {colour} ({most}): {names} +{bonus}, returning {back}")
    gained = after.score - scored.score
    total = ", ".join(f"{label(s)} +{int(g)}" for s, g in enumerate(gained))
    return f"end of round {before.round + 1} scoring (B9): {'; '.join(parts)}. In all: {total}"


def make_session(
    origin: Origin[State, Joint], joints: list[Joint], opponents: list[str], seat: int
) -> BasariSession:
    """A session at the position after `joints`, the opponents moved up to the person."""
    names, agents = seat_agents(GAME, origin.config.num_players, opponents, seat, origin.seed)
    state = origin.position(joints)
    session = BasariSession(
        seat,
        names,
        origin.seed,
        [list(j) for j in joints],
        origin=origin,
        state=state,
        agents=agents,
    )
    session.advance()
    return session


class BasariWeb(RecordedWeb[State, Joint]):
    """BASARI's page module (`WebGame`)."""

    name = GAME
    engine = ENGINE

    def options(self) -> dict[str, Any]:
        return {
            "players": list(game_card(GAME).player_counts),
            "default_players": 3,
            "agents": agent_choices(GAME),
            "default_opponent": "value",
            "start_modes": list(START_MODES),
        }

    def start(self, request: Mapping[str, Any]) -> BasariSession:
        game = validated(NewGame, request)
        try:
            config = BasariConfig(num_players=game.players, start_mode=game.start_mode)
        except ValueError as exc:
            raise Refused(BAD_REQUEST, str(exc)) from exc
        return make_session(
            Origin(ENGINE, config, fresh_seed(game.seed)), [], game.opponents, game.seat
        )

    def session(
        self, origin: Origin[State, Joint], decisions: list[Joint], opponents: list[str], seat: int
    ) -> BasariSession:
        return make_session(origin, decisions, opponents, seat)


WEB_GAME = BasariWeb()
