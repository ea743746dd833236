"""OpenSpiel's IS-MCTS bot against one of the package's agents, heads-up, at the same time
per decision (docs/performance.md, "In OpenSpiel").

    python -m benchmarks.openspiel_heads_up asara "ismcts:64:playout=towers" --match \\
        --games 20 --seed 3

Game g (0-based) is deal g of `python_<game>(players=2, seed=SEED)`; the IS-MCTS bot sits
in seat g % 2. The bot (`open_spiel.python.algorithms.ismcts.ISMCTSBot`, random-rollout
evaluator, UCT c = 2, a fresh determinisation per simulation) searches for `--seconds`
of CPU time per decision, or with `--match` the opponent's mean CPU time per searched
decision so far in the match (`--seconds` until it has searched once); a decision with
one legal action is played at once by both. BASARI is played in its turn-based form
(`pyspiel.convert_to_turn_based`, `TurnBasedResampler`). Prints one line per game and the
IS-MCTS bot's score (win 1, tie 1/2) with its 95% Wilson interval, and the CPU seconds each
side took per decision it searched.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import asara_env.integrations.openspiel as spiel
from agents.registry import make_agent
from asara_env.games import GAMES
from training.evaluation.tournament_stats import wilson_interval

UCT_C = 2.0


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's IS-MCTS bot with a CPU-time budget per decision instead of a count."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        super().__init__(game, evaluator, UCT_C, max_simulations=1, random_state=rng)
        self.seconds = seconds

    def run_search(self, state: Any) -> Any:
        """As ISMCTSBot.run_search, simulating until the time is spent."""
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        start = time.process_time()
        while self._root_node.total_visits <= 0 or time.process_time() - start < self.seconds:
            self.run_simulation(self.sample_root_state(state))
        return self.get_final_policy(state, self._root_node)


@dataclass
class Clock:
    """CPU seconds and searched decisions of one side."""

    cpu: float = 0.0
    decisions: int = 0
    per_game: list[float] = field(default_factory=list)

    def per_decision(self) -> float:
        return self.cpu / max(self.decisions, 1)


def agent_action(agent: Any, world: Any, seat: int) -> int:
    """The package's agent's action for `seat` in `world` (an env-backed game)."""
    if agent.needs_state:
        return int(agent.act_games(world.core, np.zeros(1, np.int64))[0])
    mask = np.zeros(world.env.action_space(world.agents[seat]).n, np.int8)
    mask[world.legal_actions(seat)] = 1
    return int(agent.act(world.observation(seat), mask))


def play(
    game: Any, deal: int, bot: Any, agent: Any, bot_seat: int, clocks: list[Clock], match: bool
) -> float:
    """One game; the IS-MCTS bot's score (with `match`, its budget follows the opponent's
    mean CPU time per searched decision)."""
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        player = state.current_player()
        turn_based = hasattr(state, "simultaneous_game_state")
        inner = state.simultaneous_game_state() if turn_based else state
        several = len(state.legal_actions()) > 1
        start = time.process_time()
        if player == bot_seat:
            if match and clocks[1].decisions:
                bot.seconds = clocks[1].per_decision()
            action = bot.step(state)
        else:
            action = agent_action(agent, inner.world, player)
        side = clocks[0 if player == bot_seat else 1]
        if several:
            side.cpu += time.process_time() - start
            side.decisions += 1
        state.apply_action(int(action))
    returns = state.returns()
    mine, other = returns[bot_seat], returns[1 - bot_seat]
    return 1.0 if mine > other else 0.5 if mine == other else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=[name for name, card in GAMES.items() if card.spiel])
    parser.add_argument("opponent", help="the package's agent spec (agents/registry.py)")
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--match", action="store_true", help="the opponent's CPU per decision")
    args = parser.parse_args(argv)
    game = pyspiel.load_game(spiel.short_name(args.game), {"players": 2, "seed": args.seed})
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    score, clocks = 0.0, [Clock(), Clock()]
    for g in range(args.games):
        bot = TimedISMCTSBot(game, args.seconds, seed=args.seed * 1000 + g)
        if args.game == "basari":
            bot.set_resampler(spiel.TurnBasedResampler(args.seed * 1000 + g))
        agent = make_agent(args.game, args.opponent, seed=args.seed * 1000 + g)
        result = play(game, g, bot, agent, g % 2, clocks, args.match)
        score += result
        print(
            f"game {g + 1}/{args.games}: IS-MCTS in seat {g % 2} scored {result} "
            f"(total {score}/{g + 1})",
            flush=True,
        )
    low, high = wilson_interval(score, args.games)
    print(
        f"OpenSpiel IS-MCTS vs {args.opponent}: {score}/{args.games} = "
        f"{score / args.games:.3f} [{low:.3f}, {high:.3f}]; CPU s per searched decision: "
        f"IS-MCTS {clocks[0].per_decision():.3f} ({clocks[0].decisions}), "
        f"{args.opponent} {clocks[1].per_decision():.3f} ({clocks[1].decisions})"
    )


if __name__ == "__main__":
    main()
