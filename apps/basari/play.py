"""Play BASARI in the terminal against agents.

    from apps.basari.play import play
    play(BasariConfig(num_players=3), opponents=("value", "points_first"), seat=0, seed=7)

or from the shell: `basari play --players 3 --opponents value,points_first --seed 7`
(`--seat`, `--start-mode random`, `--save FILE`, `--resume FILE`, `--layout full`). You sit
in `seat`; the opponents (agent specs of `agents.agent_names("basari")`: the baselines, the
shipped models `ppo_2p`, `ppo_3p` and `ppo_4p`, `policy:model=PATH`) fill the other seats
in order, seats named P0..P3 (the specs listed once at the start); opponent in seat s plays
the game's step d seeded `apps.console.decision_seed(seed, s, d)`, so a resumed game plays
on as it would have.

At each of your decisions the board is drawn (compact: 80x24, only the archways with a
merchant or start disk and the six ahead of yours expanded; full: every archway) with
everything that happened since your last decision (the cards revealed, every offer,
accepts, forfeits, the points and gems each seat got, and each round's end as a table:
the majority of every colour with the gems compared, the lap bonuses, the gems
returned), and your legal moves are listed by number. A barter offer is built one gem at
a time, then submitted (E2). A move you name that is not legal is refused with the rules'
reason. Everything in BASARI is public except the bundle another player is building,
which is never shown.

`save_path` saves the game (`asara_env.common.record.SavedGame`: the record and the
seats) when it ends, when you quit and on Ctrl-C; `resume` (a saved game in any format
the project writes, read by `asara_env.common.record.load_game`) continues a game from its
last position.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.basari.arena import choose_reference
from agents.registry import agent_names, make_agent, unknown_agents_error
from apps.console import (
    SCREEN_HEIGHT,
    SCREEN_WIDTH,
    Console,
    EventLog,
    SaveFile,
    as_number,
    columns,
    decision_seed,
    intro_line,
    wrapped,
)
from asara_env import basari_v0
from asara_env.basari.actions import Group
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import CARD_NAMES, COLOUR_NAMES
from asara_env.basari.reference import engine
from asara_env.basari.reference.record import RULES, GameRecord
from asara_env.basari.reference.rules import illegal_reason
from asara_env.basari.reference.scoring import RoundEnd
from asara_env.basari.reference.serialize import state_from_dict
from asara_env.basari.reference.state import State
from asara_env.basari.render import LETTERS, bundle_text, render_compact, render_state
from asara_env.common.record import Resumed, SavedGame, read_saved_game
from asara_env.common.record import resume as resume_game
from commandline import command

HELP = """\
How to answer:
  a number     play that move
  other text   a move by name ("accept the offer"): if it is not legal now, why not
  b, board     draw the board and the moves again
  l, log       what happened before your previous decision
  ?, help      this help
  q, quit      end the game (asks first; --save saves it)
