"""What the simulated players of tests/load/locustfile.py do in the lobby, at live tables, on the leaderboard and
with game reviews: plain functions of a ``Player`` (Locust calls them as tasks, ``Player.tasks``).

Each follows the page that does it, at the page's own cadence:

* **The lobby** (site/modules/lobby_panel.js, "Play anyone"): read one's ratings and the open challenges of a
  game, accept the first of another player's that is rated or casual as wished (trying the next on a refusal,
  three at most), else offer one (half of them rated, half of them for a live table) and wait for it, reading
  it with its ETag every ``LOBBY_POLL_SECONDS``; a challenge nobody took within ``LOBBY_WAITS`` looks is
  withdrawn (the page waits on; a simulated player has other things to do). A live table the lobby made is
  played at once, as below, so that rated games end within a run; a correspondence one is played on with the
  player's other games (``Player.games``).
* **A live table** (``turn_seconds`` 30; site/modules/turn_clock.js): one player opens it and shares the
  invite, another joins; both follow it over the live socket (tests/load/live_player.py: the other side's
  moves come as messages, a read only when the turn's time is up), or, when the socket cannot open, read it
  every ``LIVE_POLL_SECONDS`` with its ETag and only the moves after the ones they have (``moves_after``, as
  site/static/mchezo.js polls); each moves after one to four seconds' thought, ``LIVE_MOVES`` moves at most;
  then the one to move resigns. A table nobody joins within
  ``LIVE_WAIT_SECONDS`` is left; a player who leaves mid-game leaves the turn to run out, when the computer
  moves for them.
* **The leaderboard**: one read of a game's board (cached a minute by CloudFront deployed, not locally).
* **A review** of a game the player finished: asked for once, then read every ``REVIEW_POLL_SECONDS`` while
  pending (site/modules/review_view.js), ``REVIEW_READS`` reads at most.
"""

from __future__ import annotations

import random
import time
from collections import deque
from typing import Any, Protocol

GAMES = ("chess", "english", "tanzanian")
LOBBY_POLL_SECONDS = 5.0  # POLL_MS in site/modules/lobby_panel.js
LOBBY_WAITS = 4
LIVE_POLL_SECONDS = 1.0  # LIVE_POLL_MS in site/modules/turn_clock.js
LIVE_TURN_SECONDS = 30
LIVE_MOVES = 3
LIVE_WAIT_SECONDS = 20.0
#: A live session's bound (a table nobody finishes is left to the computer and the clock).
LIVE_SECONDS = 90.0
REVIEW_POLL_SECONDS = 4.0  # POLL_MS in site/modules/review_view.js
REVIEW_READS = 3
#: Live tables waiting for a second player: (game id, invite code, creator's token).
OPEN_TABLES: deque[tuple[str, str, str]] = deque(maxlen=100)
#: Live tables being played (their ids, the newest last): what the live-socket watchers follow (live_watch.py).
LIVE_GAMES: deque[str] = deque(maxlen=50)


class Phone(Protocol):
    """What these tasks need of a simulated player (locustfile.Player)."""

    token: str | None
    player_id: str | None
    games: dict[str, dict]
    finished: list[str]

    def call(self, method: str, path: str, name: str, body: Any = None, headers: dict | None = None) -> Any: ...


# -- the lobby ------------------------------------------------------------------------------------------------
def lobby(player: Phone) -> None:
    """ "Play anyone": accept a matching challenge, else offer one and wait for a taker."""
    game, rated, live = random.choice(GAMES), random.random() < 0.5, random.random() < 0.5
    player.call("GET", "/v1/players/me", "GET /v1/players/me")
    listed = player.call("GET", f"/v1/seeks?game={game}", "GET /v1/seeks")
    if listed.status_code != 200:
        return
    matching = [seek for seek in listed.json()["seeks"] if not seek["mine"] and seek["rated"] == rated]
    for seek in matching[:3]:
        taken = player.call("POST", f"/v1/seeks/{seek['id']}/accept", "POST /v1/seeks/{id}/accept")
        if taken.status_code == 201:
            answer = taken.json()
            _sit_down(player, answer["game"], answer["seat"])
            return
    options = {"turn_seconds": LIVE_TURN_SECONDS} if live else {}
    made = player.call("POST", "/v1/seeks", "POST /v1/seeks", {"game": game, "rated": rated, "options": options})
    if made.status_code == 201:
        _wait_for_taker(player, made.json()["seek"]["id"])


def _wait_for_taker(player: Phone, seek_id: str) -> None:
    etag = None
    for _ in range(LOBBY_WAITS):
        time.sleep(LOBBY_POLL_SECONDS)
        seek = _read_seek(player, seek_id, etag)
        if seek is None:
            return
        etag, game_id = seek
        if game_id:
            return _take_seat(player, game_id)
    withdrawn = player.call("DELETE", f"/v1/seeks/{seek_id}", "DELETE /v1/seeks/{id}")
    if withdrawn.status_code != 200:  # taken meanwhile: the game is there to play
        seek = _read_seek(player, seek_id, None)
        if seek and seek[1]:
            _take_seat(player, seek[1])


