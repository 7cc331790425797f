"""Import the Lichess puzzles (CC0) into ``puzzles/chess.jsonl`` in ubao's puzzle format.

    python -m puzzles.lichess [--source ../shared/data/lichess-puzzles.jsonl]

In the Lichess file the FEN comes before the opponent's move that sets the puzzle up, and the moves
are UCI. Here the setting-up move is played, the FEN is the solver's turn, and the solution is in
SAN as the rules layer writes it. Every line keeps its Lichess id, puzzle page, source game and
licence (Lichess publishes its puzzle database under CC0: https://database.lichess.org/#puzzles).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from shared_rules import get_game

from .settings import Record

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parent.parent / "shared" / "data" / "lichess-puzzles.jsonl"
LICENCE = "CC0-1.0"


def convert(record: Record) -> Record:
    """One Lichess record as a ubao puzzle; raises ``RulesError`` if a move is not legal."""
    chess = get_game("chess")
    position = chess.from_fen(record["fen"]).play(chess.from_fen(record["fen"]).parse_move(record["moves"][0]))
    fen = position.fen()
    position = chess.from_fen(fen)  # the puzzle starts here, with no history before it
    solution = []
    for uci in record["moves"][1:]:
        move = position.parse_move(uci)
        solution.append(position.notation(move))
        position = position.play(move)
    return {
        "id": f"chess-{record['id']}",
        "game": "chess",
        "fen": fen,
        "solution": solution,
        "rating": int(record["rating"]),
        "themes": list(record["themes"]),
        "source": f"https://lichess.org/training/{record['id']}",
        "licence": LICENCE,
        "game_url": record["game_url"],
    }


def import_file(source: Path) -> list[Record]:
    with source.open(encoding="utf-8") as lines:
        return [convert(json.loads(line)) for line in lines if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.lichess", description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=HERE / "chess.jsonl")
    args = parser.parse_args(argv)
    if not args.source.exists():
        print(f"{args.source} not found: keeping the committed {args.out.name}", file=sys.stderr)
        return 0
    puzzles = import_file(args.source)
    with args.out.open("w", encoding="utf-8") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"chess: wrote {len(puzzles)} Lichess puzzles to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
