"""The Jifunze exercises: for each game, in the order the page shows them, a position, a goal and its limits.

The goals are described and judged in exercises.py; the words of each exercise (title, task, hint) are in
site/content/{lang}/{game}.yaml under its key. The order follows the lessons: a piece's plain moves before
its captures, crowning before any exercise that uses a king, the basic mates last.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Exercise:
    key: str  # also the content key of its instructions and hints
    game: str
    fen: str
    goal: str
    moves: int = 1  # how many of the player's moves the goal may take; the computer replies in between
    setup: tuple[str, ...] = ()  # moves played from ``fen`` before the exercise starts (a running count)
    target: str = ""  # ``reach``: the square (chess: with the piece's letter, "Nf3"); ``protect``: the square


def _chess(key: str, fen: str, goal: str, moves: int = 1, target: str = "") -> Exercise:
    return Exercise(key, "chess", fen, goal, moves, (), target)


def _english(key: str, fen: str, goal: str, moves: int = 1, target: str = "") -> Exercise:
    return Exercise(key, "english", fen, goal, moves, (), target)


def _tanzanian(
    key: str, fen: str, goal: str, moves: int = 1, setup: tuple[str, ...] = (), target: str = ""
) -> Exercise:
    return Exercise(key, "tanzanian", fen, goal, moves, setup, target)


CHESS = (
    # Each piece: a plain move to a marked square, then a capture.
    _chess("rook-steps", "7k/8/8/8/8/P7/8/R3K3 w - - 0 1", "reach", target="Rd1"),
    _chess("rook-lines", "k7/8/3n4/8/8/1b6/8/3R2K1 w - - 0 1", "capture_best"),
    _chess("bishop-steps", "k7/8/8/8/8/4P3/8/2B1K3 w - - 0 1", "reach", target="Ba3"),
    _chess("bishop-diagonals", "k7/8/8/2q3r1/8/8/8/2B4K w - - 0 1", "capture_best"),
    _chess("queen-steps", "7k/8/8/8/8/8/3P4/3QK3 w - - 0 1", "reach", target="Qa4"),
    _chess("queen-lines", "k7/8/8/8/r7/4n3/1b6/3Q3K w - - 0 1", "capture_best"),
    _chess("king-walk", "k7/8/8/8/8/3r4/8/4K3 w - - 0 1", "reach", target="Kf2"),
    _chess("king-steps", "k7/8/8/8/5p2/2pKp3/8/8 w - - 0 1", "capture_best"),
    _chess("knight-steps", "k7/8/8/8/8/8/5P2/4K1N1 w - - 0 1", "reach", target="Nf3"),
    _chess("knight-jumps", "k7/8/3qr3/8/3N4/5p2/8/7K w - - 0 1", "capture_best"),
    _chess("pawn-steps", "k7/8/8/8/8/8/3PP3/4K3 w - - 0 1", "reach", target="d4"),
    _chess("pawn-captures", "k7/8/8/3nr3/4P3/8/8/7K w - - 0 1", "capture_best"),
    _chess("promote", "8/1P6/8/8/5k2/8/8/4K3 w - - 0 1", "crown"),
    _chess("promote-capturing", "1r1n3k/2P5/8/8/8/8/8/4K3 w - - 0 1", "crown"),
    # Capturing well: the biggest prize, protection, taking without being taken back, counting values.
    _chess("take-the-queen", "4k3/8/8/2q1p2r/8/3N4/8/4K2R w - - 0 1", "capture_best"),
    _chess("protect-the-knight", "7k/1b6/8/8/4N3/8/8/R5K1 w - - 0 1", "protect", target="e4"),
    _chess("protect-the-rook", "k7/8/8/8/1b6/N7/3R4/6K1 w - - 0 1", "protect", target="d2"),
    _chess("safe-capture", "k7/8/3p4/4n3/8/8/8/b3R1K1 w - - 0 1", "safe_capture"),
    _chess("safe-capture-bishop", "k7/8/8/1r1p1n2/4p3/3B4/8/6K1 w - - 0 1", "safe_capture"),
    _chess("count-the-values", "k7/8/8/1p1n4/r7/8/8/3Q2K1 w - - 0 1", "gain_best"),
    # Check and getting out of it.
    _chess("give-check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "check"),
    _chess("knight-check", "4k3/p7/8/8/4N3/8/8/4K3 w - - 0 1", "check"),
    _chess("check-king-steps", "k2r4/8/8/8/8/8/7R/3K4 w - - 0 1", "escape_king"),
    _chess("check-capture", "6k1/5ppp/8/8/8/8/5PBP/R3r1K1 w - - 0 1", "escape_capture"),
    _chess("check-block", "k7/8/8/8/7q/8/6P1/4K3 w - - 0 1", "escape_block"),
    # Checkmate in one, and stalemate.
    _chess("back-rank-mate", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "mate"),
    _chess("queen-mate", "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "mate"),
    _chess("smothered-mate", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "mate"),
    _chess("stalemate-rescue", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "mate"),
    # Lost, a rook against a queen: give the rook away so that taking it leaves White no move.
    _chess("stalemate-save", "6k1/8/4pRK1/8/7q/8/8/8 w - - 0 1", "stalemate"),
    # The special moves and the start of a game.
    _chess("board-setup", "4k3/8/8/8/3Q4/8/8/RNB1KBNR w KQ - 0 1", "reach", target="Qd1"),
    _chess("first-moves", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "reach", target="Nc3"),
    _chess("castle-safely", "4k3/8/8/8/2b5/8/PPP2PPP/R3K2R w KQ - 0 1", "castle"),
    # The bishop stands in the way; a king or rook move would lose the right to castle for good.
    _chess("clear-the-way", "k7/p7/8/8/8/8/5PPP/4KB1R w K - 0 1", "castle", 2),
    _chess("en-passant", "k7/8/8/4Pp2/8/8/8/4K3 w - f6 0 2", "en_passant"),
    # Two black pawns beside white ones: only the one that has just moved may be taken en passant.
    _chess("en-passant-or-not", "k7/8/8/2pP2Pp/8/8/8/4K3 w - c6 0 3", "en_passant"),
    # Two moves: a check, then the basic mates against the computer.
    _chess("check-in-two", "1k6/8/2K5/3p4/2N5/8/8/8 w - - 0 1", "check", 2),
    _chess("check-in-two-again", "7B/8/5N2/8/8/8/k6K/8 w - - 0 1", "check", 2),
    _chess("queen-king-mate", "6k1/8/7K/8/8/8/8/3Q4 w - - 0 1", "mate", 2),
    _chess("two-rooks-mate", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", "mate", 2),
    _chess("rook-king-mate", "6k1/8/8/4R2K/8/8/8/8 w - - 0 1", "mate", 3),
)

ENGLISH = (
    _english("man-steps", "B:W23,13,19:B20,11,12", "safe"),
    _english("forced-capture", "B:W32,21,29:B12,24,17", "safe"),
    _english("single-capture", "B:W22,23,7:B18,17,28", "safe"),
    _english("must-capture", "B:W8,20,24,7:B3,27,19,23", "safe"),
    _english("must-capture-again", "B:W9,10,8:B3,6,26,5", "safe"),
    _english("most-pieces", "B:W14,22,25,27:B9,10", "capture_most"),
    _english("three-ways", "B:W15,16,17,24:B11,14", "capture_most"),
    _english("triple-jump", "B:W24,15,14,27,7:B3", "capture_most"),
    _english("crown-a-king", "B:W21,30:B10,26,27", "crown"),
    _english("crowning-ends", "B:W13,24,18,16,26:B22,12,27", "capture_most"),
    _english("king-steps", "B:W15,9,30,K22:BK7", "safe"),
    _english("king-backwards", "B:W25,K26,6,K27:BK31,23,16", "capture_most"),
    _english("king-double", "B:WK16,K23,K22,K15:BK26,24", "capture_most"),
    _english("careful-steps", "B:W12,K15:BK27,1,18", "safe"),
    _english("shot", "B:W20,27,28,13:B12,15,17,19,10", "material", 2),
    _english("two-for-one", "B:W10,26,18,12,28:B5,4,1,16,20", "material", 2),
    _english("quiet-move", "B:W9,7,18:BK13,27,4,6", "safe"),
    _english("two-kings", "B:WK22:BK30,K9", "win", 2),
    _english("king-hunt", "B:WK16:BK10,K29", "win", 3),
    _english("corner-king", "B:WK1,5:BK14,K12", "win", 2),
    _english("stop-the-men", "B:W16,14:BK2,K15,18", "win", 2),
    _english("last-men", "B:W23,21:BK9,K3,K5,13", "win", 2),
    _english("king-and-man", "B:W16,15:BK11,K13,K12,K28", "win", 2),
    _english("give-and-take", "B:W17,32,19:B28,1,23,6,10,8", "material", 2),
)

TANZANIAN = (
    _tanzanian("men-forward", "W:Wf4,f2,a5:Bh4,g3,h6", "safe"),
    _tanzanian("man-steps", "W:Wh2,h4,c1:Bf2,a7,c3", "safe"),
    _tanzanian("single-capture", "W:We3,h6,g7,g3:Bc3,f4,d4,a5", "safe"),
    _tanzanian("choose-capture", "W:Wc5,a5,b2:Bc3,g7,b6", "safe"),
    _tanzanian("must-capture", "W:Wc3,h2,e7,e3:Bd6,g5,d2,b4,b6,d4", "safe"),
    _tanzanian("most-pieces", "W:Wc3,e3,g1:Bb6,d4,h8", "capture_most"),
    _tanzanian("crown-a-king", "W:Wa1,c7:Bb8,e7,h8", "crown"),
    _tanzanian("crown-by-capture", "W:Wg3,d2,f6:Be3,d8,g7,b8", "crown"),
    # h6xf8 crowns and stops there, though a king on f8 could take c5: the other route takes more.
    _tanzanian("crowning-stops", "W:Wh6,d2:Bc3,g7,c5,b8,h8", "capture_most"),
    _tanzanian("king-steps", "W:WKf4,d6,c5:BKc1,Kb8,d2", "safe"),
    _tanzanian("king-or-man", "W:WKh8,d4,f4:Bg3,Kc3,Kb4,a3", "safe"),
    _tanzanian("flying-capture", "W:WKh8:Bd4,f4,a3", "safe"),
    _tanzanian("landing-choice", "W:WKa1:BKh4,Kc1,g3,Ke5", "safe"),
    _tanzanian("safe-capture", "W:WKd8,c3:BKh6,b4,c7,Kg3", "safe"),
    _tanzanian("man-or-king", "W:WKg5,b4,c5,e5:Bb6,e3", "safe"),
    _tanzanian("king-capture", "W:WKc3,h2:Bb2,b6,e5,e7", "capture_most"),
    _tanzanian("landing-square", "W:WKh8,d6:Bh6,f2,g7,d2", "capture_most"),
    _tanzanian("long-landing", "W:WKa1,g7:Bc7,h6,b2,a3", "capture_most"),
    _tanzanian("land-and-go-on", "W:WKa1,c7,a7,h4:Bb2,g3,Kf8", "capture_most"),
    _tanzanian("crown-then-capture", "W:Wb6,g7,a5,d2:Be7,h2,d4,f8", "material", 2),
    _tanzanian("crown-first", "W:Wh2,g5,a7:Bh4,e5,d4,b2", "material", 2),
    _tanzanian("shot", "W:Wc3,g7,f2,h2,g1:Bh8,a5,h4,a7,f4", "material", 2),
    _tanzanian("shot-and-crown", "W:Wg3,g7,e3,h2:Bh6,e7,c5,a3,d4,c3", "material", 2),
    _tanzanian("king-finish", "W:WKb4,c1:Bc5,h4", "win", 2),
    _tanzanian("man-takes-king", "W:WKf2,h4,Kg3,Kb2:BKg5,d6", "win", 2),
    _tanzanian("two-kings-two-men", "W:WKd4,Kb4,Ke1:Bd2,d6", "win", 2),
    _tanzanian("ending-landing", "W:WKc7,Kh8,Ka3:Bf6,Ke5", "win", 2),
    _tanzanian("king-sweep", "W:WKf6,h4,Kb4:Bf4,Kb6,d2,f2", "win", 2),
    _tanzanian("countdown-catch", "W:WKe7,Ke3,Kh2:BKb8", "win", 2, ("h2-g1", "b8-g3", "g1-h2", "g3-b8") * 5),
)
