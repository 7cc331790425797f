"""Offline first in Chromium: installable, pages read offline, the indicator, API answers marked.

``context.set_offline(True)`` cuts the page and its service worker off the network (Chromium's network
emulation), as a phone losing its signal does.
"""

from __future__ import annotations

import time

import pytest

from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, LocalSite, controlled, http, page_token
from tests.browser.offline_pages import outbox, saved, until, wait_on_fake_time
from tests.checks import known
from tests.site.conftest import build_site


def test_installable_in_every_language(server, browser, tmp_path):
    # Chromium refuses to install from an incognito profile, so this one test uses a profile on disk.
    playwright = browser.browser_type
    context = playwright.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        bypass_csp=True,  # wait_for_function evaluates with eval, which the site's CSP forbids
    )
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        for lang in build_site.LANGS:
            page.goto(f"{server.origin}/{lang}/sheria/")
            controlled(page)
            deadline = time.monotonic() + 10
            while True:
                errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
                manifest = cdp.send("Page.getAppManifest")
                if not errors or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert errors == [], (lang, errors)
            assert manifest["url"].endswith(f"/{lang}/manifest.webmanifest") and not manifest["errors"]
    finally:
        context.close()


def test_visited_rules_page_and_lesson_open_offline_with_their_content(contexts):
    context = contexts.new()
    page = context.new_page()
    page.goto("/sw/sheria/chess/")  # the first visit installs the worker, which then keeps this page too
    controlled(page)
    saved(page, "/sw/sheria/chess/")
    rules_heading = page.locator("h1").inner_text()
    castling = page.locator("#castling").inner_text()
    page.goto("/sw/jifunze/english/")
    saved(page, "/sw/jifunze/english/")
    lesson_heading = page.locator("h1").inner_text()

    context.set_offline(True)
    page.goto("/sw/sheria/chess/")
    assert page.locator("h1").inner_text() == rules_heading
    assert page.locator("#castling").inner_text() == castling
    page.reload()
    assert page.locator("h1").inner_text() == rules_heading
    page.goto("/sw/jifunze/english/")
    assert page.locator("h1").inner_text() == lesson_heading
    assert page.locator("details").count() > 0  # the exercises with their answers
    assert page.locator("link[rel=stylesheet]").evaluate("l => l.sheet.cssRules.length") > 10  # the shell's CSS

    # A page never opened: the offline page of its language, with links to what is kept.
    page.goto("/sw/sheria/tanzanian/")
    assert page.locator("h1").inner_text() == build_site.translations("sw").gettext("You are offline")
    context.set_offline(False)


def test_save_all_lessons_for_offline_keeps_every_rules_and_lesson_page_of_the_language(contexts):
    context = contexts.new()
    page = context.new_page()
    page.goto("/tl/jifunze/")
    controlled(page)
    button = page.locator("#save-offline")
    t = build_site.translations("tl")
    assert button.inner_text() == t.gettext("Save all lessons for offline")
    button.click()
    status = page.locator("#save-offline-status")
    status.filter(
        has_text=t.gettext("Saved: the rules and lessons of every game open without a connection.")
    ).wait_for()

    context.set_offline(True)
    for game in build_site.GAMES:
        for section in ("sheria", "jifunze"):
            page.goto(f"/tl/{section}/{game}/")
            assert page.locator("h1").inner_text() != t.gettext("You are offline"), (section, game)
            assert page.locator("main section, main details, main h2").count() > 3, (section, game)
    page.goto("/sw/sheria/chess/")  # another language was not asked for
    assert page.locator("h1").inner_text() == build_site.translations("sw").gettext("You are offline")
    context.set_offline(False)


@pytest.mark.parametrize(("lang", "path"), [("tl", "fumbo"), ("sw", "mchezo"), ("en", "fumbo")])
def test_offline_indicator_appears_and_disappears_in_the_page_language(contexts, lang, path):
    context = contexts.new()
    page = context.new_page()
    page.goto(f"/{lang}/{path}/")
    note = page.locator("#offline-note")
    text = build_site.translations(lang).gettext(
        "You are offline. What you do now is kept on this phone and sent when you are back online."
    )
    assert note.is_hidden()
    context.set_offline(True)
    note.wait_for(state="visible")
    assert note.inner_text() == text
    context.set_offline(False)
    note.wait_for(state="hidden")


def test_rules_pages_have_no_offline_indicator(contexts):
    page = contexts.new_page()
    page.goto("/en/sheria/chess/")
    assert page.locator("#offline-note").count() == 0


def test_an_api_answer_from_the_cache_is_marked_as_not_fresh(contexts):
    context = contexts.new()
    page = context.new_page()
    page.goto("/en/fumbo/")
    controlled(page)
    # `no-cache`: the daily puzzle may be kept fresh by the browser's HTTP cache until midnight (its
    # Cache-Control says so); here the request must reach the network, as game state always does.
    read = """path => fetch(path, {cache: 'no-cache'}).then(async r => ({status: r.status, offline: r.headers.get('x-ubao-offline'),
                                                   body: await r.json()}))"""
    fresh = page.evaluate(read, "/v1/puzzles/daily?game=chess")
    assert fresh["status"] == 200 and fresh["offline"] is None
    context.set_offline(True)
    stale = page.evaluate(read, "/v1/puzzles/daily?game=chess")
    assert stale["offline"] == "1" and stale["body"]["id"] == fresh["body"]["id"]
    never_fetched = page.evaluate(
        "fetch('/v1/puzzles/daily?game=english', {cache: 'no-cache'}).then(() => 'answered', () => 'failed')"
    )
    assert never_fetched == "failed"  # nothing cached: a network error, never an invented answer
    context.set_offline(False)
    again = page.evaluate(read, "/v1/puzzles/daily?game=chess")
    assert again["offline"] is None


