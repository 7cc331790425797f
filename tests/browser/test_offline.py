"""Offline first (issue 12) in Chromium: installable, pages read offline, the indicator, API answers marked.

``context.set_offline(True)`` cuts the page and its service worker off the network (Chromium's network
emulation), as a phone losing its signal does.
"""

from __future__ import annotations

import time

import pytest

from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, LocalSite, controlled, http, page_token
from tests.site.conftest import build_site

WORKER_READY = "navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)"


def until(page, expression: str, arg=None, timeout: float = 20.0) -> None:
    """Poll an async ``expression`` (``wait_for_function`` does not wait for a promise to resolve)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        assert time.monotonic() < deadline, f"still false after {timeout}s: {expression}"
        time.sleep(0.1)


def saved(page, path: str) -> None:
    until(
        page,
        "path => caches.open('ubao-pages').then(c => c.match(new URL(path, location.href).href)).then(r => !!r)",
        path,
    )


#: The records kept offline (site/static/outbox.js): the IndexedDB store ``store`` as a list.
READ_OUTBOX = """store => new Promise((resolve, reject) => {
  const opening = indexedDB.open('ubao-outbox', 1);
  opening.onupgradeneeded = () => ['moves', 'attempts'].forEach(s => opening.result.createObjectStore(s, {keyPath: 'id'}));
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const request = opening.result.transaction(store).objectStore(store).getAll();
    request.onsuccess = () => { opening.result.close(); resolve(request.result); };
    request.onerror = () => reject(request.error);
  };
})"""


def outbox(page, store: str) -> list[dict]:
    return page.evaluate(READ_OUTBOX, store)


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


def _wait_on_fake_time(player, expected: dict[str, str] | None, seconds: int = 15) -> None:
    """Move the page's fake clock a second at a time until its board shows ``expected`` (None: until the move
    form shows, as on the player's turn): its polls (and a poll's backoff after an answer that crossed a
    change on the wire) and its board's animations all run on that clock."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    def shown(timeout: float) -> None:
        if expected is None:
            player.page.locator("#game .move-form").wait_for(state="visible", timeout=timeout)
        else:
            player.board.wait_for_pieces(expected, timeout=timeout)

    for _ in range(seconds):
        player.page.clock.fast_forward(1_000)
        try:
            return shown(1_000)
        except PlaywrightTimeoutError:
            continue
    shown(1_000)


def test_a_move_made_offline_is_sent_on_reconnect_and_a_stale_one_shows_the_game_now(contexts, server, needs_dynamodb):
    from tests.browser.boards import after, expected_pieces
    from tests.browser.test_mchezo import START, Player

    start = START["chess"]

    asha, ben = Player(contexts, "sw"), Player(contexts, "en")
    link = asha.create("chess", "white")
    ben.join(link)
    _wait_on_fake_time(asha, None)  # Asha's page sees that Ben joined: her move form shows
    game_id = asha.page.url.split("#game=")[1].split("&")[0]

    asha.page.context.set_offline(True)
    asha.move("chess", start, "e4")
    queued = asha.page.locator("#offline-messages").get_attribute("data-move-queued")
    asha.status.filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    asha.page.context.set_offline(False)  # the `online` event sends it
    sent = asha.page.locator("#offline-messages").get_attribute("data-move-sent")
    asha.status.filter(has_text=sent.split("%(move)s")[0].strip()).wait_for()
    _wait_on_fake_time(ben, expected_pieces("chess", after("chess", start, "e4")))

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
    _wait_on_fake_time(asha, now)


def test_a_puzzle_move_made_offline_is_checked_by_the_server_after_reconnecting(contexts, server, needs_dynamodb):
    from puzzles.catalog import find
    from tests.browser.boards import BoardView, expected_pieces, page_config
    from tests.browser.test_fumbo import clicks_for, wrong_first_move

    game = "english"
    context = contexts.new()
    page = context.new_page()
    with page.expect_response(lambda r: f"/v1/puzzles/daily?game={game}" in r.url) as daily:
        page.goto("/tl/fumbo/")
    puzzle = daily.value.json()
    section = page.locator(f"#puzzle-{game}")
    board = BoardView(section.locator(".board-host"))
    board.wait_for_pieces(expected_pieces(game, puzzle["fen"]))
    wrong = wrong_first_move(find(puzzle["id"]))

    context.set_offline(True)
    board.click(*clicks_for(game, puzzle["fen"], wrong))
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


def sent_by_the_worker(context, store: str, outcome: dict) -> None:
    """With no game or puzzle page open, wait until the service worker has sent the kept record and written
    what the server said on it (a page of the same origin that does not touch the outbox reads it)."""
    reader = context.new_page()
    reader.goto("/en/sheria/")
    deadline = time.monotonic() + 30
    while [record["outcome"] for record in outbox(reader, store)] != [outcome]:
        assert time.monotonic() < deadline, outbox(reader, store)
        time.sleep(0.2)
    reader.close()


def with_background_sync(player):
    """The test's Player grants the clipboard, and Chromium then refuses every permission not granted (the
    page falls back to the `online` event then, as the two tests above show): grant Background Sync too."""
    player.page.context.grant_permissions(["clipboard-read", "clipboard-write", "background-sync"])
    return player


