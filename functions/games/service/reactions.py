"""Reactions in a game (``games.domain.reactions``): a player of the game sends one of the fixed set, or mutes the
other player's. Each is an event of the game's log, so it reaches the other page with the game's updates (the
view, polling and the live socket) and is never pushed. A reaction the other player would not see (they muted
this game's reactions, or blocked the sender) is not written, and the sender is not told; the sender's own block
refuses it."""

from __future__ import annotations

from common.players.blocks import is_blocked
from common.players.domain import Player
from common.players.repository import PlayerRepository

from games.domain import Color, GameHead, Reacted, ReactionsMuted, other
from games.domain.errors import Conflict, GameNotFound
from games.domain.reactions import ReactionKey
from games.domain.refusals import seat_or_refuse
from games.service.protocol import GameLog


class Reactions:
    def __init__(self, log: GameLog, players: PlayerRepository | None):
        self.log = log
        self.players = players

    def _seated(self, game_id: str, token_hash: str) -> tuple[GameHead, Color]:
        head = self.log.store.get_head(game_id)
        if head is None:
            raise GameNotFound(f"there is no game {game_id!r}")
        return head, seat_or_refuse(head, token_hash)

    def react(self, player: Player, game_id: str, key: ReactionKey) -> bool:
        """Send a reaction to the other player; whether it was written (False: they will not see it)."""
        head, color = self._seated(game_id, player.token_hash)
        opponent = head.seat(other(color))
        if opponent is None or opponent.player_id is None:
            raise Conflict("reactions go to another player, not the computer", code="no_opponent", game=head)
        if player.blocked(opponent.player_id):
            raise Conflict("you blocked this player: remove the block first", code="you_blocked_player", game=head)
        if other(color) in head.reactions_muted:
            return False
        if self.players is not None and is_blocked(self.players, player.player_id, opponent.key):
            return False
        self.log.act(game_id, lambda _head: Reacted(by=color, reaction=key), read=head)
        return True

    def mute(self, player: Player, game_id: str, muted: bool) -> None:
        """Mute (or hear again) the other player's reactions in this game."""
        head, color = self._seated(game_id, player.token_hash)

        def decide(now: GameHead) -> ReactionsMuted | None:
            return None if (color in now.reactions_muted) == muted else ReactionsMuted(by=color, muted=muted)

        self.log.act(game_id, decide, read=head)
