"""The parts on their own: the repositories' shared contract, the local push service's checks, the texts in
every language, and which function may import what."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
import requests

from local.template import ROOT
from tests.push.conftest import browser_keys
from tests.stores import STORES, on_each_store

FCM = "https://fcm.googleapis.com/fcm/send/"


# ------------------------------------------------------------------------------------- repositories
@pytest.fixture(params=STORES)
def repository(request):
    from push.repository import DynamoSubscriptions, InMemorySubscriptions

    return on_each_store(request, InMemorySubscriptions, DynamoSubscriptions)


def subscription(endpoint: str, created: int, lang: str = "sw"):
    from push.domain import DEFAULT_KINDS, Subscription

    keys = browser_keys()
    return Subscription(endpoint, keys["p256dh"], keys["auth"], lang, DEFAULT_KINDS, created, None)


def test_the_repository_contract(repository):
    from push.domain import MAX_PER_PLAYER
    from push.service import Subscriptions

    assert repository.save("p1", subscription(FCM + "a", 1)) is True
    assert repository.save("p1", subscription(FCM + "a", 2, lang="tl")) is False  # same endpoint: replaced
    (stored,) = repository.list("p1")
    assert (stored.lang, stored.created) == ("tl", 2)
    assert repository.list("p2") == []
    assert repository.delete("p1", FCM + "a", created=1) is False  # not the version stored: kept
    assert repository.delete("p2", FCM + "a") is False  # another player's endpoint
    assert repository.delete("p1", FCM + "a", created=2) is True
    assert repository.list("p1") == []
    service = Subscriptions(repository)
    for number in range(MAX_PER_PLAYER + 3):
        service.subscribe("p1", subscription(f"{FCM}{number}", 100 + number))
    assert [item.endpoint for item in service.list("p1")] == [f"{FCM}{n}" for n in range(12, 2, -1)]
    # Two subscribes at once both wrote before either trimmed: the next subscribe trims back to the newest 10.
    repository.save("p1", subscription(FCM + "racer", 200))
    service.subscribe("p1", subscription(FCM + "last", 201))
    assert len(repository.list("p1")) == MAX_PER_PLAYER
    assert [item.endpoint for item in repository.list("p1")][:2] == [FCM + "last", FCM + "racer"]


def test_markers_are_written_once(backend):
    from push.repository import DynamoReminderMarks

    marks = DynamoReminderMarks()
    assert marks.mark("g1", 1_000, "24h") is True
    assert marks.mark("g1", 1_000, "24h") is False
    assert marks.mark("g1", 1_000, "2h") is True
    assert marks.mark("g1", 2_000, "24h") is True  # a new deadline, a new turn


# ----------------------------------------------------------------------------- the local push service
def vapid_push(service, browser, claims: dict, signer=None, headers: dict | None = None, data: bytes = b"{}"):
    """A push as pywebpush sends it, with claims chosen by the test."""
    from pywebpush import WebPusher

    signer = signer or new_signer()
    auth = signer.sign({"sub": "mailto:t@ubao.invalid", "aud": service.origin, "exp": int(time.time()) + 600, **claims})
    return WebPusher(browser.info()).send(data, {**auth, **(headers or {})}, ttl=60, timeout=5)


def new_signer(strict: bool = True):
    from py_vapid import Vapid

    signer = Vapid(conf={} if strict else {"no-strict": True})
    signer.generate_keys()
    return signer


@pytest.fixture
def service():
    from local.push_service import PushService

    with PushService() as running:
        yield running


def test_the_push_service_accepts_a_proper_push(service):
    browser = service.subscribe()
    answer = vapid_push(service, browser, {}, data=json.dumps({"kind": "your_move"}).encode())
    assert answer.status_code == 201 and service.received[0].json == {"kind": "your_move"}


@pytest.mark.parametrize(
    "claims, status",
    [
        ({"aud": "http://127.0.0.1:1"}, 401),  # another origin
        ({"exp": int(time.time()) - 10}, 401),  # expired
        ({"exp": int(time.time()) + 25 * 3600}, 401),  # more than 24 hours
    ],
)
def test_the_push_service_checks_the_jwt_claims(service, claims, status):
    browser = service.subscribe()
    assert vapid_push(service, browser, claims, signer=new_signer(strict=False)).status_code == status
    assert service.received == [] and len(service.refused) == 1


def test_the_push_service_checks_the_signature_and_the_key(service):
    mine, other = new_signer(), new_signer()
    restricted = service.subscribe(server_key=_public(mine))
    assert vapid_push(service, restricted, {}, signer=other).status_code == 403  # not the subscription's key
    assert vapid_push(service, restricted, {}, signer=mine).status_code == 201
    auth = mine.sign({"sub": "mailto:t@ubao.invalid", "aud": service.origin, "exp": int(time.time()) + 600})
    token, key = auth["Authorization"].removeprefix("vapid ").split(",")
    forged = f"vapid {token[:-4]}AAAA,{key}"  # the signature's last bytes changed
    answer = requests.post(restricted.endpoint, data=b"x", headers={"Authorization": forged, "TTL": "60"}, timeout=5)
    assert answer.status_code == 401 and "signature" in answer.text


def test_the_push_service_wants_ttl_and_aes128gcm(service):
    browser = service.subscribe()
    assert vapid_push(service, browser, {}, headers={"Urgency": "soon"}).status_code == 400
    from pywebpush import WebPusher

    signer = new_signer()
    auth = signer.sign({"sub": "mailto:t@ubao.invalid", "aud": service.origin, "exp": int(time.time()) + 600})
    old = WebPusher(browser.info()).send(b"{}", auth, ttl=60, content_encoding="aesgcm", timeout=5)
    assert old.status_code == 415
    assert service.received == []


def _public(signer) -> str:
    from cryptography.hazmat.primitives import serialization

    from local.push_service import b64url

    return b64url(
        signer.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )


# ------------------------------------------------------------------------------------------- texts
@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_every_notification_is_translated(catalogs, lang):
    from notify.domain.texts import MESSAGES, text, translations

    game_title = translations(lang).gettext("Tanzanian draughts")
    assert game_title != "Tanzanian draughts"
    for message in MESSAGES:
        english = text(message, "en", "tanzanian", "Zawadi", "22-18")
        translated = text(message, lang, "tanzanian", "Zawadi", "22-18")
        assert translated.title != english.title, (lang, message)
        assert translated.body != english.body, (lang, message)
        msgid = MESSAGES[message][1]
        assert "%(" not in translated.body
        assert ("Zawadi" in translated.body) == ("%(opponent)s" in msgid), (lang, message)
        assert (game_title in translated.body) == ("%(game)s" in msgid), (lang, message)
        if message == "moved":
            assert "22-18" in translated.body


def test_the_computer_and_a_nameless_opponent(catalogs):
    from notify.domain.texts import text

    assert text("moved", "sw", "chess", None, "e4", computer=True).body.startswith("Kompyuta ")
    assert text("moved", "en", "chess", None, "e4").body == "Your opponent played e4 in Chess."


# ------------------------------------------------------------------------------- what imports what
def test_only_the_notify_and_review_packages_ship_or_import_pywebpush():
    assert "pywebpush" not in (ROOT / "functions" / "requirements.txt").read_text()
    assert "pywebpush" in (ROOT / "functions" / "notify" / "requirements.txt").read_text()
    assert "pywebpush" in (ROOT / "functions" / "review" / "requirements.txt").read_text()  # "review ready"
    assert "pywebpush" in (ROOT / "functions" / "tournaments" / "requirements.txt").read_text()  # tournament pushes
    code = (
        "import sys; sys.path[:0] = ['functions', 'shared_rules/..'];"
        "import games.handler, validate_move.handler, push.handler, api_fallback.handler;"
        "api_fallback.handler.all_routes();"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pywebpush', 'py_vapid', 'http_ece', 'aiohttp')))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("handler", ["games.handler", "validate_move.handler"])
def test_the_games_and_validate_functions_import_no_push_library_after_a_head_write(handler):
    """Their own handler alone, as on Lambda, with the reminder schedule in the games write path."""
    code = (
        "import sys; sys.path[:0] = ['functions'];"
        f"import {handler}, common.persistence.reminder_schedule, games.service.protocol;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pywebpush', 'py_vapid', 'http_ece', 'notify')))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_packaged_template_gives_push_and_notify_their_own_packages():
    from local.package import packaged_template, requirements_of
    from local.template import Template

    resources = packaged_template(Template())["Resources"]
    for name in ("NotifyFunction", "ReminderFunction", "PushFunction", "GamesFunction"):
        assert resources[name]["Properties"]["CodeUri"] == f"functions/{name}/"
    assert any(line.startswith("pywebpush") for line in requirements_of("notify"))
    for package in ("games", "validate_move", "push", "api_fallback"):
        assert not any(line.startswith("pywebpush") for line in requirements_of(package)), package


def test_the_reminder_index_finds_due_heads_and_the_head_moves_on_once(backend):
    import os

    from common.persistence.store import client
    from notify.repository.games import StoredDueGames

    table = os.environ["GAMES_TABLE"]
    hour = 480_000
    due = hour * 3_600_000 + 60_000
    for game_id, reminder in (("g-due", due), ("g-later", due + 120_000)):
        item = {"pk": {"S": game_id}, "sk": {"S": "H"}, "seq": {"N": "7"}, "reminder_due": {"N": str(reminder)},
                "reminder_hour": {"N": str(hour)}}  # fmt: skip
        client().put_item(TableName=table, Item=item)
    client().put_item(TableName=table, Item={"pk": {"S": "g-none"}, "sk": {"S": "H"}, "seq": {"N": "3"}})
    games = StoredDueGames()
    assert games.due(hour, due + 1) == ["g-due"]
    assert games.due(hour - 1, due + 1) == []
    assert games.advance("g-due", seq=6, due=due, next_due=due + 1) is False  # not the head read
    assert games.advance("g-due", seq=7, due=due, next_due=due + 22 * 3_600_000) is True
    assert games.advance("g-due", seq=7, due=due, next_due=None) is False  # moved on already
    assert games.due(hour, due + 1) == []
    assert games.due(hour + 22, due + 22 * 3_600_000) == ["g-due"]
