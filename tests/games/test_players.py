"""Players: POST /v1/players and PATCH /v1/players/me, tokens and display names."""

from __future__ import annotations

import hashlib
import re
import unicodedata

import pytest
from common.players.service import InvalidName, clean_name, token_matches

from tests.games.client import snapshot


def test_a_new_player_gets_a_strong_token_shown_once(api):
    answer = api.call("POST", "/v1/players", {"name": "  Asha   Juma "})
    assert answer.status == 201 and answer.headers["cache-control"] == "no-store"
    body = answer.body
    assert set(body) == {"player_id", "token", "name"} and body["name"] == "Asha Juma"
    assert re.fullmatch(r"ubao_[A-Za-z0-9_-]{43}", body["token"])  # 32 random bytes: 256 bits
    tables = snapshot()
    [stored] = tables["PlayersTable"]
    assert stored["token_hash"] == hashlib.sha256(body["token"].encode()).hexdigest()
    assert body["token"] not in repr(tables) and body["token"][5:] not in repr(tables)  # only the hash is kept


def test_a_player_needs_no_name_and_no_body(api):
    assert api.call("POST", "/v1/players").body["name"] is None
    assert api.call("POST", "/v1/players", {}).body["name"] is None
    first, second = api.new_player(), api.new_player()
    assert first["player_id"] != second["player_id"] and first["token"] != second["token"]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "invalid_name"),
        ("   ", "invalid_name"),
        ("x" * 25, "invalid_name"),
        ("<script>", "invalid_name"),
        ("a\nb", "invalid_name"),
        ("emoji 🙂", "invalid_name"),
        ("x" * 101, "invalid_request"),
        (7, "invalid_request"),
    ],
)
def test_bad_names_are_refused_and_nothing_is_written(api, name, code):
    before = snapshot()
    answer = api.call("POST", "/v1/players", {"name": name})
    assert answer.status == 422 and answer.code == code, answer.body
    assert snapshot() == before


def test_names_in_any_script():
    assert clean_name("Ñino O'Brien-Saka") == "Ñino O'Brien-Saka"
    assert clean_name("Mwanaidi_2") == "Mwanaidi_2"
    assert clean_name("Maria\u0301") == "Mariá"  # NFC: one character, as typed on another keyboard
    with pytest.raises(InvalidName):
        clean_name("a\u200bb")  # invisible characters hide impersonation


def test_rename_and_remove_the_name(api):
    player = api.new_player("Asha")
    renamed = api.call("PATCH", "/v1/players/me", {"name": "Asha J."}, token=player["token"])
    unknown = {"country": None, "country_hidden": False}  # no CloudFront header: no country
    assert renamed.status == 200 and renamed.body == {"player_id": player["player_id"], "name": "Asha J.", **unknown}
    removed = api.call("PATCH", "/v1/players/me", {"name": None}, token=player["token"])
    assert removed.body == {"player_id": player["player_id"], "name": None, **unknown}


def test_rename_refusals_write_nothing(api):
    player = api.new_player("Asha")
    before = snapshot()
    for token in (None, "", "ubao_" + "A" * 43, "not-a-token", player["token"] + "x"):
        headers = {"authorization": f"Bearer {token}"} if token is not None else {}
        answer = api.call("PATCH", "/v1/players/me", {"name": "Mallory"}, headers=headers)
        assert answer.status == 401 and answer.code == "unauthorized", (token, answer.body)
        assert answer.headers["www-authenticate"] == 'Bearer realm="ubao"'
    basic = api.call("PATCH", "/v1/players/me", {"name": "Mallory"}, headers={"authorization": "Basic abc"})
    assert basic.status == 401
    assert api.call("PATCH", "/v1/players/me", {}, token=player["token"]).code == "invalid_request"
    assert api.call("PATCH", "/v1/players/me", {"name": "<b>"}, token=player["token"]).code == "invalid_name"
    assert snapshot() == before


def test_token_comparison():
    digest = hashlib.sha256(b"x").hexdigest()
    assert token_matches(digest, digest) and token_matches(digest, bytes.fromhex(digest))
    assert not token_matches(digest, None) and not token_matches(digest, "0" * 64)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u3164\u3164", "invisible"),  # the Hangul filler: a blank name that looks like none
        ("As\u3164ha", "invisible"),
        ("\u0301Asha", "mark"),  # a lone combining mark
        ("Asha \u0301", "mark"),
        ("Asha\u0316\u0317\u0318\u0319", "marks"),  # Zalgo: four marks on one letter
        ("\U00012000" * 9, "columns"),  # cuneiform signs: drawn wide, they overflowed a 360 px leaderboard
        ("\u4e00" * 13, "columns"),  # 13 wide letters: 26 columns
        ("Computer level 5", "computer"),
        ("COMPUTER", "computer"),
        ("Kompyuta 3", "computer"),
        ("\u0410sha", "scripts"),  # a Cyrillic А beside Latin letters: the look-alike of "Asha"
        ("P\u0430ul", "scripts"),
    ],
)
def test_names_a_person_cannot_read_are_refused(name, why):
    """The attacks of issue 39 on names (docs/games.md, "Fair play"): each is refused, with its reason."""
    with pytest.raises(InvalidName) as refused:
        clean_name(name)
    assert why in str(refused.value) or why == "computer" and "computer" in str(refused.value)


