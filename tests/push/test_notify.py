"""The notify function end to end: the games function writes events, their stream records (shaped as AWS
sends them) go to the notify handler, which sends real Web Push (RFC 8291/8292) to the local push service,
which checks the VAPID JWT and decrypts the payload."""

from __future__ import annotations

import pytest

from local.events import LambdaContext
from local.streams import TableTail, event_items

PATH = "/v1/players/me/push-subscriptions"
PAYLOAD_KEYS = {"kind", "game", "url", "title", "body", "tag"}


class Stream:
    """What DynamoDB Streams and the event source mapping do: each new event item once, to the notify handler."""

    def __init__(self, notify):
        from common.persistence.store import client

        self.notify = notify
        self.tail = TableTail(client, "GamesTable")

    def records(self) -> list[dict]:
        return self.tail.new_records(keep=event_items)

    def deliver(self, records: list[dict]) -> dict:
        return self.notify({"Records": records}, LambdaContext(function_name="NotifyFunction"))

    def flush(self) -> dict:
        return self.deliver(self.records())


@pytest.fixture
def stream(notify):
    return Stream(notify)


def started_game(games_api, stream: Stream) -> tuple[str, dict[str, str]]:
    """A chess game of Asha (White, who made it) and Baraka, made and joined before anyone subscribed, and its
    records streamed (they notify no one: the creator joined no one): (game id, seats)."""
    game_id, seats = games_api.start_game()
    stream.flush()
    return game_id, seats


@pytest.fixture
def started(games_api, stream) -> tuple[str, dict[str, str]]:
    return started_game(games_api, stream)


def subscribe(push_api, push_service, token: str, lang: str = "sw", kinds: list[str] | None = None):
    from push.vapid import vapid_key

    from tests.games.client import invoke

    browser = push_service.subscribe(server_key=vapid_key().public_key)
    body = {**browser.info(), "lang": lang, **({"kinds": kinds} if kinds else {})}
    answer = invoke(push_api.app, "PushFunction", "POST", PATH, body=body, token=token)
    assert answer.status == 201, answer.body
    return browser


def listed(push_api, token: str) -> list[dict]:
    from tests.games.client import invoke

    return invoke(push_api.app, "PushFunction", "GET", PATH, token=token).body["subscriptions"]


def test_a_move_reaches_the_opponent_as_an_encrypted_signed_push(games_api, push_api, push_service, stream, started):
    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"], lang="en")
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    games_api.play(game_id, seats, ["e4"])
    assert stream.flush() == {"batchItemFailures": []}
    (delivery,) = push_service.wait_for(1)
    assert delivery.endpoint == black.endpoint and not push_service.deliveries(white.endpoint)
    assert set(delivery.json) == PAYLOAD_KEYS
    assert delivery.json == {
        "kind": "your_move",
        "game": game_id,
        "url": f"/en/mchezo/?id={game_id}",
        "title": "It is your move",
        "body": "Asha played e4 in Chess.",
        "tag": f"game:{game_id}",
    }
    # What the local push service checked before accepting it: RFC 8292 and RFC 8030 headers.
    assert delivery.claims["aud"] == push_service.origin and delivery.claims["sub"].startswith("mailto:")
    assert delivery.headers["content-encoding"] == "aes128gcm"
    assert int(delivery.headers["ttl"]) == 24 * 3600 and delivery.headers["urgency"] == "normal"
    assert push_service.refused == []


def test_the_language_of_each_subscription(games_api, push_api, push_service, stream):
    game_id, seats = games_api.start_game(game="english")
    stream.flush()
    phones = {lang: subscribe(push_api, push_service, seats["white"], lang=lang) for lang in ("sw", "tl", "en")}
    games_api.play(game_id, seats, ["11-15"])  # Black (Baraka, who joined) opens in English draughts
    stream.flush()
    push_service.wait_for(3)
    bodies = {lang: push_service.deliveries(phone.endpoint)[0].json for lang, phone in phones.items()}
    assert bodies["sw"]["title"] == "Ni zamu yako"
    assert bodies["sw"]["body"] == "Baraka amecheza 11-15 katika Dama ya Kiingereza."
    assert bodies["tl"]["title"] == "Ikaw na ang titira"
    assert bodies["tl"]["body"].startswith("Tumira ng 11-15 ang kalaban mo (Baraka) sa ")
    assert bodies["en"]["body"] == "Baraka played 11-15 in English draughts."
    assert {body["url"] for body in bodies.values()} == {f"/{lang}/mchezo/?id={game_id}" for lang in ("sw", "tl", "en")}