def test_a_move_kept_offline_is_sent_by_the_worker_with_the_page_closed(contexts, server, needs_dynamodb):
    from tests.browser.boards import after, expected_pieces
    from tests.browser.test_mchezo import START, Player

    start = START["chess"]
    asha, ben = with_background_sync(Player(contexts, "sw")), Player(contexts, "en")
    link = asha.create("chess", "white")
    ben.join(link)
    _wait_on_fake_time(asha, None)  # Asha's page sees that Ben joined
    game_url = asha.page.url
    controlled(asha.page)

    asha.page.context.set_offline(True)
    asha.move("chess", start, "e4")
    queued = asha.page.locator("#offline-messages").get_attribute("data-move-queued")
    asha.status.filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    (kept,) = outbox(asha.page, "moves")
    token = page_token(asha.page)
    assert kept["move"] in ("e4", "e2e4") and (kept["ply"], kept["token"], kept["outcome"]) == (0, token, None)
    context = asha.page.context
    asha.page.close()  # the game page is gone: only the worker can send the move now

    context.set_offline(False)  # the browser fires the worker's `sync`
    sent_by_the_worker(context, "moves", {"kind": "sent"})
    _wait_on_fake_time(ben, expected_pieces("chess", after("chess", start, "e4")))

    # The next open shows what happened to the move, and forgets it.
    page = context.new_page()
    page.goto(game_url)
    sent = page.locator("#offline-messages").get_attribute("data-move-sent").replace("%(move)s", kept["move"])
    page.locator("#game .status").filter(has_text=sent).wait_for()
    assert outbox(page, "moves") == []


def test_a_conflicting_move_sent_by_the_worker_shows_the_opponents_move_at_the_next_open(
    contexts, server, needs_dynamodb
):
    from tests.browser.boards import BoardView, after, expected_pieces
    from tests.browser.test_mchezo import START, Player

    start = START["chess"]
    asha, ben = Player(contexts, "sw"), with_background_sync(Player(contexts, "tl"))
    link = asha.create("chess", "black")
    ben.join(link)  # Ben plays white
    game_url = ben.page.url
    controlled(ben.page)
    game_id = game_url.split("#game=")[1].split("&")[0]

    ben.page.context.set_offline(True)
    ben.move("chess", start, "e4")
    queued = ben.page.locator("#offline-messages").get_attribute("data-move-queued")
    ben.status.filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    token = page_token(ben.page)
    context = ben.page.context
    ben.page.close()
    # Meanwhile Ben's other phone plays d4: the kept e4 was made at a ply the game has left.
    assert http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "d4", "ply": 0}, token)["ply"] == 1

    context.set_offline(False)
    sent_by_the_worker(context, "moves", {"kind": "conflict"})
    page = context.new_page()
    page.goto(game_url)
    first = page.locator("#offline-messages").get_attribute("data-opponent-first").split("%(move)s")[0].strip()
    page.locator("#game .status").filter(has_text=first).wait_for()
    BoardView(page.locator("#game .board-host")).wait_for_pieces(
        expected_pieces("chess", after("chess", start, "d4")), timeout=5_000
    )
    assert outbox(page, "moves") == []


def test_a_puzzle_attempt_kept_offline_is_sent_by_the_worker_and_the_progress_shows_it(
    contexts, server, needs_dynamodb
):
    from puzzles.catalog import find
    from tests.browser.boards import BoardView, expected_pieces, page_config
    from tests.browser.test_fumbo import clicks_for, wrong_first_move

    context = contexts.new()
    page = context.new_page()
    with page.expect_response(lambda r: "/v1/puzzles/daily?game=english" in r.url) as daily:
        page.goto("/en/fumbo/")
    puzzles = {"english": daily.value.json()}
    puzzles["tanzanian"] = page.request.get("/v1/puzzles/daily?game=tanzanian").json()
    missed = page_config(page)["fumbo"]["puzzle_missed"]

    def wrong_move(game: str) -> tuple[BoardView, str]:
        puzzle = puzzles[game]
        board = BoardView(page.locator(f"#puzzle-{game} .board-host"))
        board.wait_for_pieces(expected_pieces(game, puzzle["fen"]))
        return board, wrong_first_move(find(puzzle["id"]))

    # Online first, so that this browser has a player (and a token the worker can send with).
    board, move = wrong_move("english")
    board.click(*clicks_for("english", puzzles["english"]["fen"], move))
    page.locator("#puzzle-english .status").filter(has_text=missed).wait_for()
    controlled(page)
    token = page_token(page)

    def progress() -> dict:
        return page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()

    assert progress()["failed"] == 1

    context.set_offline(True)
    board, move = wrong_move("tanzanian")
    board.click(*clicks_for("tanzanian", puzzles["tanzanian"]["fen"], move))
    queued = page.locator("#offline-messages").get_attribute("data-attempt-queued")
    page.locator("#puzzle-tanzanian .status").filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    (kept,) = outbox(page, "attempts")
    assert (kept["id"], kept["moves"], kept["token"]) == (puzzles["tanzanian"]["id"], [move], token)
    page.close()

    context.set_offline(False)
    sent_by_the_worker(context, "attempts", {"status": 200, "result": "failed"})
    assert progress()["failed"] == 2  # the server judged it with the page closed

    page = context.new_page()  # the next open shows the verdict on the board and forgets the record
    page.goto("/en/fumbo/")
    page.locator("#puzzle-tanzanian .status").filter(has_text=missed).wait_for()
    deadline = time.monotonic() + 10
    while outbox(page, "attempts"):
        assert time.monotonic() < deadline, outbox(page, "attempts")
        time.sleep(0.2)
    page.locator("#progress").wait_for(state="visible")