def _read_seek(player: Phone, seek_id: str, etag: str | None) -> tuple[str | None, str | None] | None:
    """(the seek's ETag, its game's id once taken), or None when it is gone."""
    headers = {"If-None-Match": etag} if etag else {}
    answer = player.call("GET", f"/v1/seeks/{seek_id}", "GET /v1/seeks/{id}", headers=headers)
    if answer.status_code == 304:
        return etag, None
    if answer.status_code != 200:
        return None
    return answer.headers.get("ETag"), answer.json()["seek"]["game_id"]


def _take_seat(player: Phone, game_id: str) -> None:
    """The seeker's seat in the game the lobby made (the colour may have been drawn)."""
    view = player.call("GET", f"/v1/games/{game_id}", "GET /v1/games/{id}")
    if view.status_code == 200:
        seats = view.json()["players"]
        mine = [color for color, seat in seats.items() if seat and seat.get("player_id") == player.player_id]
        if mine:
            _sit_down(player, view.json(), mine[0])


def _sit_down(player: Phone, game: dict, seat: str) -> None:
    """Play a live table now; keep a correspondence game with the others."""
    if (game.get("options") or {}).get("turn_seconds"):
        _play_live(player, game["id"], seat)
    else:
        player.games[game["id"]] = {"seat": seat, "etag": None}


# -- live tables ----------------------------------------------------------------------------------------------
def live_table(player: Phone) -> None:
    """Join a live table another player opened, or open one; then play it as the page does."""
    joined = join_shared(player, OPEN_TABLES)
    if joined:
        _play_live(player, *joined)
        return
    body = {"game": random.choice(GAMES), "color": "white", "options": {"turn_seconds": LIVE_TURN_SECONDS}}
    created = player.call("POST", "/v1/games", "POST /v1/games (live)", body)
    if created.status_code == 201:
        found = created.json()
        OPEN_TABLES.append((found["game"]["id"], found["invite"]["code"], player.token or ""))
        _play_live(player, found["game"]["id"], "white")


def join_shared(player: Phone, invites: deque[tuple[str, str, str]]) -> tuple[str, str] | None:
    """Join the first game another player shared in ``invites`` (game id, invite code, sharer's token), taking
    them off the queue: (its id, this player's seat), or None when none could be joined."""
    while invites:
        game_id, invite, creator = invites.popleft()
        if creator == player.token:
            continue
        joined = player.call("POST", f"/v1/games/{game_id}/join", "POST /v1/games/{id}/join", {"invite": invite})
        if joined.status_code == 200:
            return game_id, joined.json()["seat"]
    return None


def _play_live(player: Phone, game_id: str, seat: str) -> None:
    from tests.load import live_player

    if seat == "white":  # a new table: watchers may follow it from now on
        LIVE_GAMES.append(game_id)
    if live_player.play(player, game_id, seat, LIVE_SECONDS, LIVE_MOVES, LIVE_WAIT_SECONDS):
        return
    started, etag = time.monotonic(), None
    view: dict[str, Any] = {}
    moved, think_until = 0, None
    while time.monotonic() - started < LIVE_SECONDS:
        headers: dict[str, str] = {"If-None-Match": etag} if etag else {}
        path = f"/v1/games/{game_id}?moves_after={view.get('ply', 0)}"
        answer = player.call("GET", path, "GET /v1/games/{id} (live poll)", headers=headers)
        if answer.status_code == 200:
            etag, view = answer.headers.get("ETag"), answer.json()
        state = view.get("state")
        if state == "finished":
            player.finished.append(game_id)
            return
        if state == "waiting" and time.monotonic() - started > LIVE_WAIT_SECONDS:
            return  # nobody came: the table is left
        if state == "active" and view.get("turn") == seat and view.get("legal_moves"):
            think_until = think_until or time.monotonic() + random.uniform(1, 4)
            if time.monotonic() >= think_until:
                if moved >= LIVE_MOVES:
                    player.call("POST", f"/v1/games/{game_id}/resign", "POST /v1/games/{id}/resign")
                    player.finished.append(game_id)
                    return
                move = {"move": random.choice(view["legal_moves"]), "ply": view["ply"]}
                player.call("POST", f"/v1/games/{game_id}/moves", "POST /v1/games/{id}/moves (live)", move)
                moved, think_until = moved + 1, None
                continue  # read the answer's effect at once, as the page renders it
        time.sleep(LIVE_POLL_SECONDS)


# -- the leaderboard and reviews ------------------------------------------------------------------------------
def leaderboard(player: Phone) -> None:
    player.call("GET", f"/v1/leaderboard?game={random.choice(GAMES)}", "GET /v1/leaderboard")


def review(player: Phone) -> None:
    """Ask for the review of a game this player finished, and read it while it is pending."""
    if not player.finished:
        return
    game_id = player.finished.pop()
    answer = player.call("POST", f"/v1/games/{game_id}/review", "POST /v1/games/{id}/review")
    for _ in range(REVIEW_READS):
        if answer.status_code not in (200, 202) or answer.json().get("status") != "pending":
            return
        time.sleep(REVIEW_POLL_SECONDS)
        answer = player.call("GET", f"/v1/games/{game_id}/review", "GET /v1/games/{id}/review")
