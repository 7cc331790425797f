"""Random endings for the puzzle generator: seeded placements of a few pieces, the solver to move.

Self-play rarely reaches the positions some themes need (a flying king choosing where to stop, three
kings hunting a lone king before the count runs out, a few pieces racing to crown), so these are
placed at random and kept only when the judge finds exactly one win in them. Each kind draws its
pieces from its own recipe:

* ``ending``: one or two kings at most and a few men each, the solver level or a man down;
* ``landing`` (flying kings): a solver's king with a capture, or a run, that can stop on more than
  one square, against a few men;
* ``countdown`` (Tanzanian): three kings against a lone king near an edge, the three to move.
"""

from __future__ import annotations

import random

from shared_rules.draughts.engine import Engine, State


def place(
    rng: random.Random,
    engine: Engine,
    turn: int,
    solver: tuple[int, int],
    other: tuple[int, int],
    preset: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> State:
    """A random position: ``solver`` and ``other`` are (kings, men) to add, men never on their
    crowning row, to ``preset`` (the solver's pieces, the other side's, kings, and squares to leave empty)."""
    squares = sorted(engine.coords)
    crown_rows = (engine.white_crown_row, engine.black_crown_row)  # White's, Black's
    mine, theirs, kings, empty = preset
    taken = mine | theirs | empty
    sides = [0, 0]
    sides[turn], sides[1 - turn] = mine, theirs
    for colour, (king_count, man_count) in ((turn, solver), (1 - turn, other)):
        for is_king in [True] * king_count + [False] * man_count:
            free = [q for q in squares if not (taken >> q) & 1 and (is_king or not (crown_rows[colour] >> q) & 1)]
            square = rng.choice(free)
            taken |= 1 << square
            sides[colour] |= 1 << square
            if is_king:
                kings |= 1 << square
    return State(sides[0], sides[1], kings, turn)


def edge_square(rng: random.Random, engine: Engine) -> int:
    size = engine.variant.size
    return rng.choice(
        sorted(q for q, (row, file) in engine.coords.items() if row in (0, size - 1) or file in (0, size - 1))
    )


def ending(rng: random.Random, engine: Engine) -> State:
    """One to four men and at most a king each, the other side as strong or a man stronger."""
    turn = rng.randint(0, 1)
    kings = rng.randint(0, 1)
    men = rng.randint(1, 4)
    return place(rng, engine, turn, (kings, men), (kings, men + rng.randint(0, 1)))


def landing(rng: random.Random, engine: Engine) -> State:
    """A king that must take a man with at least two squares free behind it, plus up to two men,
    against men (and maybe a king) worth as much or a man more: where should it stop?"""
    turn = rng.randint(0, 1)
    king = rng.choice(sorted(engine.coords))
    rays = [ray for ray in engine.rays[king] if len(ray) >= 3]
    if not rays:
        return landing(rng, engine)
    ray = rng.choice(rays)
    victim = rng.randrange(0, len(ray) - 2)
    empty = sum(1 << q for q in ray[:victim] + ray[victim + 1 :])
    men = rng.randint(0, 2)
    extra = rng.randint(0, 1)
    # A flying king is worth three men; the taken man counts with the other side's men.
    other = (1, max(0, men + extra - 1)) if rng.random() < 0.3 else (0, 2 + men + extra)
    crown_row = engine.black_crown_row if turn == 0 else engine.white_crown_row  # the taken man's
    if (crown_row >> ray[victim]) & 1:
        return landing(rng, engine)  # no man stands on the row it would be crowned on
    preset = (1 << king, 1 << ray[victim], 1 << king, empty)
    return place(rng, engine, turn, (0, men), other, preset)


def countdown(rng: random.Random, engine: Engine) -> State:
    """Three kings within six rows plus files of a lone king on an edge, the three to move."""
    turn = rng.randint(0, 1)
    lone = edge_square(rng, engine)
    row, file = engine.coords[lone]
    close = [
        q
        for q in sorted(engine.coords)
        if q != lone and abs(engine.coords[q][0] - row) + abs(engine.coords[q][1] - file) <= 6
    ]
    strong = sum(1 << q for q in rng.sample(close, 3))
    white, black = (strong, 1 << lone) if turn == 0 else (1 << lone, strong)
    return State(white, black, white | black, turn)


RECIPES = {"ending": ending, "landing": landing, "countdown": countdown}
