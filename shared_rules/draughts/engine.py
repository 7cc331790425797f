"""The draughts move generator: bitboards over the dark squares, configured by a ``Variant``.

Squares are bits in a *padded* layout: a board of width W keeps W/2 dark squares a row, and every
second row pair leaves one unused ("ghost") bit. With that gap a diagonal step is always the same
shift (W/2 or W/2 + 1 up, the same down), and a step off the board lands on a ghost bit or falls off
the integer, so whole sets of men can be moved with one shift and no edge masks. The layout works
for 8x8 and 10x10 alike.

A move is a ``RawMove``: origin bit index, destination bit index, the bitmask of captured pieces,
the landing squares after the origin (the path), and whether the moving man is crowned. Two capture
sequences with the same origin, destination and captured set are one move.

State is four integers: ``white`` and ``black`` occupancy, ``kings`` (of either colour), and
``turn`` (0 for White, 1 for Black). White sits at the bottom (rank 1) and moves up.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from .variants import ADJACENT, ANY, CROWN_AT_END, CROWN_CONTINUES, FIRST_CONTINUATION, MUST_CONTINUE, Variant

WHITE_TO_MOVE = 0
BLACK_TO_MOVE = 1


class RawMove(NamedTuple):
    origin: int
    destination: int
    captured: int  # bitmask
    path: tuple[int, ...]  # landing squares after the origin; the destination is last
    crowned: bool

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.origin, self.destination, self.captured)


class State(NamedTuple):
    white: int
    black: int
    kings: int
    turn: int


_new_tuple = tuple.__new__  # builds a RawMove without the namedtuple's Python-level __new__


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Engine:
    """Move generation and perft for one variant. Build once per variant (``engine_for``)."""

    def __init__(self, variant: Variant):
        self.variant = variant
        size = variant.size
        half = size // 2
        self.half = half
        self.up_offsets = (half, half + 1)  # up-left, up-right
        self.down_offsets = (-(half + 1), -half)  # down-left, down-right
        # (row, file) of every bit index, and its inverse.
        self.coords: dict[int, tuple[int, int]] = {}
        self.index_of: dict[tuple[int, int], int] = {}
        for row in range(size):
            base = (row // 2) * (size + 1) + (row % 2) * (half + 1)
            for i in range(half):
                file = 2 * i + row % 2
                index = base + i
                self.coords[index] = (row, file)
                self.index_of[(row, file)] = index
        self.nbits = max(self.coords) + 1
        self.valid = sum(1 << i for i in self.coords)
        self.row_mask = [sum(1 << i for i, (r, _) in self.coords.items() if r == row) for row in range(size)]
        self.white_crown_row = self.row_mask[size - 1]
        self.black_crown_row = self.row_mask[0]
        # Rays: for each index, in the four directions (UL, UR, DL, DR), the indices along it.
        steps = ((1, -1), (1, 1), (-1, -1), (-1, 1))
        # Ghost bits have no rays and no jumps (never looked up: no piece stands there).
        self.rays: list[tuple[tuple[int, ...], ...]] = [()] * self.nbits
        for index, (row, file) in self.coords.items():
            rays = []
            for dr, df in steps:
                ray = []
                r, f = row + dr, file + df
                while 0 <= r < size and 0 <= f < size:
                    ray.append(self.index_of[(r, f)])
                    r, f = r + dr, f + df
                rays.append(tuple(ray))
            self.rays[index] = tuple(rays)
        # Short jumps: (direction, captured bit, landing index) for each index, split by direction.
        self.jumps: list[tuple[tuple[int, int, int], ...]] = [()] * self.nbits
        for index in self.coords:
            self.jumps[index] = tuple(
                (d, 1 << ray[0], ray[1]) for d, ray in enumerate(self.rays[index]) if len(ray) >= 2
            )
        self.white_man_dirs = frozenset((0, 1) if not variant.men_capture_backward else (0, 1, 2, 3))
        self.black_man_dirs = frozenset((2, 3) if not variant.men_capture_backward else (0, 1, 2, 3))
        self.flying = variant.flying_kings
        self.landing = variant.king_landing if variant.flying_kings else ADJACENT
        self.crown_continues = variant.crown_mid_capture == CROWN_CONTINUES
        self.crown_at_end = variant.crown_mid_capture == CROWN_AT_END
        self.maximum_capture = variant.maximum_capture
        both = self.up_offsets + self.down_offsets
        self.man_capture_offsets = (
            both if variant.men_capture_backward else self.up_offsets,
            both if variant.men_capture_backward else self.down_offsets,
        )

    # ----------------------------------------------------------------- set-up

    def start_state(self) -> State:
        rows = self.variant.rows_of_men
        white = sum(self.row_mask[r] for r in range(rows))
        black = sum(self.row_mask[r] for r in range(self.variant.size - rows, self.variant.size))
        turn = WHITE_TO_MOVE if self.variant.first_player == "white" else BLACK_TO_MOVE
        return State(white, black, 0, turn)

    # ----------------------------------------------------------------- moves

    def captures(self, state: State, all_paths: bool = False) -> list[RawMove]:
        """Every capture of the side to move, sorted; one per origin/destination/captured set unless all_paths."""
        found = self._captures(state[0], state[1], state[2], state[3])
        if not all_paths:
            found = _distinct(found)
        return sorted(found)

    def _captures(self, white: int, black: int, kings: int, turn: int) -> list[RawMove]:
        if turn == WHITE_TO_MOVE:
            us, them, dirs, crown = white, black, self.white_man_dirs, self.white_crown_row
        else:
            us, them, dirs, crown = black, white, self.black_man_dirs, self.black_crown_row
        occupied = white | black
        men = us & ~kings
        jumpers = self._men_that_can_jump(men, them, occupied, turn) if men else 0
        our_kings = us & kings
        if not jumpers and not our_kings:
            return []
        found: list[RawMove] = []
        for origin in _bits(jumpers):
            self._man_captures(origin, origin, 0, occupied ^ (1 << origin), them, dirs, crown, (), found)
        for origin in _bits(our_kings):
            self._king_captures(origin, origin, 0, occupied ^ (1 << origin), them, (), found, False)
        if self.maximum_capture and found:
            most = max(m.captured.bit_count() for m in found)
            found = [m for m in found if m.captured.bit_count() == most]
        return found

    def _men_that_can_jump(self, men: int, them: int, occupied: int, turn: int) -> int:
        """Men with at least one capture, found for all men at once by shifting."""
        empty = self.valid & ~occupied
        result = 0
        for d in self.man_capture_offsets[turn]:
            if d > 0:
                result |= men & (them >> d) & (empty >> (2 * d))
            else:
                result |= men & (them << -d) & (empty << (-2 * d))
        return result

    def _man_captures(
        self,
        origin: int,
        square: int,
        captured: int,
        occupied: int,
        them: int,
        dirs: frozenset[int],
        crown: int,
        path: tuple[int, ...],
        found: list[RawMove],
    ) -> None:
        extended = False
        for d, mid, landing in self.jumps[square]:
            if d not in dirs or not (mid & them) or (mid & captured) or (occupied >> landing) & 1:
                continue
            extended = True
            now_captured = captured | mid
            now_path = path + (landing,)
            if (1 << landing) & crown and not self.crown_at_end:
                if self.crown_continues:
                    before = len(found)
                    self._king_captures(origin, landing, now_captured, occupied, them, now_path, found, True)
                    if len(found) > before:
                        continue
                found.append(RawMove(origin, landing, now_captured, now_path, True))
                continue
            self._man_captures(origin, landing, now_captured, occupied, them, dirs, crown, now_path, found)
        if not extended and path:
            found.append(RawMove(origin, square, captured, path, bool((1 << square) & crown)))

    def _king_jumps(self, square: int, captured: int, occupied: int, them: int) -> list[tuple[int, tuple[int, ...]]]:
        """For each direction with a jumpable piece: (captured bit, empty squares behind it)."""
        result: list[tuple[int, tuple[int, ...]]] = []
        for ray in self.rays[square]:
            if not ray:
                continue
            if not self.flying:
                if len(ray) >= 2:
                    mid = 1 << ray[0]
                    if mid & them and not mid & captured and not (occupied >> ray[1]) & 1:
                        result.append((mid, (ray[1],)))
                continue
            for k, index in enumerate(ray):
                if (occupied >> index) & 1:
                    mid = 1 << index
                    if mid & them and not mid & captured:
                        behind: list[int] = []
                        for landing in ray[k + 1 :]:
                            if (occupied >> landing) & 1:
                                break
                            behind.append(landing)
                        if behind:
                            result.append((mid, tuple(behind)))
                    break
        return result

    def _king_captures(
        self,
        origin: int,
        square: int,
        captured: int,
        occupied: int,
        them: int,
        path: tuple[int, ...],
        found: list[RawMove],
        crowned: bool,
    ) -> None:
        for mid, behind in self._king_jumps(square, captured, occupied, them):
            now_captured = captured | mid
            continuing = [bool(self._king_jumps(landing, now_captured, occupied, them)) for landing in behind]
            for landing, ends in self._landings(behind, continuing):
                now_path = path + (landing,)
                if ends:
                    found.append(RawMove(origin, landing, now_captured, now_path, crowned))
                else:
                    self._king_captures(origin, landing, now_captured, occupied, them, now_path, found, crowned)

    def _landings(self, behind: tuple[int, ...], continuing: list[bool]) -> list[tuple[int, bool]]:
        """Which landing squares are allowed after a jump, and whether the move ends there."""
        rule = self.landing
        if rule == ADJACENT:
            return [(behind[0], not continuing[0])]
        if rule == FIRST_CONTINUATION:
            result: list[tuple[int, bool]] = []
            for landing, goes_on in zip(behind, continuing):
                if goes_on:
                    result.append((landing, False))
                    break
                result.append((landing, True))
            return result
        if rule == MUST_CONTINUE and any(continuing):
            return [(landing, False) for landing, goes_on in zip(behind, continuing) if goes_on]
        if rule in (ANY, MUST_CONTINUE):
            return [(landing, not goes_on) for landing, goes_on in zip(behind, continuing)]
        raise ValueError(f"unknown king landing rule {rule!r}")

    def quiet_moves(self, state: State) -> list[RawMove]:
        """Every non-capturing move of the side to move."""
        white, black, kings, turn = state
        us = white if turn == WHITE_TO_MOVE else black
        crown = self.white_crown_row if turn == WHITE_TO_MOVE else self.black_crown_row
        occupied = white | black
        empty = self.valid & ~occupied
        moves: list[RawMove] = []
        men = us & ~kings
        for d in self.up_offsets if turn == WHITE_TO_MOVE else self.down_offsets:
            targets = (men << d if d > 0 else men >> -d) & empty
            while targets:
                bit = targets & -targets
                targets ^= bit
                dest = bit.bit_length() - 1
                moves.append(_new_tuple(RawMove, (dest - d, dest, 0, (dest,), bool(bit & crown))))
        king_set = us & kings
        if king_set:
            for origin_bit, dest_bit in self._king_steps(king_set, empty, occupied):
                dest = dest_bit.bit_length() - 1
                moves.append(_new_tuple(RawMove, (origin_bit.bit_length() - 1, dest, 0, (dest,), False)))
        moves.sort()
        return moves

    def legal_moves(self, state: State, mandatory: bool = True) -> list[RawMove]:
        captures = self.captures(state)
        if captures and mandatory:
            return captures
        return captures + self.quiet_moves(state)

    def count_quiet(self, state: State) -> int:
        """The number of quiet moves, counted in bulk (perft's last ply)."""
        white, black, kings, turn = state
        us = white if turn == WHITE_TO_MOVE else black
        occupied = white | black
        empty = self.valid & ~occupied
        men = us & ~kings
        count = 0
        for d in self.up_offsets if turn == WHITE_TO_MOVE else self.down_offsets:
            count += ((men << d if d > 0 else men >> -d) & empty).bit_count()
        king_set = us & kings
        if king_set:
            if self.flying:
                for origin in _bits(king_set):
                    for ray in self.rays[origin]:
                        for dest in ray:
                            if (occupied >> dest) & 1:
                                break
                            count += 1
            else:
                for d in self.up_offsets + self.down_offsets:
                    count += ((king_set << d if d > 0 else king_set >> -d) & empty).bit_count()
        return count

    # ----------------------------------------------------------------- playing

    def play(self, state: tuple[int, int, int, int], move: RawMove) -> State:
        """The state after ``move``; ``state`` may be a plain tuple (perft's loop builds no ``State``)."""
        white, black, kings, turn = state
        origin_bit, dest_bit = 1 << move.origin, 1 << move.destination
        captured = move.captured
        was_king = kings & origin_bit
        kings &= ~(origin_bit | captured)
        if was_king or move.crowned:
            kings |= dest_bit
        if turn == WHITE_TO_MOVE:
            return State((white ^ origin_bit) | dest_bit, black & ~captured, kings, BLACK_TO_MOVE)
        return State(white & ~captured, (black ^ origin_bit) | dest_bit, kings, WHITE_TO_MOVE)

    # ----------------------------------------------------------------- perft

    def perft(self, state: State, depth: int, mandatory: bool = True) -> int:
        """Leaf nodes of the move tree, the last ply counted in bulk."""
        if depth <= 0:
            return 1
        return self._perft(state[0], state[1], state[2], state[3], depth, mandatory)

    def _perft(self, white: int, black: int, kings: int, turn: int, depth: int, mandatory: bool) -> int:  # noqa: C901
        # The hot loop of perft: written out inline, without RawMove objects for quiet moves.
        occupied = white | black
        empty = self.valid & ~occupied
        if turn == WHITE_TO_MOVE:
            us, them, offsets, crown = white, black, self.up_offsets, self.white_crown_row
        else:
            us, them, offsets, crown = black, white, self.down_offsets, self.black_crown_row
        men = us & ~kings
        our_kings = us & kings
        captures: Sequence[RawMove] = ()
        if our_kings or self._men_that_can_jump(men, them, occupied, turn):
            captures = self._captures(white, black, kings, turn)
            if len(captures) > 1:
                captures = _distinct(captures)
        if depth == 1:
            if captures and mandatory:
                return len(captures)
            count = len(captures)
            for d in offsets:
                count += ((men << d if d > 0 else men >> -d) & empty).bit_count()
            if our_kings:
                count += sum(1 for _ in self._king_steps(our_kings, empty, occupied))
            return count
        total = 0
        recurse = self._perft
        for move in captures:
            child = self.play((white, black, kings, turn), move)
            total += recurse(child[0], child[1], child[2], child[3], depth - 1, mandatory)
        if captures and mandatory:
            return total
        depth -= 1
        if turn == WHITE_TO_MOVE:
            for d in offsets:
                targets = (men << d) & empty
                while targets:
                    dest = targets & -targets
                    targets ^= dest
                    total += recurse(white ^ (dest | (dest >> d)), black, kings | (dest & crown), 1, depth, mandatory)
            for origin, dest in self._king_steps(our_kings, empty, occupied):
                moved = origin | dest
                total += recurse(white ^ moved, black, kings ^ moved, 1, depth, mandatory)
        else:
            for d in offsets:
                targets = (men >> -d) & empty
                while targets:
                    dest = targets & -targets
                    targets ^= dest
                    total += recurse(white, black ^ (dest | (dest << -d)), kings | (dest & crown), 0, depth, mandatory)
            for origin, dest in self._king_steps(our_kings, empty, occupied):
                moved = origin | dest
                total += recurse(white, black ^ moved, kings ^ moved, 0, depth, mandatory)
        return total

    def _king_steps(self, king_set: int, empty: int, occupied: int) -> Iterator[tuple[int, int]]:
        """(origin bit, destination bit) of every quiet king move."""
        if not king_set:
            return
        if self.flying:
            for origin in _bits(king_set):
                for ray in self.rays[origin]:
                    for dest in ray:
                        if (occupied >> dest) & 1:
                            break
                        yield 1 << origin, 1 << dest
            return
        for d in self.up_offsets + self.down_offsets:
            targets = (king_set << d if d > 0 else king_set >> -d) & empty
            while targets:
                dest = targets & -targets
                targets ^= dest
                yield (dest >> d if d > 0 else dest << -d), dest


def _distinct(moves: list[RawMove]) -> list[RawMove]:
    """One move per (origin, destination, captured set): the first path found stands for the rest."""
    seen: dict[tuple[int, int, int], RawMove] = {}
    for move in moves:
        seen.setdefault(move[:3], move)
    return list(seen.values())


_ENGINES: dict[str, Engine] = {}


def engine_for(variant: Variant) -> Engine:
    """The engine of a variant, built once (its tables take a millisecond or two)."""
    engine = _ENGINES.get(variant.name)
    if engine is None:
        engine = _ENGINES[variant.name] = Engine(variant)
    return engine
