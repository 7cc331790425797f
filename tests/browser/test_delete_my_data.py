"""Delete my data on a phone (360x740) in Tagalog: a player with a game has a profile; on the privacy page they
delete their data (after the page's confirmation), the browser forgets its player, and the profile link then
answers 404 and the page says, in Tagalog, that it names no player."""

from __future__ import annotations

import time
import urllib.error

import pytest

from tests.browser.harness import http, page_token
from tests.browser.test_jamii import PHONE, texts

#: A loaded machine starts a function's first instance slowly (the community function's first answer took 12 s
#: at a load of 24 on 2 cores): the first page waits for it this long.
FIRST_ANSWER_MS = 90_000


@pytest.mark.slow  # a minute or more on a loaded machine
@pytest.mark.parametrize("lang", ["tl"])
def test_delete_my_data_then_the_profile_link_answers_404(contexts, needs_dynamodb, lang):
    words = texts(lang)
    page = contexts.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(f"/{lang}/jamii/")
    page.wait_for_function("document.getElementById('my-link').value.includes('#follow=')", timeout=FIRST_ANSWER_MS)
    # The service worker in charge of the page (it keeps the API answers the next pages read, for offline).
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=FIRST_ANSWER_MS)
    page.on("dialog", lambda dialog: dialog.accept())  # "Delete everything ubao stores about you?"
    handle = page.locator("#my-link").input_value().rsplit("=", 1)[1]
    token = page_token(page)
    http(contexts.origin, "PATCH", "/v1/players/me", {"name": "Imelda"}, token)
    vs_computer = {"game": "chess", "color": "white", "opponent": {"type": "cpu", "level": 1}}
    http(contexts.origin, "POST", "/v1/games", vs_computer, token)
    page.goto(f"/{lang}/mchezaji/?id={handle}")
    page.locator(".profile-recent").wait_for()
    assert page.locator(".profile-name").inner_text() == "Imelda"
    profile = f"{contexts.origin}/v1/players/{handle}"
    kept = "(url) => caches.open('ubao-api').then((cache) => cache.match(url)).then(Boolean)"
    assert page.evaluate(kept, profile)  # the service worker keeps API answers for reading offline

    page.goto(f"/{lang}/faragha/")
    delete = page.locator("#delete-data")
    assert delete.inner_text() == words("Delete my data")
    delete.tap()
    status = page.locator("#your-data .status")
    page.wait_for_function("document.querySelector('#your-data .status').textContent.length > 0")
    assert status.inner_text() == words("Your data is deleted. This browser no longer holds a player.")
    assert page.evaluate("localStorage.getItem('ubao.player')") is None
    deadline = time.monotonic() + 10
    while page.evaluate(kept, profile):  # the worker drops them: nothing of the player stays on the device
        assert time.monotonic() < deadline, "the service worker still holds the deleted player's profile"
        time.sleep(0.2)

    page.goto(f"/{lang}/mchezaji/?id={handle}")
    page.wait_for_function("document.querySelector('#profile .status').textContent.length > 0")
    page.wait_for_function(
        "(text) => document.querySelector('#profile .status').textContent === text",
        arg=words("This link names no player."),
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        http(contexts.origin, "GET", f"/v1/players/{handle}")
    assert refused.value.code == 404
    assert [problem for problem in contexts.problems if not ("404" in problem and profile in problem)] == []
