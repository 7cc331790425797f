"""``Position.snapshot`` and ``Game.restore``: a position restored from what it stored has the same status and
legal moves as the position reached by playing the moves, at every ply of random games, so the games
function never replays moves to resume a game."""

import random

import pytest

from shared_rules import InvalidFen, Snapshot, get_game

GAMES = [
    ("chess", {}),
    ("english", {}),
    ("tanzanian", {}),
    ("tanzanian", {"threefold_repetition": True, "thirty_moves": True}),
    ("english", {"mandatory_capture": False, "move_limit": 60}),
]


def assert_same(restored, played):
    assert restored.fen() == played.fen()
    assert restored.status() == played.status()
    assert restored.legal_notations() == played.legal_notations()
    assert restored.turn == played.turn


@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_a_restored_position_is_the_played_one_at_every_ply(name, options, seed):
    rng = random.Random(seed)
    game = get_game(name, options)
    position = game.start()
    for _ in range(160):
        restored = game.restore(position.snapshot())
        assert_same(restored, position)
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        # Continue from the restored position: what it remembers must carry the draw rules on.
        position = restored.play(restored.parse_move(position.notation(move)))


@pytest.mark.parametrize(
    ("name", "moves", "reason"),
    [
        ("chess", ["Nf3", "Nf6", "Ng1", "Ng8"] * 2, "threefold_repetition"),
        ("english", ["11-15", "22-18", "15x22", "25x18", "8-11", "29-25", "4-8"], None),
    ],
)
def test_repetition_counts_across_a_restore(name, moves, reason):
    game = get_game(name)
    position = game.start()
    for move in moves:
        position = game.restore(position.snapshot()).play(move)
    assert position.status().reason == reason


def test_kings_shuffling_reach_threefold_after_restores_when_the_rule_is_on():
    game = get_game("tanzanian", {"threefold_repetition": True})
    position = game.from_fen("W:WKc1,Ke1:BKb8,Kd8")
    shuffle = ["c1-b2", "b8-a7", "b2-c1", "a7-b8"]
    for move in shuffle * 2:
        position = game.restore(position.snapshot()).play(move)
    assert position.status().reason == "threefold_repetition"


@pytest.mark.parametrize(
    ("name", "options", "fen"),
    [
        ("english", {}, "W:WK10,K14:BK31,K27"),  # the forty-move count
        ("tanzanian", {"thirty_moves": True}, "W:WKc1,Ke1:BKb8,Kd8"),  # kings only
        ("tanzanian", {}, "W:WKc1,Ke1,Kg1:BKb8"),  # three kings against one: the countdown
    ],
)
def test_the_draw_counters_survive_restores_until_the_same_draw(name, options, fen):
    game = get_game(name, options)
    played = restored = game.from_fen(fen)
    rng = random.Random(7)
    for _ in range(200):
        if played.status().is_over:
            break
        move = played.notation(rng.choice(played.legal_moves()))
        played, restored = played.play(move), game.restore(restored.snapshot()).play(move)
    assert played.status().is_over, "the walk never reached a draw rule; the test shows nothing"
    assert_same(restored, played)


@pytest.mark.parametrize("name", ["chess", "english"])
def test_a_damaged_snapshot_is_refused(name):
    game = get_game(name)
    good = game.start().play(game.start().legal_notations()[0]).snapshot()
    with pytest.raises(InvalidFen):
        game.restore(Snapshot(good.fen, good.ply, good.memory + b"\x01\x02\x03"))
    with pytest.raises(InvalidFen):
        game.restore(Snapshot("nonsense", good.ply, good.memory))


@pytest.mark.parametrize(("name", "move", "irreversible"), [("chess", "e4", True), ("chess", "Nf3", False)])
def test_irreversible_moves_are_named_by_the_rules(name, move, irreversible):
    start = get_game(name).start()
    assert start.is_irreversible(start.parse_move(move)) is irreversible
