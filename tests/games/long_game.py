"""A game of any length, written straight into the store (as a long game would have left it), for the tests
and the bench that compare a request at ply 10 with one at ply 3,000."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from common.persistence import store
from common.players.service import hash_token
from games.domain import Created, GameHead, Moved, Seat, apply, rules_for
from games.repository import GameRecords, GameStore
from games.repository.codec import event_record, head_record
from games.repository.dynamodb import event_key

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import WriteRequestOutputTypeDef, WriteRequestTypeDef

#: Two kings a side in Tanzanian draughts (default options: no repetition rule) can shuffle for ever.
KINGS_FEN = "W:WKc1,Ke1:BKb8,Kd8"
SHUFFLE = ("c1-b2", "b8-a7", "b2-c1", "a7-b8")
START_MS = 1_750_000_000_000
#: 3,010 plies of a legal chess game that no draw rule ends (no repetition; a pawn move or capture before the
#: fifty-move rule), made once by ``chess_moves`` (replaying 3,000 plies is quick; finding them is not).
LONG_CHESS = Path(__file__).with_name("long_chess_game.txt")


def write_long_game(
    store: GameRecords, game_id: str, tokens: dict[str, str], plies: int, max_plies: int | None = None
) -> GameHead:
    """A Tanzanian game of ``plies`` king moves between the players of ``tokens`` ({color: token})."""
    return write_records(store, game_id, *long_game(game_id, tokens, plies, max_plies))


def write_long_chess_game(store: GameRecords, game_id: str, tokens: dict[str, str], plies: int) -> GameHead:
    """A chess game of ``plies`` moves (at most 3,010) of ``LONG_CHESS`` between the players of ``tokens``."""
    return write_records(store, game_id, *long_game(game_id, tokens, plies, game="chess"))


def long_game(
    game_id: str, tokens: dict[str, str], plies: int, max_plies: int | None = None, game: str = "tanzanian"
) -> tuple[GameHead, list[dict]]:
    """The head and the event records of such a game (``game``: Tanzanian kings, or chess from ``LONG_CHESS``)."""
    seats = {color: Seat(f"player-{color}", bytes.fromhex(hash_token(token)), color) for color, token in tokens.items()}
    created = Created(
        seq=1,
        at=START_MS,
        by="white",
        game_id=game_id,
        game=game,
        options=(
            {"days_per_move": 3, "swap_colors": True, "thirty_moves": False, "threefold_repetition": False}
            if game == "tanzanian"
            else {**rules_for("chess", {}).options, "days_per_move": 3, "swap_colors": True}
        ),
        start_fen=KINGS_FEN if game == "tanzanian" else None,
        white=seats["white"],
        black=seats["black"],
        max_plies=max_plies or plies + 1_000,
    )
    head = apply(None, created)
    records = [event_record(created)]
    moves = SHUFFLE * (plies // 4 + 1) if game == "tanzanian" else LONG_CHESS.read_text().split()
    for ply in range(plies):
        event = Moved(seq=head.seq + 1, at=START_MS + ply, by=head.turn, move=moves[ply], ply=ply + 1, fen="")
        head = apply(head, event)
        records.append(event_record(replace(event, fen=head.snapshot.fen)))
    return head, records


def _batch_write(games: GameStore, records: list[dict]) -> None:
    """Test set-up only: the events in batches of 25 (the API never writes this way)."""
    client = store.client()
    for start in range(0, len(records), 25):
        items: list[WriteRequestTypeDef] = [
            {
                "PutRequest": {
                    "Item": store.to_item(
                        {
                            "pk": record_game_id(record, records),
                            "sk": event_key(record["seq"]),
                            **{k: v for k, v in record.items() if k != "seq"},
                        }
                    )
                }
            }
            for record in records[start : start + 25]
        ]
        request: Mapping[str, Sequence[WriteRequestTypeDef | WriteRequestOutputTypeDef]] = {games.table: items}
        while request:
            request = client.batch_write_item(RequestItems=request).get("UnprocessedItems") or {}


def record_game_id(record: dict, records: list[dict]) -> str:
    return records[0]["game_id"]


def chess_moves(plies: int, seed: int = 7) -> list[str]:
    """A legal chess game of ``plies`` moves (SAN) that no rule ends: random piece moves to positions not seen
    since the last irreversible move, a pawn move before the fifty-move rule. Wrote ``LONG_CHESS``."""
    import chess

    board, chooser = chess.Board(), random.Random(seed)
    seen: set[str] = set()
    moves: list[str] = []

    def key() -> str:
        return " ".join(board.fen().split()[:4])

    def allowed(move) -> bool:
        board.push(move)
        fine = key() not in seen and not (
            board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()
        )
        board.pop()
        return fine

    seen.add(key())
    while len(moves) < plies:
        legal = list(board.legal_moves)
        pawn = [m for m in legal if board.piece_type_at(m.from_square) == chess.PAWN and not board.is_capture(m)]
        quiet = [m for m in legal if m not in pawn and not board.is_capture(m) and not board.is_castling(m)]
        others = [m for m in legal if m not in pawn and m not in quiet]
        for group in (quiet, pawn, others):
            chooser.shuffle(group)
        order = (quiet if board.halfmove_clock < 96 else []) + pawn + others
        choice = next((move for move in order if allowed(move)), None)
        if choice is None:
            break
        moves.append(board.san(choice))
        board.push(choice)
        if board.halfmove_clock == 0:
            seen.clear()
        seen.add(key())
    return moves


def write_records(store: GameRecords, game_id: str, head: GameHead, records: list[dict]) -> GameHead:
    """The game ``long_game`` made, stored under ``game_id`` (one long game, written as many times as needed)."""
    records = [{**records[0], "game_id": game_id}, *records[1:]]
    head = replace(head, id=game_id)
    if isinstance(store, GameStore):
        _batch_write(store, records)
    else:
        for record in records:
            store.append_event(game_id, record)
    store.save_head(head_record(head))
    return head
