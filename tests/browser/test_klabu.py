"""Invites that travel, on phones (360x740). Asha makes a Tanzanian draughts club on her phone in Swahili, its
invite goes by WhatsApp in Swahili and as a QR code that decodes (jsQR, npm, reading a screenshot of the drawn
code) to the invite link; Chausiku, on a phone in Tagalog, types the code and joins, and sees the club's
leaderboard (Baraka, who beat Asha in a rated game, first) with the page's own words, and makes a league for the
members from the club's page. A game's invite and a
private tournament's carry a QR code of their link and a WhatsApp message in the page's language too."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from tests.browser.harness import build_site_module, http
from tests.browser.test_vinara import won_game

PHONE = {"width": 360, "height": 740}
JSQR = Path(__file__).resolve().parents[2] / "node_modules" / "jsqr" / "dist" / "jsQR.js"
DECODE = """async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  const found = jsQR(pixels.data, canvas.width, canvas.height);
  return found ? found.data : null;
}"""


def texts(lang: str):
    build_site_module()  # puts site/ on the path
    import catalogs

    return catalogs.translations(lang).gettext


def phone(contexts, who: dict, path: str, script: str = ""):
    page = contexts.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    kept = {"player_id": who["player_id"], "token": who["token"]}
    page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(json.dumps(kept))}); {script}")
    page.goto(path)
    return page


def test_a_club_made_shared_by_qr_code_and_joined_by_its_code(contexts, needs_dynamodb, server):
    sw, tl = texts("sw"), texts("tl")
    asha, baraka, chausiku = (
        http(server.origin, "POST", "/v1/players", {"name": n}) for n in ("Asha", "Baraka", "Chausiku")
    )
    won_game(server, baraka, asha)  # a rated Tanzanian game: both have a rating, Baraka the higher
    maker = phone(contexts, asha, "/sw/jamii/klabu/")
    maker.fill("#club-name", "Simba")
    maker.select_option("#club-game", "tanzanian")
    maker.locator(".new-club button").tap()
    maker.locator(".member-part").wait_for(state="visible")
    link = maker.locator(".invite-link").input_value()
    invite = link.split("#", 1)[1]
    assert link.startswith(server.origin + "/sw/jamii/klabu/#") and len(invite) == 13
    whatsapp = maker.locator(".invite-share .whatsapp").get_attribute("href") or ""
    message = sw("Join my club {name} on ubao: {link}").format(name="Simba", link=link)
    assert whatsapp == "https://wa.me/?text=" + _quoted(message) and message.startswith("Jiunge")
    maker.locator(".show-qr").tap()
    assert decoded(maker, maker.locator(".invite-qr .qr")) == link
    http(server.origin, "POST", f"/v1/clubs/{invite[:6]}/join", {"code": invite[7:]}, token=baraka["token"])

    third = phone(contexts, chausiku, "/tl/jamii/klabu/")
    third.locator(".clubs-home .club-list li").wait_for()
    assert third.locator(".club-list li").inner_text() == tl(
        "You are in no club yet: join one with its code, or make one."
    )
    third.fill("#club-code", invite.lower().replace("-", " "))  # as a friend reads it out
    third.locator(".join-club button").tap()
    third.locator(".club-board tbody tr").nth(1).wait_for()
    assert third.locator(".status").inner_text() == tl("You joined {name}.").format(name="Simba")
    rows = [row.split("\t") for row in third.locator(".club-board tbody tr").all_inner_texts()]
    assert [row[1] for row in rows] == ["Baraka", "Asha"] and rows[0][2] > rows[1][2]
    headings = third.locator(".club-board thead th").all_inner_texts()
    assert headings[1:] == [tl("Player"), tl("Rating"), tl("Games")]
    assert third.locator(".club-terms").inner_text().endswith(tl("Members: {n}").format(n=3))
    assert third.locator(".club-members li").count() == 3
    third.locator(".club-league").tap()  # a league for the members, made from the club's page
    third.wait_for_url("**/tl/mashindano/?club=*")
    third.select_option("#league-game", "tanzanian")
    third.locator(".new-league button[type=submit]").tap()
    third.locator("#tournaments .one-view").wait_for(state="visible")
    third.goto(f"/tl/jamii/klabu/#{invite[:6]}")
    third.locator(".club-tournaments li a").wait_for()
    assert third.locator(".club-tournaments li").all_inner_texts() == [tl("Tanzanian draughts")]
    assert not contexts.problems, contexts.problems


def test_a_game_and_a_tournament_invite_carry_their_qr_code(contexts, needs_dynamodb, server):
    sw, tl = texts("sw"), texts("tl")
    juma = http(server.origin, "POST", "/v1/players", {"name": "Juma"})
    game = http(server.origin, "POST", "/v1/games", {"game": "english", "color": "white"}, juma["token"])
    kept = json.dumps(json.dumps({game["game"]["id"]: game["invite"]["url"]}))  # as the page keeps the invites it made
    table = phone(
        contexts, juma, f"/tl/mchezo/#game={game['game']['id']}", f"localStorage.setItem('ubao.invites', {kept})"
    )
    table.locator("#qr-invite").wait_for(state="visible")
    link = table.locator("#invite-link").input_value()
    table.locator("#qr-invite").tap()
    assert decoded(table, table.locator(".invite .invite-qr .qr")) == link
    table.locator("#whatsapp-invite").focus()
    whatsapp = table.locator("#whatsapp-invite").get_attribute("href") or ""
    message = tl("Play %(game)s with me on ubao") % {"game": tl("English draughts")} + ": " + link
    assert whatsapp == "https://wa.me/?text=" + _quoted(message)
    league = http(
        server.origin,
        "POST",
        "/v1/tournaments",
        {"format": "league", "game": "chess", "players": 3, "name": "Kombe"},
        juma["token"],
    )
    tournament_id, code = league["tournament"]["id"], league["invite"]["code"]
    board = phone(contexts, juma, f"/sw/mashindano/?id={tournament_id}#invite={code}")
    board.locator("#tournaments .show-qr").wait_for(state="visible")
    link = board.locator("#tournaments .invite-link").input_value()
    assert link.endswith(f"?id={tournament_id}#invite={code}")
    message = sw("Join my tournament {name} on ubao: {link}").format(name="Kombe", link=link)
    assert board.locator("#tournaments .whatsapp").get_attribute("href") == "https://wa.me/?text=" + _quoted(message)
    board.locator("#tournaments .show-qr").tap()
    assert decoded(board, board.locator("#tournaments .invite-qr .qr")) == link
    assert not contexts.problems, contexts.problems


def decoded(page, drawn) -> str | None:
    """What jsQR reads in a screenshot of the drawn QR code (as a phone's camera would see the screen)."""
    drawn.locator("svg").wait_for(state="visible")
    box = drawn.locator("svg").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360 and box["width"] >= 150
    page.add_script_tag(path=str(JSQR))
    return page.evaluate(DECODE, base64.b64encode(drawn.screenshot()).decode())


def _quoted(message: str) -> str:
    """As ``encodeURIComponent`` writes it."""
    from urllib.parse import quote

    return quote(message, safe="-_.!~*'()")
