"""`make smoke URL=https://...`: does a stack answer? A short end-to-end run, one line per check.

    python -m local.smoke https://d1234.cloudfront.net      # or http://127.0.0.1:3000 (make run)

Standard library only, so it runs from any machine with Python 3.11+. It creates two throwaway players
and one short game (a fool's mate, four moves); nothing else is written. Exit status 0 when every check
passed, 1 otherwise (each failing line says what was expected and what came).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

LANGS = ("sw", "tl", "en")
#: The shortest decisive chess game: White is mated on ply 4.
FOOLS_MATE = ("f3", "e5", "g4", "Qh4#")
TIMEOUT = 15.0


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def json(self) -> Any:
        return json.loads(self.text)


class Client:
    """HTTP against one origin (the site and /v1 together, as CloudFront serves them)."""

    def __init__(self, origin: str, timeout: float = TIMEOUT):
        self.origin = origin.rstrip("/")
        self.timeout = timeout

    def call(self, method: str, path: str, body: Any = None, token: str | None = None, **headers: str) -> Reply:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.origin + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in headers.items():
            request.add_header(name.replace("_", "-"), value)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, raw, found = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, raw, found = error.code, error.read(), error.headers
        return Reply(status, {name.lower(): value for name, value in found.items()}, raw.decode("utf-8", "replace"))


class CheckFailed(AssertionError):
    pass


def expect(reply: Reply, status: int, what: str) -> Reply:
    if reply.status != status:
        raise CheckFailed(f"{what}: expected {status}, got {reply.status} {reply.text[:200]}")
    return reply


# ---------------------------------------------------------------------------------------------- checks
def check_validate(client: Client) -> str:
    reply = expect(client.call("POST", "/v1/validate", {"game": "chess", "move": "e4"}), 200, "POST /v1/validate")
    body = reply.json
    if not body.get("legal"):
        raise CheckFailed(f"e4 should be legal in the starting position: {body}")
    return "e4 is legal"


def check_rules_page(lang: str) -> Callable[[Client], str]:
    def check(client: Client) -> str:
        reply = expect(client.call("GET", f"/v1/rules/chess?lang={lang}"), 200, f"GET /v1/rules/chess?lang={lang}")
        if not reply.headers.get("content-type", "").startswith("text/html") or f'lang="{lang}"' not in reply.text:
            raise CheckFailed(f"expected an HTML page in {lang}, got {reply.headers.get('content-type')}")
        return f"{len(reply.text.encode()):,} bytes of HTML"

    check.__name__ = f"rules page ({lang})"
    return check


def check_daily_puzzle(client: Client) -> str:
    daily = expect(client.call("GET", "/v1/puzzles/daily?game=chess"), 200, "GET /v1/puzzles/daily").json
    puzzle = expect(client.call("GET", f"/v1/puzzles/{daily['id']}"), 200, f"GET /v1/puzzles/{daily['id']}").json
    if puzzle["fen"] != daily["fen"]:
        raise CheckFailed("the daily puzzle and the same puzzle by id differ")
    return f"{daily['id']} (rating {daily['rating']}, {daily['date']})"


class GameCheck:
    """Two throwaway players, a game between them to its end, and its export."""

    def __init__(self) -> None:
        self.game_id: str | None = None

    def play(self, client: Client) -> str:
        white = expect(client.call("POST", "/v1/players", {"name": "smoke white"}), 201, "POST /v1/players").json
        black = expect(client.call("POST", "/v1/players", {"name": "smoke black"}), 201, "POST /v1/players").json
        created = client.call("POST", "/v1/games", {"game": "chess", "color": "white"}, token=white["token"])
        created = expect(created, 201, "POST /v1/games").json
        game_id, invite = created["game"]["id"], created["invite"]["code"]
        joined = client.call("POST", f"/v1/games/{game_id}/join", {"invite": invite}, token=black["token"])
        expect(joined, 200, "join")
        for ply, move in enumerate(FOOLS_MATE):
            token = (white if ply % 2 == 0 else black)["token"]
            played = client.call("POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token=token)
            state = expect(played, 200, f"move {move} at ply {ply}").json
        status = state["status"]
        if status != {"result": "black", "reason": "checkmate"}:
            raise CheckFailed(f"the fool's mate should end in a win for black: {status}")
        self.game_id = game_id
        return f"game {game_id}: {len(FOOLS_MATE)} moves, {status['result']} ({status['reason']})"

    def export(self, client: Client) -> str:
        if self.game_id is None:
            raise CheckFailed("no game to export (the game check failed)")
        reply = expect(client.call("GET", f"/v1/games/{self.game_id}/export"), 200, "GET export")
        if "1. f3 e5 2. g4 Qh4#" not in reply.text:
            raise CheckFailed(f"the PGN lacks the moves: {reply.text[:300]}")
        return f"PGN, {len(reply.text.encode())} bytes"


def checks() -> list[tuple[str, Callable[[Client], str]]]:
    game = GameCheck()
    return [
        ("validate", check_validate),
        *((f"rules page {lang}", check_rules_page(lang)) for lang in LANGS),
        ("daily puzzle", check_daily_puzzle),
        ("whole game", game.play),
        ("export", game.export),
    ]


def run(origin: str, out: TextIO = sys.stdout, timeout: float = TIMEOUT) -> bool:
    client = Client(origin, timeout)
    passed = True
    for name, check in checks():
        started = time.perf_counter()
        try:
            detail, ok = check(client), True
        except (CheckFailed, OSError, ValueError, KeyError, TypeError) as problem:
            detail, ok = f"{type(problem).__name__}: {problem}", False
        elapsed = (time.perf_counter() - started) * 1000
        print(f"{'ok  ' if ok else 'FAIL'} {name:16} {elapsed:7.0f} ms  {detail}", file=out, flush=True)
        passed &= ok
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.smoke", description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the stack's SiteUrl (make smoke URL=...), or http://127.0.0.1:3000")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per request (default %(default)s)")
    options = parser.parse_args(argv)
    if not options.url.startswith(("http://", "https://")):
        parser.error("the URL starts with https:// (or http:// for make run)")
    return 0 if run(options.url, timeout=options.timeout) else 1


if __name__ == "__main__":
    sys.exit(main())
