"""Section ``history``: the DynamoDB calls of a history page, a profile and the Tazama list for a player with
1,000 games (moto): every page of every filter counted, and the most any page took. A count, not a time."""

from __future__ import annotations

import contextlib
import io
import random
from dataclasses import replace

from common.players.handles import player_id_of

from tests.bench.common import _games_on_moto, heading

GAMES = 1_000


def seed_listings(player_id: str, count: int) -> list[dict]:
    """``count`` finished or ongoing games of the player, of every kind, written as the write protocol writes
    their listings (creating 1,000 games through the API would take minutes on moto); their records."""
    from games.history.domain import Listing, Outcome
    from games.repository import GameStore

    rng = random.Random(41)
    outcomes: tuple[Outcome, ...] = ("win", "loss", "draw", "ongoing")
    store = GameStore()
    records = []
    for number in range(count):
        computer = rng.random() < 0.2
        outcome = rng.choice(outcomes)
        listing = Listing(
            player_id=player_id,
            game_id=f"b{number:011d}",
            color=rng.choice(("white", "black")),
            name="Asha",
            game=rng.choice(("chess", "english", "tanzanian")),
            created=1_750_000_000_000 + number * 60_000,
            opponent=None if computer else f"opp{number % 7}",
            opponent_name=None if computer else "Baraka",
            opponent_cpu=2 if computer else None,
            outcome=outcome,
            reason=None if outcome == "ongoing" else "resignation",
            rating_change=None,
            rated=not computer and rng.random() < 0.5,
            computer=computer,
            live=rng.random() < 0.3,
            tournament=False,
            private=not computer and rng.random() < 0.2,
        )
        records.append(listing.record(seq=3))
        store.listings.put_listing(records[-1])
    return records


def _full_tallies(player_id: str) -> None:
    """The player's wins, draws and losses in each game, each tally as large as it grows (its last counted
    games all kept): what the profile's partition Query reads beside the ratings."""
    from games.ratings.domain import COUNTED_KEPT, ResultTally
    from games.ratings.repository import RatingStore

    for game in ("chess", "english", "tanzanian"):
        tally = ResultTally(player_id, game)
        for number in range(COUNTED_KEPT):
            tally = tally.after(f"{game[0]}{number:015d}", ("win", "draw", "loss")[number % 3])
        assert RatingStore().save_tally(replace(tally, version=1))


def _tally_key(params: dict) -> bool:
    key = params.get("Key") or params.get("Item") or {}
    return str(key.get("sk", {}).get("S", "")).startswith("#results#")


def bench_history() -> None:
    with _games_on_moto() as (api, meter):
        heading(f"history: DynamoDB calls per page for a player with {GAMES:,} games (moto)")
        asha = api.new_player("Asha")
        seed_listings(player_id_of(asha["player_id"]), GAMES)  # the API shows handles
        filters = [
            {},
            {"result": "loss"},
            {"game": "english"},
            {"kind": "rated"},
            {"kind": "live"},
            {"opponent": "opp3"},
        ]
        for query in filters:
            pages, most, seen, cursor = 0, 0, 0, None
            while True:
                with meter:
                    answer = api.call(
                        "GET",
                        "/v1/players/me/history",
                        token=asha["token"],
                        query={**query, **({"cursor": cursor} if cursor else {})},
                    )
                assert answer.status == 200, answer.body
                pages += 1
                most = max(most, len(meter.calls))
                seen += len(answer.body["games"])
                cursor = answer.body["cursor"]
                if cursor is None:
                    break
            label = ", ".join(f"{name}={value}" for name, value in query.items()) or "no filter"
            print(f"your history, {label:<18} {seen:>5} games in {pages:>3} pages, at most {most} calls a page")
        with meter:
            public = api.call("GET", f"/v1/players/{asha['player_id']}/games")
        print(f"a player's public games, one page: {len(meter.calls)} call(s): {', '.join(n for n, _ in meter.calls)}")
        _full_tallies(player_id_of(asha["player_id"]))
        with meter:
            profile = api.call("GET", f"/v1/players/{asha['player_id']}")
        assert profile.status == 200 and public.status == 200
        print(
            f"a profile: {len(meter.calls)} call(s): {', '.join(n for n, _ in meter.calls)}; {len(profile.text):,} bytes"
        )
        with contextlib.redirect_stdout(io.StringIO()):  # the function's EMF metric lines
            game_id, seats = api.start_game()
            api.open_moves(game_id, seats)
            with meter:
                ended = api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"])
        assert ended.status == 200 and ended.body["state"] == "finished"
        tallies = [name for name, params in meter.calls if _tally_key(params)]
        print(
            f"a casual game's end by resignation: {meter.reads} read(s), {meter.writes} write(s), of which the "
            f"two players' wins, draws and losses: {', '.join(tallies)}"
        )
        game_id, seats = api.start_game()
        with meter:
            live = api.call("GET", "/v1/games/live", query={"game": "chess"})
        assert live.status == 200
        print(f"the Tazama list: {len(meter.calls)} call(s): {', '.join(n for n, _ in meter.calls)}")
