"""The games service as the lobby's ``GameMaker``: the game of an accepted seek, both seats taken."""

from __future__ import annotations

from common.players.domain import Player

from games.domain import GameHead, other
from games.lobby.domain import Seek
from games.service import GamesService


class SeekGames:
    def __init__(self, games: GamesService):
        self.games = games

    def start_seek_game(self, seek: Seek, taker: Player) -> GameHead:
        seeker_color = seek.seeker_color or "white"
        seeker = Player(seek.seeker.player_id, seek.seeker.token_hash, seek.seeker.name)
        seats = {seeker_color: seeker, other(seeker_color): taker}
        head, _ = self.games.create_seated(
            seats["white"],
            seats["black"],
            seek.game,
            dict(seek.options),
            seek.rated,
            game_id=seek.game_id or "",
            by=other(seeker_color),  # the taker made it: the seeker is told (notify.decide)
        )
        return head