Cards: Die (roll, move, score 6 - roll), Points (score the archway's points), Gemstones \
(the archway's gems). Two players on one card barter for it; three or more cancel it.
An offer is built gem by gem ("add a red gem to the offer"), then submitted; a raise \
must be higher than the standing offer (more gems, or as many with more of the better \
colours: red > yellow > green > blue).
Board: 12:6pt RRB M0 S1 is archway 12, worth 6 points and two red and a blue gem, \
with P0's merchant and P1's start disk on it; .. archways not shown (compact layout)."""
MENU_LINES = 2  # the moves' title and the prompt
UNIT = "step"  # what a stopped game counts: steps, each every seat's decisions at once


@dataclass(frozen=True)
class Layout:
    """How the game is drawn: compact (80x24, the archways that matter) or full (every
    archway, no bottom)."""

    compact: bool
    height: int | None


LAYOUTS = {"compact": Layout(True, SCREEN_HEIGHT), "full": Layout(False, None)}

DEFAULT_CONFIG = BasariConfig(num_players=3)  # the game `play` sets up unless told


def lineup(players: int, opponents: str | Sequence[str], seat: int) -> list[str | None]:
    """The agent name of every seat (None for the person); ValueError says what is wrong."""
    names = opponents.split(",") if isinstance(opponents, str) else list(opponents)
    names = [n.strip() for n in names if n.strip()]
    counts = command.player_counts("basari")
    if players not in counts:
        raise ValueError(f"players must be one of {counts}, got {players}")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be in 0..{players - 1}, got {seat}")
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise ValueError(f"need {players - 1} opponents (or one for all), got {len(names)}")
    problem = unknown_agents_error("basari", names)
    if problem:
        raise ValueError(problem)
    return [*names[:seat], None, *names[seat:]]


def config_text(config: BasariConfig) -> str:
    """'BASARI, 3 players, start archways chosen'."""
    start = "chosen" if config.start_mode == "choose" else "drawn"
    return f"BASARI, {config.num_players} players, start archways {start}"


def seat_labels(seats: Sequence[str | None]) -> list[str]:
    """'P1', or 'P0 you' for the person: short, whatever the agent spec."""
    return [f"P{s}" + (" you" if name is None else "") for s, name in enumerate(seats)]


@dataclass
class Game:
    """The game being played: the env the agents see, the reference state beside it (for
    the board, the events and the reasons), its record and who sits where."""

    env: Any
    state: State
    record: GameRecord
    seats: list[str | None]
    labels: list[str]
    obs: dict[str, Any]
    infos: dict[str, Any]

    def step(self, joint: list[int]) -> RoundEnd | None:
        """Play a joint action on both; what the round's end scored if it ended one."""
        scored = engine.step(self.state, joint)
        actions = dict(zip(self.env.possible_agents, joint))
        self.obs, _, _, _, self.infos = self.env.step(actions)
        self.record.actions.append(list(joint))
        return scored


def play(
    config: BasariConfig = DEFAULT_CONFIG,
    opponents: str | Sequence[str] = "value",
    seat: int = 0,
    seed: int | None = None,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] = print,
    save_path: str | None = None,
    resume: Resumed[State, list[int]] | None = None,
    layout: str = "compact",
) -> dict[str, Any] | None:
    """Play one game; returns the final infos of the person's seat (None if they quit).
    `seed` None draws a random one (the first line says it, to play the game again).
    `save_path` saves it (at the end, on quit, on Ctrl-C); `resume` continues a game (its
    configuration must be the lineup's). ValueError for a bad lineup, layout or resumed
    game before the game starts."""
    seats = lineup(config.num_players, opponents, seat)
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known layouts: {sorted(LAYOUTS)}")
    if resume is not None and resume.config != config:
        raise ValueError(
            f"the saved game is {config_text(resume.config)}, not {config_text(config)}"
        )
    style = LAYOUTS[layout]
    console = Console(input_fn, print_fn, SCREEN_WIDTH, style.height)
    game = start(config, seats, seed, resume)
    agents = {
        a: make_agent("basari", name, decision_seed(game.record.seed, s, 0))
        for s, (a, name) in enumerate(zip(game.env.possible_agents, seats))
        if name is not None
    }
    save = SaveFile(None if save_path is None else Path(save_path), "basari", seats)
    shown = None if resume is not None and resume.start is not None else game.record.seed
    console.say(intro(game, shown))

    def saved() -> dict[str, Any]:
        actions = game.record.actions
        return game.record.to_dict() if resume is None else resume.record(actions)

    try:
        finished = play_steps(console, game, agents, seat, style)
    except KeyboardInterrupt:
        text = save.stopped(console, saved(), len(game.record.actions), UNIT, shown)
        raise command.Interrupted(text) from None
    if not finished:
        text = save.stopped(console, saved(), len(game.record.actions), UNIT, shown)
        console.say(f"You quit: {text}.")
        return None
    console.print(board(game, seat, style))
    final = game.infos[game.env.possible_agents[seat]]
    scores = ", ".join(f"{x} {int(v)}" for x, v in zip(game.labels, final["final_scores"]))
    won = [x for x, w in zip(game.labels, final["winners"]) if w]
    console.say(f"Final scores: {scores}. Winner(s): {', '.join(won)}.")
    console.print("You won!" if final["winners"][seat] else "You did not win this time.")
    save.write(console, saved())
    return dict(final)