def test_names_in_every_script_in_use_are_kept_and_folded_to_nfkc():
    assert clean_name("\uff21\uff53\uff48\uff41") == "Asha"  # full-width letters fold to Latin
    for name in ("Mwanaidi", "Tiếng Việt", "สมชาย", "नमस्ते", "Олена", "Ελένη", "李小龍", "Jośé Mari"):
        assert clean_name(name) == unicodedata.normalize("NFKC", name)
    assert clean_name("\u4e00" * 12) == "\u4e00" * 12  # 12 wide letters: 24 columns, the widest


@pytest.mark.parametrize(("header", "kept"), [("TZ", "TZ"), ("PH", "PH"), ("tz", None), ("TZA", None), ("", None)])
def test_the_country_is_cloudfronts_viewer_country_at_creation(api, header, kept):
    made = api.call("POST", "/v1/players", {"name": "Asha"}, headers={"CloudFront-Viewer-Country": header})
    assert made.status == 201 and "country" not in made.body
    [stored] = snapshot()["PlayersTable"]
    assert stored.get("country") == kept
    mine = api.call("GET", "/v1/players/me", token=made.body["token"]).body
    assert (mine["country"], mine["country_hidden"]) == (kept, False)


def test_a_player_hides_the_country_and_shows_it_again_and_a_rename_keeps_the_choice(api):
    token = api.call("POST", "/v1/players", headers={"CloudFront-Viewer-Country": "KE"}).body["token"]
    hidden = api.call("PATCH", "/v1/players/me", {"country_hidden": True}, token=token)
    assert hidden.status == 200 and (hidden.body["country"], hidden.body["country_hidden"]) == ("KE", True)
    renamed = api.call("PATCH", "/v1/players/me", {"name": "Baraka"}, token=token).body
    assert renamed["name"] == "Baraka" and renamed["country_hidden"] is True
    both = api.call("PATCH", "/v1/players/me", {"name": None, "country_hidden": False}, token=token).body
    assert (both["name"], both["country"], both["country_hidden"]) == (None, "KE", False)
    before = snapshot()
    for refused in ({"country_hidden": "yes"}, {"country_hidden": 1}, {"country": "TZ"}):
        assert api.call("PATCH", "/v1/players/me", refused, token=token).code == "invalid_request", refused
    assert snapshot() == before


def test_a_country_never_leaves_the_server_in_what_others_read(api):
    asha = api.call("POST", "/v1/players", {"name": "Asha"}, headers={"CloudFront-Viewer-Country": "TZ"}).body
    baraka = api.new_player("Baraka")
    api.call("PATCH", "/v1/players/me", {"country_hidden": True}, token=asha["token"])
    created = api.call("POST", "/v1/games", {"game": "chess", "color": "white"}, token=asha["token"]).body
    game_id = created["game"]["id"]
    api.call("POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, token=baraka["token"])
    api.call("POST", f"/v1/games/{game_id}/moves", {"move": "e4", "ply": 0}, token=asha["token"])
    public = [
        api.call("GET", f"/v1/players/{asha['player_id']}"),
        api.call("GET", f"/v1/players/{asha['player_id']}/games"),
        api.call("GET", f"/v1/games/{game_id}", token=baraka["token"]),
        api.call("GET", "/v1/games/live", query={"game": "chess"}),
        api.call("GET", "/v1/leaderboard", query={"game": "chess"}),
    ]
    for answer in public:
        assert answer.status == 200, answer.body
        assert '"TZ"' not in answer.text and '"country_hidden' not in answer.text, answer.text
    scoped = api.call("GET", "/v1/leaderboard", query={"game": "chess", "country": "TZ"})  # echoes the scope asked
    assert scoped.body["players"] == [] and "country_hidden" not in scoped.text


def test_the_profile_shows_the_country_until_the_player_hides_it(api):
    asha = api.call("POST", "/v1/players", {"name": "Asha"}, headers={"CloudFront-Viewer-Country": "KE"}).body
    baraka = api.new_player("Baraka")
    created = api.call("POST", "/v1/games", {"game": "chess", "color": "white"}, token=asha["token"]).body
    game_id = created["game"]["id"]
    api.call("POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, token=baraka["token"])
    profile = api.call("GET", f"/v1/players/{asha['player_id']}")
    assert profile.status == 200 and profile.body["country"] == "KE"
    assert api.call("GET", f"/v1/players/{baraka['player_id']}").body["country"] is None  # no header: unknown
    api.call("PATCH", "/v1/players/me", {"country_hidden": True}, token=asha["token"])
    assert api.call("GET", f"/v1/players/{asha['player_id']}").body["country"] is None
    assert '"KE"' not in repr(snapshot()["RatingsTable"])  # hidden: kept on the player item alone
    api.call("PATCH", "/v1/players/me", {"country_hidden": False}, token=asha["token"])
    assert api.call("GET", f"/v1/players/{asha['player_id']}").body["country"] == "KE"