def test_a_new_build_replaces_the_shell_and_saved_pages_keep_their_style_offline(browser, tmp_path):
    # Its own server: this test deploys a new build over the old one, as `aws s3 sync` does.
    with LocalSite(workdir=tmp_path, with_dynamodb=False) as site:
        context = browser.new_context(base_url=site.origin, bypass_csp=True)  # for wait_for_function
        try:
            page = context.new_page()
            page.goto("/en/sheria/chess/")
            controlled(page)
            saved(page, "/en/sheria/chess/")
            shells = "caches.keys().then(k => k.filter(n => n.startsWith('ubao-shell-')))"
            (old_shell,) = page.evaluate(shells)

            new_version = _deploy_new_stylesheet(site.site_dir)
            page.reload()
            until(
                page,
                "version => caches.keys().then(k => k.includes('ubao-shell-' + version) && "
                "k.filter(n => n.startsWith('ubao-shell-')).length === 1)",
                new_version,
            )
            page.wait_for_timeout(500)  # the worker's activation finishes moving the old files
            context.set_offline(True)
            page.reload()
            assert page.locator("link[rel=stylesheet]").evaluate("l => l.sheet.cssRules.length") > 10
            assert old_shell not in page.evaluate("caches.keys()")
        finally:
            context.close()


def _deploy_new_stylesheet(site_dir) -> str:
    """A new build with a changed stylesheet: a new hashed name in every page and in the worker's shell."""
    import hashlib
    import re

    (old,) = (site_dir / "static").glob("style.*.css")
    content = old.read_bytes() + b"\n/* a new build */\n"
    new_name = f"style.{hashlib.sha256(content).hexdigest()[:10]}.css"
    (site_dir / "static" / new_name).write_bytes(content)
    for html in site_dir.rglob("index.html"):
        html.write_text(html.read_text().replace(old.name, new_name))
    worker = site_dir / "sw.js"
    text = worker.read_text().replace(old.name, new_name)
    new_version = hashlib.sha256(new_name.encode()).hexdigest()[:10]
    worker.write_text(re.sub(r'"version":"[0-9a-f]{10}"', f'"version":"{new_version}"', text, count=1))
    return new_version


def test_a_move_made_offline_is_sent_on_reconnect_and_a_stale_one_shows_the_game_now(contexts, server, needs_dynamodb):
    from tests.browser.boards import after, expected_pieces
    from tests.browser.test_mchezo import START, Player

    start = START["chess"]

    asha, ben = Player(contexts, "sw"), Player(contexts, "en")
    link = asha.create("chess", "white")
    ben.join(link)
    wait_on_fake_time(asha, None)  # Asha's page sees that Ben joined: her move form shows
    game_id = asha.page.url.split("#game=")[1].split("&")[0]

    asha.page.context.set_offline(True)
    asha.move("chess", start, "e4")
    queued = asha.page.locator("#offline-messages").get_attribute("data-move-queued")
    asha.status.filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    asha.page.context.set_offline(False)  # the `online` event sends it
    sent = asha.page.locator("#offline-messages").get_attribute("data-move-sent")
    asha.status.filter(has_text=sent.split("%(move)s")[0].strip()).wait_for()
    wait_on_fake_time(ben, expected_pieces("chess", after("chess", start, "e4")))

    # Ben moves offline; meanwhile the game goes on without that move (his other phone plays d5).
    ben.page.context.set_offline(True)
    ben.board.click("e7", "e5")
    ben.status.filter(has_text="sent when you are online").wait_for()
    token = page_token(ben.page)
    assert http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "d5", "ply": 1}, token)["ply"] == 2
    ben.page.context.set_offline(False)
    ben.status.filter(has_text="your opponent moved first").wait_for()
    # The game now, on both boards (the move list's layout is the game page's business).
    now = expected_pieces("chess", after("chess", start, "e4", "d5"))
    ben.board.wait_for_pieces(now, timeout=5_000)
    wait_on_fake_time(asha, now)


def test_a_puzzle_move_made_offline_is_checked_by_the_server_after_reconnecting(contexts, server, needs_dynamodb):
    from tests.browser.boards import page_config
    from tests.browser.test_fumbo import clicks_for, daily_puzzle_shown

    game = "english"
    context = contexts.new()
    page = context.new_page()
    puzzle, board, wrong = daily_puzzle_shown(page, "tl", game)
    section = page.locator(f"#puzzle-{game}")

    context.set_offline(True)
    board.click(*known(clicks_for(game, puzzle["fen"], wrong)))
    queued = page.locator("#offline-messages").get_attribute("data-attempt-queued")
    section.locator(".status").filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    (kept,) = outbox(page, "attempts")  # kept, not lost; no player yet, so no token for the worker
    assert (kept["id"], kept["moves"], kept["token"], kept["outcome"]) == (puzzle["id"], [wrong], None, None)
    assert page.evaluate("localStorage.getItem('ubao.player')") is None  # the server has not seen it yet

    with page.expect_response(lambda r: "/attempt?tz=" in r.url) as attempt:
        context.set_offline(False)  # the `online` event sends it
    assert attempt.value.json()["result"] == "failed"  # the server is the judge, after reconnecting
    section.locator(".status").filter(has_text=page_config(page)["fumbo"]["puzzle_missed"]).wait_for()
    token = page_token(page)
    progress = page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()
    assert progress["failed"] == 1 and progress["solved"] == 0
    page.locator("#progress").wait_for(state="visible")
    assert outbox(page, "attempts") == []


# ------------------------------------------------------------------ Background Sync: the worker sends, page closed
