"""Issue 41's "Done when", over HTTP against `python -m local.runner` on dynalite: a player with 1,000 games pages
through every one of them with each filter, and each page's games and order agree with a brute-force filter of
the same games. The games' listings are written as the write protocol writes them (tests/bench/history.py):
making 1,000 games through the API would take many minutes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import runner

pytestmark = pytest.mark.slow  # a runner of its own and 1,000 listings written (about 30 s)

GAMES = 1_000
FILTERS = [{}, {"result": "loss"}, {"result": "ongoing"}, {"game": "english"}, {"kind": "rated"},
           {"kind": "computer"}, {"kind": "live"}, {"opponent": "opp3"}]  # fmt: skip


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    """A dynalite of this module's own: the runner makes its tables under the template's names."""
    with runner.own_dynalite() as own:
        yield own


@pytest.fixture(scope="module")
def http(endpoint, tmp_path_factory) -> Iterator[runner.Http]:
    with runner.local_runner(
        endpoint,
        tmp_path_factory.mktemp("history-runner"),
        lambda http: http("GET", "/v1/leaderboard?game=chess")[0] == 200,
        runner.Http,
        RATE_LIMIT_SCALE="100",
    ) as served:
        yield served


def seeded(token: str, endpoint: str, monkeypatch) -> list[dict]:
    """The 1,000 listings of the token's player written into the runner's games table; each as the brute force
    reads it. The player's id is read from the runner's players table: the API shows only the handle, whose
    key the runner takes from the template (``PLAYER_HANDLE_KEY``)."""
    from common.persistence import store
    from common.players.repository import PlayerStore
    from common.players.service import hash_token

    from tests.bench.history import seed_listings

    monkeypatch.setenv("DYNAMODB_ENDPOINT", endpoint)
    monkeypatch.setenv("GAMES_TABLE", "GamesTable")
    for name, value in (("AWS_ACCESS_KEY_ID", "local"), ("AWS_SECRET_ACCESS_KEY", "local")):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("PLAYERS_TABLE", "PlayersTable")
    store.reset_clients()
    try:
        player = PlayerStore().get(hash_token(token))
        assert player is not None
        return seed_listings(player.player_id, GAMES)
    finally:
        store.reset_clients()


def matches(listing: dict, query: dict) -> bool:
    """The history's filters, applied by hand (docs/games.md, "History")."""
    if "result" in query and listing["outcome"] != query["result"]:
        return False
    if "game" in query and listing["game"] != query["game"]:
        return False
    if "opponent" in query and listing["opponent"] != query["opponent"]:
        return False
    kind = query.get("kind")
    return kind is None or bool(listing[kind])


def test_a_player_with_1000_games_pages_through_all_of_them_with_each_filter(http, endpoint, monkeypatch):
    status, asha = http("POST", "/v1/players", {"name": "Asha"})
    assert status == 201, asha
    listings = seeded(asha["token"], endpoint, monkeypatch)
    assert len(listings) == GAMES
    newest_first = sorted(listings, key=lambda listing: listing["created"], reverse=True)
    for query in FILTERS:
        shown: list[str] = []
        cursor = None
        while True:
            path = "/v1/players/me/history?" + "&".join(f"{key}={value}" for key, value in query.items())
            status, page = http("GET", path + (f"&cursor={cursor}" if cursor else ""), token=asha["token"])
            assert status == 200, page
            shown += [game["id"] for game in page["games"]]
            cursor = page["cursor"]
            if cursor is None:
                break
        expected = [listing["game_id"] for listing in newest_first if matches(listing, query)]
        assert shown == expected, query