def test_gone_deletes_the_subscription_and_the_next_move_sends_nothing(
    games_api, push_api, push_service, stream, started
):
    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"])
    push_service.answer_with(black.endpoint, 410)
    games_api.play(game_id, seats, ["e4"])
    assert stream.flush() == {"batchItemFailures": []}
    assert push_service.attempts[black.endpoint] == 1  # 410 is final: no retry
    assert listed(push_api, seats["black"]) == []
    games_api.play(game_id, seats, ["e5", "Nf3"])
    stream.flush()
    assert push_service.attempts[black.endpoint] == 1 and push_service.deliveries() == []


def test_busy_push_services_are_retried_then_dropped(games_api, push_api, push_service, stream, waits, started):
    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"])
    push_service.answer_with(black.endpoint, 429, retry_after=2, times=1)  # busy once, then fine
    games_api.play(game_id, seats, ["e4"])
    stream.flush()
    assert push_service.attempts[black.endpoint] == 2 and len(push_service.deliveries(black.endpoint)) == 1
    assert waits == [2.0]  # the push service's Retry-After
    push_service.answer_with(black.endpoint, 500)  # failing for good
    games_api.play(game_id, seats, ["e5", "Nf3"])
    assert stream.flush() == {"batchItemFailures": []}  # dropped and logged, not retried by the stream
    assert push_service.attempts[black.endpoint] == 2 + 3
    assert waits == [2.0, 0.5, 1.0]  # doubling
    assert len(listed(push_api, seats["black"])) == 1  # a 5xx does not delete the subscription


def test_kinds_are_respected_and_game_over_goes_to_both(games_api, push_api, push_service, stream, started):
    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"], lang="en", kinds=["game_over"])
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    games_api.play(game_id, seats, ["f3", "e5", "g4"])
    stream.flush()
    assert push_service.deliveries() == []  # Black wants only game_over; White's moves were answered by no one
    games_api.play(game_id, seats, ["Qh4#"])
    stream.flush()
    push_service.wait_for(2)
    assert [d.json["body"] for d in push_service.deliveries(white.endpoint)] == [
        "You lost your game of Chess against Baraka."
    ]
    assert [d.json["body"] for d in push_service.deliveries(black.endpoint)] == [
        "You won your game of Chess against Asha."
    ]
    assert {d.json["kind"] for d in push_service.deliveries()} == {"game_over"}


def test_draw_offer_resignation_and_takeover(games_api, push_api, push_service, stream, clock, started):
    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"], lang="en")
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    games_api.play(game_id, seats, ["e4", "e5"])
    stream.flush()
    assert [d.json["body"] for d in push_service.deliveries(white.endpoint)] == ["Baraka played e5 in Chess."]
    assert games_api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=seats["white"]).status == 200
    stream.flush()
    assert push_service.deliveries(black.endpoint)[-1].json["title"] == "Draw offered"
    assert push_service.deliveries(black.endpoint)[-1].json["body"] == "Asha offers a draw in Chess."
    clock.advance(hours=4 * 24)  # White's time runs out; Black lets the computer play on for White
    takeover = games_api.call("POST", f"/v1/games/{game_id}/cpu-takeover", None, token=seats["black"])
    assert takeover.status == 200, takeover.body
    stream.flush()
    taken = push_service.deliveries(white.endpoint)[-1].json
    assert (taken["title"], taken["kind"]) == ("The computer is playing for you", "your_move")
    assert push_service.deliveries(black.endpoint)[-1].json["title"] == "It is your move"  # the computer moved
    assert games_api.call("POST", f"/v1/games/{game_id}/resign", {}, token=seats["black"]).status == 200
    stream.flush()
    assert push_service.deliveries(white.endpoint)[-1].json["body"] == "You won your game of Chess against Baraka."
    assert push_service.deliveries(black.endpoint)[-1].json["body"] == "You lost your game of Chess against Asha."


