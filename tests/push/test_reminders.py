"""Deadline reminders: sent once at less than 24 hours left and once at less than 2 hours, found through the
sparse index, with an injected clock. The head's reminder attributes come from the games function's own head
write (``common.persistence.reminder_schedule``), through its API: nothing here sets them."""

from __future__ import annotations

import pytest

from tests.push.test_notify import subscribe

HOUR = 3600
DAY = 24 * HOUR


def head_reminders(game_id: str) -> dict:
    """The reminder attributes the games function stored on the head (its write path sets them)."""
    from common.persistence.store import client

    item = client().get_item(TableName="GamesTable", Key={"pk": {"S": game_id}, "sk": {"S": "H"}})["Item"]
    return {name: int(item[name]["N"]) if name in item else None for name in ("reminder_due", "reminder_hour")}


def rewrite_head_reminders(game_id: str, due: int) -> None:
    """A head put back with an old ``reminder_due`` (a repair or a late write of the same turn)."""
    from common.persistence.store import client, to_attribute

    client().update_item(
        TableName="GamesTable",
        Key={"pk": {"S": game_id}, "sk": {"S": "H"}},
        UpdateExpression="SET reminder_due = :due, reminder_hour = :hour",
        ExpressionAttributeValues={":due": to_attribute(due), ":hour": to_attribute(due // 3_600_000)},
    )


@pytest.fixture
def sweep(notify, clock):
    from notify.handler import reminders

    from local.events import LambdaContext

    handler = reminders.create_handler(clock=clock, pushes=notify.parts.pushes)

    def run() -> dict:
        return handler({"source": "aws.scheduler"}, LambdaContext(function_name="ReminderFunction"))

    return run


def bodies(push_service, browser) -> list[str]:
    return [delivery.json["body"] for delivery in push_service.deliveries(browser.endpoint)]


def test_24_hours_then_2_hours_each_once(games_api, push_api, push_service, sweep, clock):
    game_id, seats = games_api.start_game()  # three days per move; White (Asha) to move
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    start = clock.now
    assert head_reminders(game_id)["reminder_due"] == int((start + 2 * DAY) * 1000)
    clock.now = start + 2 * DAY - 60  # 24 h and a minute left
    assert sweep() == {"due": 0, "reminded": 0, "skipped": 0, "settled": 0, "daily": 0}
    clock.now = start + 2 * DAY + 60  # 23 h 59 min left
    assert sweep() == {"due": 1, "reminded": 1, "skipped": 0, "settled": 0, "daily": 0}
    assert bodies(push_service, white) == ["Less than 24 hours left for your move in Chess against Baraka."]
    (first,) = push_service.deliveries(white.endpoint)
    assert first.json["kind"] == "reminder" and first.json["tag"] == f"game:{game_id}"
    assert int(first.headers["ttl"]) == 12 * HOUR
    clock.now += 15 * 60
    assert sweep()["reminded"] == 0  # the next sweep: nothing again
    clock.now = start + 3 * DAY - 2 * HOUR + 60
    assert sweep() == {"due": 1, "reminded": 1, "skipped": 0, "settled": 0, "daily": 0}
    assert bodies(push_service, white)[-1] == "Less than 2 hours left for your move in Chess against Baraka."
    assert push_service.deliveries(white.endpoint)[-1].headers["urgency"] == "high"
    clock.now += HOUR
    assert sweep() == {"due": 0, "reminded": 0, "skipped": 0, "settled": 0, "daily": 0}
    assert len(push_service.deliveries()) == 2


def test_a_head_rewritten_with_an_old_reminder_sends_nothing_twice(games_api, push_api, push_service, sweep, clock):
    game_id, seats = games_api.start_game()
    white = subscribe(push_api, push_service, seats["white"], lang="sw")
    first_due = head_reminders(game_id)["reminder_due"]
    clock.now += 2 * DAY + 60
    assert sweep()["reminded"] == 1
    assert bodies(push_service, white) == ["Zimebaki chini ya saa 24 kwa hatua yako katika Chesi dhidi ya Baraka."]
    assert head_reminders(game_id)["reminder_due"] > first_due  # the sweep moved it on to the 2-hour stage
    rewrite_head_reminders(game_id, first_due)  # the head rewritten (the same turn) with the 24-hour reminder
    assert sweep() == {
        "due": 1,
        "reminded": 0,
        "skipped": 1,
        "settled": 0,
        "daily": 0,
    }  # the marker remembers it was sent
    assert len(push_service.deliveries()) == 1


def test_a_move_starts_the_reminders_of_the_next_turn(games_api, push_api, push_service, sweep, clock):
    game_id, seats = games_api.start_game()
    black = subscribe(push_api, push_service, seats["black"], lang="tl")
    clock.now += DAY
    games_api.play(game_id, seats, ["e4"])  # Black's turn: a new deadline three days from now
    start = clock.now
    assert head_reminders(game_id)["reminder_due"] == int((start + 2 * DAY) * 1000)
    clock.now = start + 2 * DAY + 60
    assert sweep()["reminded"] == 1  # to Black; White's old reminder is gone with the old turn
    assert bodies(push_service, black) == ["Wala nang 24 na oras na natitira para sa tira mo sa Chess. Kalaban: Asha."]


def test_one_day_per_move_gets_only_the_2_hour_reminder(games_api, push_api, push_service, sweep, clock):
    from common.persistence.reminder_schedule import index_key

    game_id, seats = games_api.start_game(options={"days_per_move": 1})
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    attributes = head_reminders(game_id)
    assert attributes["reminder_due"] == int((clock.now + DAY - 2 * HOUR) * 1000)
    assert attributes["reminder_hour"] == index_key(game_id, attributes["reminder_due"])
    clock.now += DAY - 2 * HOUR + 60
    assert sweep()["reminded"] == 1
    assert bodies(push_service, white) == ["Less than 2 hours left for your move in Chess against Baraka."]


def test_the_head_carries_no_reminder_when_none_is_coming(games_api, push_api, clock):
    """A game waiting for its second player, a finished game, a game against the computer on its own turn:
    no attributes, so the sparse index never holds them."""
    creator = games_api.new_player("Asha")
    waiting = games_api.create(creator["token"]).body["game"]["id"]
    assert head_reminders(waiting) == {"reminder_due": None, "reminder_hour": None}
    game_id, seats = games_api.start_game()
    assert head_reminders(game_id)["reminder_due"] is not None
    resigned = games_api.call("POST", f"/v1/games/{game_id}/resign", {}, token=seats["white"])
    assert resigned.status == 200, resigned.body
    assert head_reminders(game_id) == {"reminder_due": None, "reminder_hour": None}


def test_a_sweep_costs_per_due_game_not_per_game(games_api, push_api, push_service, sweep, clock):
    """Thirty games wait; the sweep's DynamoDB calls grow with the due ones only."""
    from common.persistence.reminder_schedule import REMINDER_SHARDS
    from common.persistence.store import client
    from notify.service import daily
    from notify.service.reminders import LOOKBACK_HOURS

    games = []
    for number in range(30):
        clock.now += 60 if number else 0
        game_id, seats = games_api.start_game()
        games.append((game_id, seats))
    subscribe(push_api, push_service, games[0][1]["white"], lang="en")
    calls: list[str] = []
    client().meta.events.register("before-call.dynamodb", lambda model, **_: calls.append(model.name))
    first_due = clock.now - 29 * 60 + 2 * DAY
    clock.now = first_due + 30  # only the first game is due
    assert sweep() == {"due": 1, "reminded": 1, "skipped": 0, "settled": 0, "daily": 0}
    # The reminders' hours, each with its shards and its unsharded key, and the daily puzzle's hours.
    queries = (LOOKBACK_HOURS + 1) * (REMINDER_SHARDS + 1) + daily.LOOKBACK_HOURS + 1
    per_due_game = ["GetItem", "PutItem", "Query", "UpdateItem"]  # head, marker, subscriptions, next stage
    assert sorted(calls) == sorted(["Query"] * queries + per_due_game)
    calls.clear()
    clock.now = first_due + 2 * 60 + 30  # two more are due now
    assert sweep() == {"due": 2, "reminded": 2, "skipped": 0, "settled": 0, "daily": 0}
    assert len(push_service.deliveries()) == 1  # no one subscribed in those two games
    assert sorted(calls) == sorted(["Query"] * queries + 2 * per_due_game)


# ------------------------------------------------------------------------------------- the daily puzzle
def _daily_subscriber(push_api, push_service, token: str, tz: str, lang: str = "sw", kinds=None):
    from tests.games.client import invoke

    browser = push_service.subscribe()
    body = {**browser.info(), "lang": lang, "tz": tz, "kinds": kinds or ["your_move", "daily_puzzle"]}
    answer = invoke(push_api.app, "PushFunction", "POST", "/v1/players/me/push-subscriptions", body=body, token=token)
    assert answer.status == 201, answer.body
    assert answer.body["tz"] == tz
    return browser


def test_the_daily_puzzle_at_eight_in_the_morning_where_the_player_is(push_api, push_service, sweep, clock, new_player):
    from datetime import UTC, datetime

    _, nairobi_player = new_player("Asha")
    _, manila_player = new_player("Tala")
    _, not_wanted = new_player("Juma")
    clock.now = datetime(2025, 6, 15, 12, 0, tzinfo=UTC).timestamp()  # 15:00 in Nairobi, 20:00 in Manila
    nairobi = _daily_subscriber(push_api, push_service, nairobi_player, "Africa/Nairobi", lang="sw")
    manila = _daily_subscriber(push_api, push_service, manila_player, "Asia/Manila", lang="tl")
    _daily_subscriber(push_api, push_service, not_wanted, "Africa/Nairobi", kinds=["your_move"])
    clock.now = datetime(2025, 6, 15, 23, 59, tzinfo=UTC).timestamp()  # 07:59 on the 16th in Manila
    assert sweep()["daily"] == 0
    clock.now = datetime(2025, 6, 16, 0, 1, tzinfo=UTC).timestamp()  # 08:01 in Manila
    assert sweep()["daily"] == 1
    (first,) = push_service.deliveries(manila.endpoint)
    assert first.json == {
        "kind": "daily_puzzle",
        "game": None,
        "url": "/tl/fumbo/",
        "title": "Palaisipan ng araw",
        "body": "May bagong palaisipan na naghihintay sa iyo. Kaya mo bang lutasin ito?",
        "tag": "daily_puzzle",
    }
    clock.now += 15 * 60
    assert sweep()["daily"] == 0  # once a day
    clock.now = datetime(2025, 6, 16, 5, 1, tzinfo=UTC).timestamp()  # 08:01 in Nairobi
    assert sweep()["daily"] == 1
    assert [d.json["title"] for d in push_service.deliveries(nairobi.endpoint)] == ["Fumbo la siku"]
    clock.now = datetime(2025, 6, 17, 0, 5, tzinfo=UTC).timestamp()  # the next morning in Manila
    assert sweep()["daily"] == 1
    assert len(push_service.deliveries(manila.endpoint)) == 2
    assert len(push_service.deliveries()) == 3  # nothing for the player who did not opt in


def test_eight_in_the_morning_follows_daylight_saving_time():
    from datetime import UTC, datetime

    from push.domain import next_daily_at

    def at(year: int, month: int, day: int, hour: int, minute: int) -> int:
        return int(datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp() * 1000)

    # London: 08:00 is 07:00 UTC in summer and 08:00 UTC in winter (the clocks went back on 26 October 2025).
    assert next_daily_at(at(2025, 10, 25, 9, 0), "Europe/London") == at(2025, 10, 26, 8, 0)
    assert next_daily_at(at(2025, 10, 24, 9, 0), "Europe/London") == at(2025, 10, 25, 7, 0)
    assert next_daily_at(at(2025, 6, 16, 6, 59), "Africa/Nairobi") == at(2025, 6, 17, 5, 0)
    assert next_daily_at(at(2025, 6, 16, 4, 59), "Africa/Nairobi") == at(2025, 6, 16, 5, 0)


def test_a_bad_time_zone_is_refused(push_api, push_service, new_player):
    from tests.games.client import invoke

    _, token = new_player()
    body = {**push_service.subscribe().info(), "lang": "en", "tz": "Mars/Olympus"}
    answer = invoke(push_api.app, "PushFunction", "POST", "/v1/players/me/push-subscriptions", body=body, token=token)
    assert answer.status == 422 and answer.body["error"]["message"].startswith("tz")


def test_the_sweep_lets_the_computer_play_on_at_a_live_table_nobody_reads(games_api, sweep, clock):
    """A live turn has no reminder: the sweep finds it just after its deadline and the computer plays on, once."""
    game_id, seats = games_api.start_game("tanzanian", options={"turn_seconds": 60})
    for token in seats.values():  # both came to the table (its clock starts then), then neither reads it
        assert games_api.call("POST", f"/v1/games/{game_id}/open", token=token).status == 200
    deadline = int((clock.now + 60) * 1000)
    assert head_reminders(game_id)["reminder_due"] == deadline + 1
    clock.now += 60  # at the deadline itself: still White's turn
    assert sweep()["settled"] == 0
    clock.now += 1
    assert sweep() == {"due": 1, "reminded": 0, "skipped": 0, "settled": 1, "daily": 0}
    state = games_api.call("GET", f"/v1/games/{game_id}").body
    assert state["cpu_takeover"]["seat"] == "white" and state["ply"] == 1 and state["turn"] == "black"
    assert head_reminders(game_id)["reminder_due"] == int(clock.now * 1000) + 60_000 + 1  # Black's turn now
    assert sweep()["settled"] == 0  # nothing more is due


def test_a_game_the_sweeps_computer_move_ends_counts_in_the_results(games_api, sweep, clock):
    """Black, away from a live table, has one move left, a capture of White's last man: the sweep's computer
    plays it, Black wins, and the win and the loss are counted (docs/games.md, "Wins, draws and losses")."""
    from common.persistence import store
    from common.players.handles import player_id_of
    from games.ratings.repository import RatingStore

    from tests.iam import DynamoCalls, denied, grants

    game_id, seats = games_api.start_game("english", fen="B:W18:B14", options={"turn_seconds": 60})
    for token in seats.values():
        assert games_api.call("POST", f"/v1/games/{game_id}/open", token=token).status == 200
    clock.now += 61
    with DynamoCalls(store.client(), {}) as recorded:  # on AWS, only what the sweep's role allows (tests.iam)
        assert sweep()["settled"] == 1
    assert denied(recorded.calls, grants("ReminderFunction")) == set()
    assert {table for _, table, _ in recorded.calls} >= {"GamesTable", "RatingsTable"}
    state = games_api.call("GET", f"/v1/games/{game_id}").body
    assert state["state"] == "finished" and state["status"]["result"] == "black" and state["moves"] == ["14x23"]
    players = {color: games_api.call("GET", "/v1/players/me", token=token).body for color, token in seats.items()}
    tallies = {color: RatingStore().tally(player_id_of(me["player_id"]), "english") for color, me in players.items()}
    assert {color: tally.counts() if tally else None for color, tally in tallies.items()} == {
        "black": {"win": 1, "draw": 0, "loss": 0},
        "white": {"win": 0, "draw": 0, "loss": 1},
    }
