"""The engine is one engine: variants not yet offered are configurations that match published perft.

International draughts (10x10, men capture backwards, flying kings, maximum capture, crowned only
where the move ends) and Brazilian draughts (the same rules on 8x8) reuse the engine unchanged.
Counts: international from Aart Bik's BikDam (duplicate captures removed); Brazilian from Rein
Halbersma's "Perft for all recognized draughts variants" (damforum), first derived on shashki.com.
"""

import pytest

from shared_rules.draughts.engine import Engine, State
from shared_rules.draughts.variants import BRAZILIAN, INTERNATIONAL

INTERNATIONAL_PERFT = [9, 81, 658, 4265, 27117, 167140]
BRAZILIAN_PERFT = [7, 49, 302, 1469, 7473, 37628, 187302]


@pytest.mark.parametrize(("depth", "count"), list(enumerate(INTERNATIONAL_PERFT, start=1)))
def test_international_perft_from_the_start(depth, count):
    engine = Engine(INTERNATIONAL)
    assert engine.perft(engine.start_state(), depth) == count


@pytest.mark.parametrize(("depth", "count"), list(enumerate(BRAZILIAN_PERFT, start=1)))
def test_brazilian_perft_from_the_start(depth, count):
    engine = Engine(BRAZILIAN)
    assert engine.perft(engine.start_state(), depth) == count


def test_international_board_has_fifty_squares_and_twenty_men_a_side():
    engine = Engine(INTERNATIONAL)
    white, black, kings, turn = engine.start_state()
    assert engine.valid.bit_count() == 50
    assert white.bit_count() == black.bit_count() == 20
    assert kings == 0 and turn == 0


def test_maximum_capture_keeps_only_the_longest_sequences():
    # 10x10, White man on square 32 (d4) may take one piece (28, e5) or two (27 then 17: c5, c7); only the two count.
    engine = Engine(INTERNATIONAL)
    index = {}
    for i, (row, file) in engine.coords.items():
        index[(9 - row) * 5 + file // 2 + 1] = i
    white = 1 << index[32]
    black = (1 << index[28]) | (1 << index[27]) | (1 << index[17])
    captures = engine.captures(State(white, black, 0, 0))
    assert captures, "the man has captures"
    counts = {move.captured.bit_count() for move in captures}
    assert counts == {max(counts)} and max(counts) == 2
