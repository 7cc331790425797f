"""The generator's settings: the committed ones make the committed sets (``puzzles/README.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared_rules import get_game
from shared_rules.draughts.game import DraughtsGame

Record = dict[str, Any]  # a puzzle as its set's line holds it (JSON)

DRAUGHTS = ("english", "tanzanian")
LICENCE = "GPL-3.0-or-later"
WORST_START = 100  # the solver starts level or at most a man down, never already ahead


@dataclass(frozen=True)
class Settings:
    seed: int = 2024
    depth: int = 4  # plies the judge searches for every answer (captures and lone replies are free)
    confirm_depth: int = 6  # every solver step must also hold this deep
    node_limit: int = 40_000  # per question; a question that needs more is left undecided
    play_depth: int = 2  # the self-play searchers search 1 to this many plies
    play_nodes: int = 400
    blunder_rate: float = 0.15  # chance of a random move instead of the searcher's
    max_plies: int = 160
    max_solver_moves: int = 5
    per_game: int = 3  # at most this many puzzles from one game
    min_legal_moves: int = 3  # two moves or fewer is a coin toss, not a puzzle
    one_move_share: float = 0.2  # at most this share of one-move puzzles (mostly choosing a capture)
    motif_share: float = 0.38  # at most this share of the set on one motif theme (MOTIFS)
    band_share: float = 0.115  # at most this share of the set in one 200-point rating band
    share_slack: int = 2  # ... plus this many, so that the first puzzles are not refused
    study_screen_nodes: int = 3_000
    landing_tries: int = 15  # placements a landing study tries before giving up
    ending_tries: int = 20  # ... and an ending (most random endings hold no win at all)
    countdown_tries: int = 3  # ... and a countdown study (a set needs 100 of them)
    verify: bool = True  # keep only puzzles the deep verifier (``puzzles.verify``) confirms


COMMITTED = Settings()


def draughts_rules(game: str) -> DraughtsGame:
    """The rules of a draughts game, typed as such (``get_game`` answers with any game)."""
    rules = get_game(game)
    if not isinstance(rules, DraughtsGame):
        raise ValueError(f"{game!r} is not a draughts game")
    return rules


GENERATOR_DEPTH = COMMITTED.depth  # the depth the generator judges at
VERIFY_DEPTH = max(2 * GENERATOR_DEPTH, 12)  # the depth ``puzzles.verify`` checks every puzzle at