def start(
    config: BasariConfig,
    seats: list[str | None],
    seed: int | None,
    resume: Resumed[State, list[int]] | None,
) -> Game:
    """The new game seeded `seed` (None: a random seed), or the resumed one (checked by
    `load_game`) at its last position; its record holds the actions since the resumed
    game's start."""
    env = basari_v0.parallel_env(
        num_players=config.num_players, start_mode=config.start_mode, render_mode="ansi"
    )
    if resume is not None and resume.start is not None:
        obs, infos = env.reset(options={"state": resume.start})
    else:
        obs, infos = env.reset(seed=seed if resume is None else resume.seed)
    state = state_from_dict(env.save_game())
    record = GameRecord(config, int(env.game_seed or 0))
    game = Game(env, state, record, seats, seat_labels(seats), obs, infos)
    if resume is not None:
        for joint in resume.actions:
            game.step(joint)
    return game


def intro(game: Game, seed: int | None) -> str:
    """The game's first lines: `apps.console.intro_line` (`seed` None: a game from a
    saved position) and the seats."""
    names = ", ".join(f"P{s} {name or 'you'}" for s, name in enumerate(game.seats))
    first = intro_line(config_text(game.record.config), seed, len(game.record.actions), "step")
    return f"{first}\nSeats: {names}. Type ? for help."


def play_steps(
    console: Console, game: Game, agents: dict[str, Any], seat: int, style: Layout
) -> bool:
    """Play from the game's position to its end; False if the person quit."""
    me = game.env.possible_agents[seat]
    log = EventLog()
    while game.env.agents:
        decision = len(game.record.actions)
        actions: dict[str, int] = {}
        for a, agent in agents.items():
            s = game.env.possible_agents.index(a)
            agent.reseed(decision_seed(game.record.seed, s, decision))
            if getattr(
                agent, "needs_state", False
            ):  # a search reads the game, as the seat knows it
                actions[a] = choose_reference(agent, game.state, s)
            else:
                actions[a] = agent.act(game.obs[a]["observation"], game.obs[a]["action_mask"])
        mask = game.obs[me]["action_mask"]
        if game.infos[me]["acting"]:
            move = ask_move(console, game, seat, style, log)
            if move is None:
                return False
            actions[me] = move
        else:
            actions[me] = int(np.flatnonzero(mask)[0])  # NOOP, the only legal action
        joint = [actions[a] for a in game.env.possible_agents]
        before = game.state.copy()
        scored = game.step(joint)
        for event in step_events(before, game.state, joint, scored, game.labels, seat):
            log.add(event)
    console.page_groups(console.event_groups(log.take()))
    return True


# ------------------------------------------------------------------------ events
def gained_text(points: int, gems: np.ndarray) -> str:
    """'+6 points, +RRB gems, -G gems' (what is not zero)."""
    parts = [f"{points:+d} points"] * bool(points)
    got = "".join(LETTERS[c] * int(k) for c, k in enumerate(gems) if k > 0)
    gave = "".join(LETTERS[c] * int(-k) for c, k in enumerate(gems) if k < 0)
    parts += [f"+{got} gems"] * bool(got) + [f"-{gave} gems"] * bool(gave)
    return ", ".join(parts)


def action_event(before: State, joint: list[int], labels: Sequence[str], seat: int) -> list[str]:
    """What the seats chose in this step, as the person may see it: start archways,
    the cards revealed, an offer submitted, accepted or forfeited (never a gem added to
    a bundle being built)."""
    lay = before.config.actions
    if before.phase.name == "SETUP":
        return [
            "starts: "
            + ", ".join(f"{labels[s]} archway {lay.decode(a)[1]}" for s, a in enumerate(joint))
        ]
    if before.phase.name == "SELECT":
        cards = [CARD_NAMES[lay.decode(a)[1] or 0] for a in joint]
        return ["cards: " + ", ".join(f"{labels[s]} {c}" for s, c in enumerate(cards))]
    actor = int(before.to_act)
    group, _ = lay.decode(joint[actor])
    card = CARD_NAMES[before.barter_card]
    if group == Group.SUBMIT:
        return [f"{labels[actor]} offers {bundle_text(before.pending)} for {card}"]
    if group == Group.ACCEPT:
        giver = labels[before.offer_by]
        return [f"{labels[actor]} accepts {bundle_text(before.offer)}; {giver} carries out {card}"]
    if group == Group.FORFEIT:
        return [f"{labels[actor]} offers nothing: {labels[before.responder]} carries out {card}"]
    return []


