"""The pages' draughts rules (site/modules/draughts_rules.js, pass-and-play's) against shared_rules, the
reference: the same legal moves, move list by move list, and the same status, on random positions with kings and
long captures and along random games (where the draw rules count), for each variant and its table options.

Python writes the cases to a file; one node process answers them all (tests/js/draughts_rules_check.js).
The full sample (100,000 positions a variant) is in the slow tier; the fast tier checks a smaller one.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any, TypedDict

import pytest

from shared_rules import get_game
from shared_rules.draughts.game import DraughtsGame
from shared_rules.draughts.variants import BRAZILIAN, INTERNATIONAL, VARIANTS, Variant
from shared_rules.game_facts import rules_of_variant

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tests" / "js" / "draughts_rules_check.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: Table options tried beside the defaults: each changes the moves or the draw rules.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "english": [{}, {"mandatory_capture": False}, {"move_limit": 30}],
    "tanzanian": [{}, {"threefold_repetition": True, "thirty_moves": True}],
}


#: Kings only, white against black: three against one starts the Tanzanian countdown.
KING_COUNTS = ((3, 1), (1, 3), (2, 2), (2, 1))


def random_fen(variant: Variant, rng: random.Random) -> str:
    """Pieces scattered at random over the dark squares: men and kings of both sides, sparse or crowded, so
    flying kings and men find long captures. Men never stand on their crowning row."""
    game = DraughtsGame(variant)
    engine = game.engine
    density = rng.choice((0.15, 0.3, 0.45, 0.6))
    king_share = rng.choice((0.0, 0.15, 0.4, 0.8))
    pieces: dict[str, list[str]] = {"W": [], "B": []}
    for index, (row, _) in engine.coords.items():
        if rng.random() >= density:
            continue
        colour = rng.choice("WB")
        on_crown_row = row == (variant.size - 1 if colour == "W" else 0)
        king = on_crown_row or rng.random() < king_share
        pieces[colour].append(("K" if king else "") + game.squares.name_of[index])
    for colour in "WB":  # each side has a piece: a side with none has lost, and there is nothing to compare
        if not pieces[colour]:
            taken = {name.lstrip("K") for name in pieces["W"] + pieces["B"]}
            free = [name for name in game.squares.index_of if name not in taken]
            pieces[colour].append("K" + rng.choice(free))
    return f"{rng.choice('WB')}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}"


def kings_only_fen(variant: Variant, rng: random.Random, whites: int, blacks: int) -> str:
    """Only kings, ``whites`` against ``blacks``: where the countdown, the kings-only rule and repetitions count."""
    names = rng.sample(sorted(DraughtsGame(variant).squares.index_of), whites + blacks)
    white, black = names[:whites], names[whites:]
    return f"{rng.choice('WB')}:W{','.join('K' + n for n in white)}:B{','.join('K' + n for n in black)}"


class Played(TypedDict):
    """A game the node script replays: where it starts (None: the start) and its moves."""

    fen: str | None
    moves: list[str]


def random_game(game: DraughtsGame, rng: random.Random, fen: str | None, careful: bool = False) -> list[str]:
    """The notations of a random game from ``fen`` (or the start) to its end, or 200 plies. A ``careful``
    player leaves nothing to capture when it can (flying kings at random take everything within a few moves,
    and the draw rules of kings-only endings never count)."""
    position = game.from_fen(fen) if fen else game.start()
    moves: list[str] = []
    while len(moves) < 200:
        legal = position.legal_notations()
        if not legal:
            break
        if careful:
            safe = [m for m in legal if not any(n.captured for n in position.play(m).legal_moves())]
            legal = safe or legal
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return moves


def reference_answer(position: Any) -> list[Any]:
    status = position.status()
    return [sorted(position.legal_notations()), status.result, status.reason, position.fen()]


def node_answers(tmp_path: Path, variant: Variant, options: dict[str, Any], cases: dict[str, Any]) -> list[Any]:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"variant": rules_of_variant(variant), "options": options, **cases}))
    done = subprocess.run([str(NODE), str(CHECKER), str(path)], capture_output=True, check=False, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr.decode()
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def check_positions(tmp_path: Path, variant: Variant, count: int, seed: int) -> dict[str, int]:
    """``count`` random positions, each variant's option sets in turn; returns what the sample held."""
    rng = random.Random(seed)
    seen = {"positions": 0, "captures": 0, "long_captures": 0, "king_captures": 0}
    option_sets = OPTIONS.get(variant.name, [{}])
    for n, options in enumerate(option_sets):
        game = DraughtsGame(variant, options)
        fens = [random_fen(variant, rng) for _ in range(count // len(option_sets) + (n < count % len(option_sets)))]
        answers = node_answers(tmp_path, variant, options, {"positions": fens})
        assert len(answers) == len(fens)
        for fen, answer in zip(fens, answers):
            position = game.from_fen(fen)
            assert answer == reference_answer(position), fen
            moves = position.legal_moves()
            seen["positions"] += 1
            seen["captures"] += any(m.captured for m in moves)
            seen["long_captures"] += any(m.captured.bit_count() >= 3 for m in moves)
            seen["king_captures"] += any(m.captured and position.state.kings >> m.origin & 1 for m in moves)
    return seen


def check_games(tmp_path: Path, variant: Variant, count: int, seed: int) -> dict[str, set[str]]:
    """``count`` random games under each option set, half from the start, half from random positions; returns
    the reasons the games ended for."""
    rng = random.Random(seed)
    endings: dict[str, set[str]] = {}
    for options in OPTIONS.get(variant.name, [{}]):
        game = DraughtsGame(variant, options)
        games: list[Played] = []
        for n in range(count):
            fen = (None, random_fen(variant, rng), kings_only_fen(variant, rng, *rng.choice(KING_COUNTS)))[n % 3]
            games.append({"fen": fen, "moves": random_game(game, rng, fen, careful=n % 3 == 2)})
        answers = iter(node_answers(tmp_path, variant, options, {"games": games}))
        for played in games:
            start = played["fen"]
            position = game.from_fen(start) if start else game.start()
            assert next(answers) == reference_answer(position), played
            for move in played["moves"]:
                position = position.play(move)
                assert next(answers) == reference_answer(position), (played, move)
            endings.setdefault(json.dumps(options), set()).add(str(position.status().reason))
    return endings


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_move_lists_agree_on_a_sample(tmp_path: Path, name: str) -> None:
    seen = check_positions(tmp_path, VARIANTS[name], 1_000, seed=41)
    assert seen["long_captures"] > 10 and seen["king_captures"] > 50, seen


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_move_lists_agree_on_100000_positions(tmp_path: Path, name: str) -> None:
    seen = check_positions(tmp_path, VARIANTS[name], 100_000, seed=4100)
    assert seen["positions"] == 100_000
    assert seen["long_captures"] > 1_000 and seen["king_captures"] > 10_000, seen


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_games_agree_ply_by_ply_with_the_draw_rules(tmp_path: Path, name: str) -> None:
    endings = check_games(tmp_path, VARIANTS[name], 30, seed=7)
    draws = set().union(*endings.values()) - {"None", "no_pieces", "no_moves"}
    # Repetitions count the same way in both variants (the English games reach them).
    expected = (
        {"threefold_repetition", "forty_moves", "move_limit"}
        if name == "english"
        else {"three_kings_countdown", "thirty_moves"}
    )
    assert expected <= draws, endings


@pytest.mark.parametrize("variant", [BRAZILIAN, INTERNATIONAL], ids=lambda v: v.name)
def test_the_later_variants_are_one_more_description(tmp_path: Path, variant: Variant) -> None:
    """Backward captures by men, any landing square, maximum capture, crowning only at a capture's end: the
    same module, configured by another description, still agrees with the reference."""
    seen = check_positions(tmp_path, variant, 1_000, seed=3)
    assert seen["long_captures"] > 10, seen


def test_the_description_is_the_variants_own() -> None:
    game = get_game("tanzanian")
    assert isinstance(game, DraughtsGame)
    rules = rules_of_variant(game.variant)
    assert rules["flying_kings"] and rules["king_landing"] == "first_continuation" and rules["countdown"]
    assert rules["option_defaults"] == {"threefold_repetition": False, "thirty_moves": False}
