"""The games service as the lobby's ``GameMaker``: the game of an accepted seek, both seats taken."""

from __future__ import annotations

from common.players.domain import Player

from games.domain import Created, GameHead, Seat, other
from games.lobby.domain import Seek
from games.service import GamesService


class SeekGames:
    def __init__(self, games: GamesService):
        self.games = games

    def start_seek_game(self, seek: Seek, taker: Player) -> GameHead:
        seeker_color = seek.seeker_color or "white"
        seeker = Seat(seek.seeker.player_id, bytes.fromhex(seek.seeker.token_hash), seek.seeker.name)
        acceptor = Seat(taker.player_id, bytes.fromhex(taker.token_hash), taker.name)
        seats = {seeker_color: seeker, other(seeker_color): acceptor}
        log = self.games.log
        head, _ = log.create(
            Created(
                at=log.now_ms(),
                by=other(seeker_color),  # the acceptor made the game: the seeker is told (notify.decide)
                game_id=seek.game_id or "",
                game=seek.game,
                options=dict(seek.options),
                white=seats["white"],
                black=seats["black"],
                max_plies=log.max_plies,
            )
        )
        return head