def step_events(
    before: State,
    after: State,
    joint: list[int],
    scored: RoundEnd | None,
    labels: Sequence[str],
    seat: int,
) -> list[str]:
    """One step's events: the choices, what each seat got from the cards (the round's
    bonus aside), and the round-end table (one event of several lines) if the step ended
    a round."""
    points = after.score - before.score
    gems = after.gems - before.gems
    if scored is not None:
        bonus, back = round_end_effects(scored, len(labels))
        points, gems = points - bonus, gems + back
    lines = action_event(before, joint, labels, seat)
    lines += [
        f"{labels[s]}: {gained_text(int(points[s]), gems[s])}"
        for s in range(len(labels))
        if points[s] or gems[s].any()
    ]
    if scored is not None:
        lines.append("\n".join(round_end_text(scored, after, labels)))
    return lines


def round_end_effects(scored: RoundEnd, players: int) -> tuple[np.ndarray, np.ndarray]:
    """int[P] points and int[P, colour] gems returned by a round's end."""
    bonus = np.array([scored.lap_bonus * lapped for lapped in scored.lapped], np.int64)
    back = np.zeros((players, len(COLOUR_NAMES)), np.int64)
    for m in scored.majorities:
        for s in m.holders:
            bonus[s] += m.points
            back[s, m.colour] += m.returned
    return bonus, back


def round_end_text(scored: RoundEnd, after: State, labels: Sequence[str]) -> list[str]:
    """The round's end (B9) as a table: each colour's gems per seat, who held the most,
    the points each of them scored and the gems each returned; the lap bonuses; the
    round's bonus and the scores after it."""
    width = max(len(x) for x in labels) + 1
    head = "colour " + "".join(f"{x:>{width}}" for x in labels) + "  most    points  returned"
    rows = []
    for m in scored.majorities:
        held = "".join(f"{k:>{width}}" for k in m.held)
        most = "+".join(f"P{s}" for s in m.holders) or "nobody"
        rows.append(f"{COLOUR_NAMES[m.colour]:<7}{held}  {most:<7} {m.points:>+6}  {m.returned:>8}")
    bonus, _ = round_end_effects(scored, len(labels))
    laps = [labels[s] for s, lapped in enumerate(scored.lapped) if lapped] or ["nobody"]
    return [
        f"End of round {scored.round + 1}: each colour's most gems scores its bonus (shared if",
        "tied) and returns 3 gems (2 each if tied) (B9.2):",
        head,
        *rows,
        f"Lap bonus +{scored.lap_bonus} (B9.3): {', '.join(laps)}.",
        "Round bonus: " + ", ".join(f"{x} {int(b):+d}" for x, b in zip(labels, bonus)) + ".",
        "Scores: " + ", ".join(f"{x} {int(v)}" for x, v in zip(labels, after.score)) + ".",
    ]


# ------------------------------------------------------------------------ asking
def board(game: Game, seat: int, style: Layout) -> str:
    """The board for the person: compact (80 columns) or full."""
    if style.compact:
        return render_compact(game.state, game.labels, seat)
    return render_state(game.state, game.labels).rstrip("\n")


def move_label(state: State, action: int) -> str:
    group, arg = state.config.actions.decode(action)
    return f"archway {arg}" if group == Group.START else state.config.actions.describe(action)


def moves_lines(state: State, legal: list[int], width: int) -> list[str]:
    items = [f"{i}) {move_label(state, a)}" for i, a in enumerate(legal, 1)]
    return [f"Your moves (1-{len(legal)}):", *columns(items, width)]


def refusals(game: Game, seat: int, answer: str) -> list[str]:
    """Why the move named `answer` (its whole name) cannot be played now."""
    lay = game.state.config.actions
    named = [a for a in range(lay.n_actions) if lay.describe(a).lower() == answer.lower()]
    reasons = [(a, illegal_reason(game.state, seat, a)) for a in named]
    return [f"Not now: {lay.describe(a)}: {why}." for a, why in reasons if why]


