"""Which notices go out: none from a player the recipient blocked, and at most a few a minute from one
player to another, the rest folded into one.

* **Blocks.** The recipient's player item keeps their blocks (``common.players.blocks``); a notice caused by
  a blocked opponent is dropped (one read of that item, only for a notice with a person opposite).
* **A cap per sender.** Each (recipient, opponent) pair has a token bucket (``SENDER_CAP``: a few at once,
  then one every 20 s); past it, one more push goes out with the opponent's tag (``player:<handle>``, common.players.handles), which a
  phone shows as one notification that later ones from that player replace, and the rest are dropped until
  the bucket refills (``FOLD_CAP``: one such push a minute). A game's own notices keep their ``game:<id>``
  tag. The buckets are the per-client limits' (``common.web.ratelimit``): DynamoDB on Lambda.
* When the store cannot answer, the notice goes out (as with the limits): a hiccup must not lose a move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from common.persistence.store import StoreUnavailable
from common.players.blocks import is_blocked
from common.players.handles import handle_of
from common.players.repository import PlayerRepository
from common.web.ratelimit import BucketRepository, Limit

from notify.domain.decide import Notice

#: Notices from one player to another: 4 at once, then one every 20 seconds.
SENDER_CAP = Limit("pushes", capacity=4, per_second=1 / 20, per_player=False)
#: Past the cap, one folded push a minute per pair.
FOLD_CAP = Limit("folded_pushes", capacity=1, per_second=1 / 60, per_player=False)

SEND, FOLD, DROP = "send", "fold", "drop"


class PushGate:
    def __init__(self, players: PlayerRepository, buckets: BucketRepository, clock: Callable[[], float]):
        self.players = players
        self.buckets = buckets
        self.clock = clock

    def admit(self, notice: Notice) -> Notice | None:
        """The notice to send (the same, or folded under the opponent's tag), or None to send nothing."""
        if notice.opponent_id is None:
            return notice  # the computer: no one to block or to cap
        verdict = self.verdict(notice)
        if verdict == DROP:
            return None
        return notice if verdict == SEND else replace(notice, tag=f"player:{handle_of(notice.opponent_id)}")

    def verdict(self, notice: Notice) -> str:
        try:
            if is_blocked(self.players, notice.opponent_id, notice.recipient_key):
                return DROP
            pair = f"{notice.player_id}#{notice.opponent_id}"
            now = self.clock()
            if self.buckets.take(f"pushes#{pair}", 1, SENDER_CAP, now) == 0:
                return SEND
            return FOLD if self.buckets.take(f"folded_pushes#{pair}", 1, FOLD_CAP, now) == 0 else DROP
        except StoreUnavailable:
            return SEND