def test_a_move_stored_just_before_a_crash_is_still_notified(games_api, push_api, push_service, stream, started):
    """The games function appended the event and died before writing the head: the stream still has the
    event, and the notify function folds it onto the old head, so the right notice goes out."""
    from common.persistence.store import client

    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"], lang="en")
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    games_api.play(game_id, seats, ["f3", "e5", "g4"])
    stream.flush()
    head_key = {"pk": {"S": game_id}, "sk": {"S": "H"}}
    before = client().get_item(TableName="GamesTable", Key=head_key, ConsistentRead=True)["Item"]
    games_api.play(game_id, seats, ["Qh4#"])
    client().put_item(TableName="GamesTable", Item=before)  # as if the head write never happened
    assert stream.flush() == {"batchItemFailures": []}
    push_service.wait_for(3)
    assert push_service.deliveries(white.endpoint)[-1].json["title"] == "Game over"
    assert push_service.deliveries(black.endpoint)[-1].json["body"] == "You won your game of Chess against Asha."


def test_one_bad_record_does_not_hold_up_the_others(games_api, push_api, push_service, stream):
    from common.persistence.store import client

    first, seats = games_api.start_game()
    second, other_seats = games_api.start_game()
    stream.flush()
    subscribe(push_api, push_service, seats["black"], lang="en")
    subscribe(push_api, push_service, other_seats["black"], lang="en")
    # A corrupt event in the first game (a move no rules allow, after a head it cannot fold onto).
    client().put_item(
        TableName="GamesTable",
        Item={"pk": {"S": first}, "sk": {"S": "E000003"}, "kind": {"S": "move"}, "by": {"S": "white"},
              "move": {"S": "Ke8"}, "ply": {"N": "1"}, "at": {"N": "1"}},
    )  # fmt: skip
    games_api.play(second, other_seats, ["d4"])
    records = stream.records()
    assert [record["dynamodb"]["Keys"]["pk"]["S"] for record in records] == sorted([first, second])
    answer = stream.deliver(records)
    bad = next(record for record in records if record["dynamodb"]["Keys"]["pk"]["S"] == first)
    assert answer == {"batchItemFailures": [{"itemIdentifier": bad["dynamodb"]["SequenceNumber"]}]}
    (delivery,) = push_service.wait_for(1)
    assert delivery.json["game"] == second


def test_the_creator_hears_that_the_friend_joined(games_api, push_api, push_service, stream):
    creator = games_api.new_player("Asha")
    friend = games_api.new_player("Baraka")
    phone = subscribe(push_api, push_service, creator["token"], lang="en")
    created = games_api.create(creator["token"], "chess", "white")
    game_id = created.body["game"]["id"]
    stream.flush()
    assert push_service.deliveries() == []  # creating a game tells no one
    assert games_api.join(friend["token"], game_id, created.body["invite"]["code"]).status == 200
    stream.flush()
    (delivery,) = push_service.wait_for(1)
    assert delivery.endpoint == phone.endpoint
    assert delivery.json["body"] == "Baraka joined your game of Chess."


def test_late_records_do_not_announce_moves_already_answered(games_api, push_api, push_service, stream, started):
    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"], lang="en")
    white = subscribe(push_api, push_service, seats["white"], lang="en")
    games_api.play(game_id, seats, ["e4", "e5"])  # both before the stream delivers either
    stream.flush()
    assert push_service.deliveries(black.endpoint) == []  # e4 was answered already
    assert [d.json["body"] for d in push_service.wait_for(1)] == ["Baraka played e5 in Chess."]
    assert push_service.deliveries(white.endpoint)


def test_an_expired_subscription_is_dropped_not_used(games_api, push_api, push_service, stream, clock, started):
    from tests.games.client import invoke

    game_id, seats = started
    browser = push_service.subscribe()
    expires = int((clock.now + 3600) * 1000)
    body = {**browser.info(), "expirationTime": expires, "lang": "en"}
    assert invoke(push_api.app, "PushFunction", "POST", PATH, body=body, token=seats["black"]).status == 201
    clock.now += 2 * 3600
    games_api.play(game_id, seats, ["e4"])
    stream.flush()
    assert push_service.attempts == {} and listed(push_api, seats["black"]) == []


def test_each_push_counts_once_as_sent_or_failed(games_api, push_api, push_service, stream, capsys, started):
    from tests.games.test_metrics import emitted

    game_id, seats = started
    black = subscribe(push_api, push_service, seats["black"])
    push_service.answer_with(black.endpoint, 429, retry_after=1, times=1)  # retried once, then delivered
    games_api.play(game_id, seats, ["e4"])
    capsys.readouterr()
    stream.flush()
    assert emitted(capsys) == {"PushSent": 1}
    push_service.answer_with(black.endpoint, 500)  # dropped after its retries
    games_api.play(game_id, seats, ["e5", "Nf3"])
    capsys.readouterr()
    stream.flush()
    assert emitted(capsys) == {"PushFailed": 1}
