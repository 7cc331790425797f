"""A game of any length, written straight into the store (as a long game would have left it), for the tests
and the bench that compare a request at ply 10 with one at ply 3,000."""

from __future__ import annotations

from dataclasses import replace

from common import store
from common.players import hash_token
from common.store import GameStore
from games.codec import event_record, head_record
from games.domain import Created, GameHead, Moved, Seat, apply
from games.repository import GameRepository

#: Two kings a side in Tanzanian draughts (default options: no repetition rule) can shuffle for ever.
KINGS_FEN = "W:WKc1,Ke1:BKb8,Kd8"
SHUFFLE = ("c1-b2", "b8-a7", "b2-c1", "a7-b8")
START_MS = 1_750_000_000_000


def write_long_game(
    store: GameRepository, game_id: str, tokens: dict[str, str], plies: int, max_plies: int | None = None
) -> GameHead:
    """A Tanzanian game of ``plies`` king moves between the players of ``tokens`` ({color: token})."""
    head, records = long_game(game_id, tokens, plies, max_plies)
    if isinstance(store, GameStore):
        _batch_write(store, records)
    else:
        for record in records:
            store.append_event(game_id, record)
    store.save_head(head_record(head))
    return head


def long_game(
    game_id: str, tokens: dict[str, str], plies: int, max_plies: int | None = None
) -> tuple[GameHead, list[dict]]:
    """The head and the event records of such a game."""
    seats = {color: Seat(f"player-{color}", bytes.fromhex(hash_token(token)), color) for color, token in tokens.items()}
    created = Created(
        seq=1,
        at=START_MS,
        by="white",
        game_id=game_id,
        game="tanzanian",
        options={"days_per_move": 3, "swap_colors": True, "thirty_moves": False, "threefold_repetition": False},
        start_fen=KINGS_FEN,
        white=seats["white"],
        black=seats["black"],
        max_plies=max_plies or plies + 1_000,
    )
    head = apply(None, created)
    records = [event_record(created)]
    for ply in range(plies):
        event = Moved(seq=head.seq + 1, at=START_MS + ply, by=head.turn, move=SHUFFLE[ply % 4], ply=ply + 1, fen="")
        head = apply(head, event)
        records.append(event_record(replace(event, fen=head.snapshot.fen)))
    return head, records


def _batch_write(games: GameStore, records: list[dict]) -> None:
    """Test set-up only: the events in batches of 25 (the API never writes this way)."""
    client = store.client()
    for start in range(0, len(records), 25):
        items = [
            {
                "PutRequest": {
                    "Item": store.to_item(
                        {
                            "pk": record_game_id(record, records),
                            "sk": store.event_key(record["seq"]),
                            **{k: v for k, v in record.items() if k != "seq"},
                        }
                    )
                }
            }
            for record in records[start : start + 25]
        ]
        request = {games.table: items}
        while request:
            request = client.batch_write_item(RequestItems=request).get("UnprocessedItems") or {}


def record_game_id(record: dict, records: list[dict]) -> str:  # noqa: ARG001
    return records[0]["game_id"]