def ask_move(console: Console, game: Game, seat: int, style: Layout, log: EventLog) -> int | None:
    """The person's legal move, asked until the answer is one; None if they quit."""
    mask = game.obs[game.env.possible_agents[seat]]["action_mask"]
    legal = np.flatnonzero(mask).tolist()
    menu = moves_lines(game.state, legal, console.width)
    events = log.take()

    def draw(events: Sequence[str]) -> None:
        console.show_turn(board(game, seat, style), events, len(menu) + 1)
        console.print("\n".join(menu))

    draw(events)
    while True:
        answer = console.ask(f"Your move [1-{len(legal)}, ? for help]: ")
        if answer is None or answer.lower() in ("q", "quit"):
            if answer is None or console.confirm("Really quit?"):
                return None
            continue
        number = as_number(answer)
        if answer in ("?", "help"):
            console.page(wrapped(HELP, console.width, "  "))
        elif answer.lower() in ("b", "board"):
            draw([])
        elif answer.lower() in ("l", "log"):
            console.show_log(log)
        elif number is not None and 1 <= number <= len(legal):
            return int(legal[number - 1])
        elif number is not None:
            console.print(f"There is no move {answer}: answer 1-{len(legal)}.")
        else:
            refused = refusals(game, seat, answer)
            for line in refused or [
                f"{answer!r} is not a move number: answer 1-{len(legal)}, ? for help."
            ]:
                console.say(line)


# ------------------------------------------------------------------------ command line
def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    """The arguments of `basari` and the play parser."""
    parser = command.parser("basari", "BASARI in the terminal.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play against agents", formatter_class=command.Formatter)
    command.add_players_argument(p, "basari", None, "(default: 3, or the resumed game's)")
    p.add_argument(
        "--opponents",
        help=f"comma-separated, one per other seat or one for all; {agent_names('basari')} "
        "(default: value, or a resumed game's)",
    )
    p.add_argument(
        "--seat",
        type=command.bounded_int(0, 3, "a seat number"),
        help="your seat (default: 0, or the resumed game's)",
    )
    p.add_argument("--seed", type=command.seed, help="the game's seed (default: a random one)")
    p.add_argument(
        "--start-mode",
        choices=("choose", "random"),
        help="(default: choose, or the resumed game's)",
    )
    command.add_save_arguments(p, "BASARI")
    p.add_argument(
        "--layout",
        choices=tuple(LAYOUTS),
        default="compact",
        help="compact: the board, what happened since your last decision and the moves fit "
        "80x24; full: every archway",
    )
    return parser.parse_args(argv), p


def play_options(args: argparse.Namespace, saved: SavedGame | None) -> dict[str, Any]:
    """play()'s keyword arguments, the game's config made once, here; with a saved game
    (any format `saved_game_from_dict` reads), what the options leave out comes from it.
    ValueError naming both configurations if they ask for another game."""
    resume = None if saved is None else resume_game(RULES, saved)
    chosen: dict[str, Any] = {"players": 3, "start_mode": "choose", "seat": 0}
    opponents = args.opponents
    if resume is not None:
        chosen.update(players=resume.config.num_players, start_mode=resume.config.start_mode)
        seats = saved.seats if saved is not None else None
        mine = [s for s, n in enumerate(seats or []) if n is None]
        if seats is not None and len(mine) == 1:
            chosen["seat"] = mine[0]
            if opponents is None and args.seat in (None, mine[0]):
                opponents = ",".join(n for n in seats if n is not None)
    chosen.update({k: getattr(args, k) for k in chosen if getattr(args, k) is not None})
    config = BasariConfig(chosen["players"], chosen["start_mode"])
    if resume is not None and config != resume.config:
        raise ValueError(
            f"the saved game is {config_text(resume.config)}; the options ask for "
            f"{config_text(config)}"
        )
    return {
        "config": config,
        "seat": chosen["seat"],
        "opponents": opponents or "value",
        "seed": args.seed,
        "save_path": None if args.save is None else str(args.save),
        "resume": resume,
        "layout": args.layout,
    }


@command.run_main("basari")
def main(argv: list[str] | None = None) -> int:
    """`basari play ...`; Ctrl-C saves with --save and ends with one line (exit status 130)."""
    args, parser = parse_args(argv)
    command.check_save_path(parser, args)
    if args.resume is not None and args.seed is not None:
        parser.error("argument --seed: a resumed game keeps its own seed")
    try:
        saved = None if args.resume is None else read_saved_game(args.resume, "basari")
        options = play_options(args, saved)
    except ValueError as e:
        parser.error(f"argument --resume: {e}")
    try:
        lineup(options["config"].num_players, options["opponents"], options["seat"])
    except ValueError as e:
        command.lineup_error(parser, str(e))
    play(**options)
    return 0


if __name__ == "__main__":
    sys.exit(main())
