"""POST/GET/DELETE /v1/players/me/push-subscriptions and GET /v1/push/key, through the handler as API
Gateway calls it, on the template's tables (moto)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from tests.games.client import invoke
from tests.push.conftest import b64, browser_keys

PATH = "/v1/players/me/push-subscriptions"
FCM = "https://fcm.googleapis.com/fcm/send/"


def call(push_api, method, path=PATH, **options):
    return invoke(push_api.app, "PushFunction", method, path, **options)


def body(endpoint: str, **fields) -> dict:
    return {"endpoint": endpoint, "expirationTime": None, "keys": browser_keys(), "lang": "sw", **fields}


def stored_items() -> list[dict]:
    from common.persistence.store import client

    return client().scan(TableName="PushTable")["Items"]


def test_subscribe_list_and_unsubscribe(push_api, new_player, clock):
    _, token = new_player()
    answer = call(push_api, "POST", body=body(FCM + "abc", kinds=["game_over", "your_move"]), token=token)
    assert answer.status == 201, answer.body
    assert answer.body["kinds"] == ["your_move", "game_over"]  # each once, in the API's order
    again = call(push_api, "POST", body=body(FCM + "abc", lang="tl"), token=token)
    assert again.status == 200 and again.body["lang"] == "tl"  # the same endpoint: replaced, not added
    assert again.body["kinds"] == ["your_move", "game_over", "reminder"]  # the default kinds
    listed = call(push_api, "GET", token=token)
    assert listed.status == 200
    assert [item["endpoint"] for item in listed.body["subscriptions"]] == [FCM + "abc"]
    assert "keys" not in listed.text and "p256dh" not in listed.text and "auth" not in listed.body["subscriptions"][0]
    gone = call(push_api, "DELETE", body={"endpoint": FCM + "abc"}, token=token)
    assert gone.status == 200 and gone.body == {"deleted": True}
    assert call(push_api, "DELETE", body={"endpoint": FCM + "abc"}, token=token).body == {"deleted": False}
    assert call(push_api, "GET", token=token).body == {"subscriptions": []}
    assert stored_items() == []


def test_a_player_keeps_the_ten_newest(push_api, new_player, clock):
    _, token = new_player()
    for number in range(12):
        clock.advance(seconds=1)
        assert call(push_api, "POST", body=body(f"{FCM}{number}"), token=token).status == 201
    listed = call(push_api, "GET", token=token).body["subscriptions"]
    assert [item["endpoint"] for item in listed] == [f"{FCM}{number}" for number in range(11, 1, -1)]
    assert len(stored_items()) == 10


def test_players_see_only_their_own(push_api, new_player):
    _, first = new_player("Asha")
    _, second = new_player("Baraka")
    call(push_api, "POST", body=body(FCM + "asha"), token=first)
    assert call(push_api, "GET", token=second).body == {"subscriptions": []}
    assert call(push_api, "DELETE", body={"endpoint": FCM + "asha"}, token=second).body == {"deleted": False}
    assert len(call(push_api, "GET", token=first).body["subscriptions"]) == 1


def test_without_a_token_nothing_is_stored(push_api):
    for method, options in (("POST", {"body": body(FCM + "x")}), ("GET", {}), ("DELETE", {"body": {"endpoint": "x"}})):
        answer = call(push_api, method, **options)
        assert answer.status == 401 and answer.code == "unauthorized"
    assert stored_items() == []


def _not_on_the_curve() -> str:
    point = bytearray(base64.urlsafe_b64decode(browser_keys()["p256dh"] + "=="))
    point[-1] ^= 1  # y changed: (x, y) is no longer on P-256
    return b64(bytes(point))


#: A subscription request's fields changed to a bad value ("_remote": the function is not in local mode).
BAD: dict[str, dict[str, Any]] = {
    "an http endpoint": {"endpoint": "http://fcm.googleapis.com/fcm/send/abc"},
    "an unknown host": {"endpoint": "https://push.example.com/abc"},
    "a look-alike host": {"endpoint": "https://fcm.googleapis.com.evil.example/abc"},
    "a suffix without a dot": {"endpoint": "https://evilpush.apple.com/abc"},
    "a port": {"endpoint": "https://fcm.googleapis.com:8443/abc"},
    "user info": {"endpoint": "https://me@fcm.googleapis.com/abc"},
    "a backslash trick": {"endpoint": "https://fcm.googleapis.com\\@evil.example/abc"},
    "a space": {"endpoint": "https://fcm.googleapis.com/a bc"},
    "a non-ASCII host": {"endpoint": "https://fcm.googleapis.cöm/abc"},
    "a trailing-dot host": {"endpoint": "https://fcm.googleapis.com./abc"},
    "a local endpoint when not local": {"endpoint": "http://127.0.0.1:8080/push/abc", "_remote": True},
    "over 1 KB": {"endpoint": FCM + "a" * 1000},
    "a key off the curve": {"keys": "off-curve"},
    "a compressed key": {"keys": {"p256dh": b64(b"\x02" + bytes(32))}},
    "a key that is not base64url": {"keys": {"p256dh": "BAD+/key"}},
    "an auth of 15 bytes": {"keys": {"auth": b64(bytes(15))}},
    "an auth of 17 bytes": {"keys": {"auth": b64(bytes(17))}},
    "an unknown language": {"lang": "fr"},
    "no language": {"lang": None},
    "an unknown kind": {"kinds": ["your_move", "chat"]},
    "no kinds": {"kinds": []},
    "an unknown field": {"colour": "blue"},
    "a negative expiration": {"expirationTime": -1},
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_bad_subscription_is_422_and_writes_nothing(push_api, new_player, monkeypatch, case):
    _, token = new_player()
    change = dict(BAD[case])
    field = next(name for name in change if not name.startswith("_"))
    if change.pop("_remote", False):
        monkeypatch.delenv("PUSH_LOCAL_MODE")
    request = body(FCM + "abc")
    keys = change.pop("keys", None)
    if keys == "off-curve":
        request["keys"]["p256dh"] = _not_on_the_curve()
    elif keys:
        request["keys"].update(keys)
    request.update(change)
    if request.get("lang") is None:
        del request["lang"]
    answer = call(push_api, "POST", body=request, token=token)
    assert answer.status == 422 and answer.code == "invalid_request", answer.body
    assert answer.body["error"]["message"].startswith(field), answer.body  # the message names the field
    assert stored_items() == []


@pytest.mark.parametrize(
    "endpoint",
    [
        FCM + "dGVzdA:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGx",
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAA",
    ],
)
def test_every_known_push_service_is_accepted(push_api, new_player, endpoint):
    _, token = new_player()
    assert call(push_api, "POST", body=body(endpoint), token=token).status == 201


def test_local_endpoints_only_in_local_mode(push_api, new_player, monkeypatch):
    _, token = new_player()
    local = "http://127.0.0.1:54321/push/abc"
    assert call(push_api, "POST", body=body(local), token=token).status == 201
    monkeypatch.delenv("PUSH_LOCAL_MODE")
    assert call(push_api, "POST", body=body(local + "2"), token=token).status == 422
    for other in ("http://localhost:54321/push/x", "http://127.0.0.2:54321/x", "http://127.0.0.1/x"):
        monkeypatch.setenv("PUSH_LOCAL_MODE", "1")
        assert call(push_api, "POST", body=body(other), token=token).status == 422, other


def test_the_vapid_key_is_made_once_and_served(push_api, tmp_path):
    from cryptography.hazmat.primitives.asymmetric import ec

    first = call(push_api, "GET", "/v1/push/key")
    assert first.status == 200 and "max-age" in first.headers["cache-control"]
    raw = base64.urlsafe_b64decode(first.body["public_key"] + "==")
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)  # a valid point
    assert (tmp_path / "vapid.json").is_file()
    from push import vapid

    vapid._cached.cache_clear()  # a new instance reads the same file
    assert call(push_api, "GET", "/v1/push/key").body == first.body


def test_the_deployed_key_comes_from_the_secret(aws, monkeypatch):
    import boto3
    from push import vapid

    monkeypatch.delenv("PUSH_LOCAL_MODE")
    arn = boto3.client("secretsmanager").create_secret(Name="vapid", SecretString="s" * 64)["ARN"]
    monkeypatch.setenv("VAPID_SECRET_ARN", arn)
    vapid._cached.cache_clear()
    key = vapid.vapid_key()
    assert key.public_key == vapid.key_from_seed("s" * 64).public_key
    assert key.public_key != vapid.key_from_seed("t" * 64).public_key
    monkeypatch.setenv("VAPID_SECRET_ARN", "VapidSecret")  # what the local runner resolves !Ref VapidSecret to
    vapid._cached.cache_clear()
    with pytest.raises(vapid.VapidNotConfigured):
        vapid.vapid_key()
    from push import handler

    answer = invoke(handler.app, "PushFunction", "GET", "/v1/push/key")
    assert answer.status == 503 and answer.code == "push_not_configured"
    vapid._cached.cache_clear()


def _public_key_of(path: str) -> str:
    from push import vapid

    return vapid.local_key(Path(path)).public_key


def test_instances_starting_at_once_all_read_one_whole_key(tmp_path):
    """A fresh checkout: every function instance starts at once and none finds the key file half-written."""
    import multiprocessing

    path = tmp_path / "fresh" / "vapid.json"
    with multiprocessing.get_context("spawn").Pool(8) as pool:
        keys = pool.map(_public_key_of, [str(path)] * 64)
    assert len(set(keys)) == 1  # the first written is everyone's
    assert sorted(p.name for p in path.parent.iterdir()) == ["vapid.json"]  # no draft left behind
    assert oct(path.stat().st_mode & 0o777) == "0o600"
