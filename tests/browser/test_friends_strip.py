"""Two phones (360x740), one in Swahili and one in Tagalog, become friends on the community page by their links;
Asha challenges Baraka from the friends strip of the play page, Baraka accepts from the strip of his home page and
the game opens on both phones, each in its own language, and they play."""

from __future__ import annotations

import pytest

from tests.browser.boards import after, page_config
from tests.browser.test_jamii import PHONE, texts
from tests.browser.test_mchezo import START, Player

STRIP_POLL_MS = 10_000  # friends.js looks again this often while a challenge waits


def friends_link(player: Player, hash_: str = "") -> str:
    """The player's friend link, from the community page (opened with ``hash_``: someone else's link)."""
    player.page.goto(f"/{player.lang}/jamii/{hash_}")
    player.page.wait_for_function("document.getElementById('my-link').value.includes('#follow=')")
    return player.page.locator("#my-link").input_value()


def follow(player: Player, link: str) -> None:
    friends_link(player, "#" + link.split("#", 1)[1])
    player.page.locator("#follow-button").click()
    player.page.wait_for_selector(".follow-list li")


def become_friends(contexts) -> tuple[Player, Player]:
    asha, baraka = Player(contexts, "sw", "Asha", PHONE), Player(contexts, "tl", "Baraka", PHONE)
    follow(baraka, friends_link(asha))
    follow(asha, friends_link(baraka))
    return asha, baraka


@pytest.mark.slow  # two phones, two pages each, a game: about a minute on a shared machine
def test_a_challenge_from_the_friends_strip_is_accepted_and_played(contexts, needs_dynamodb):
    sw, tl = texts("sw"), texts("tl")
    asha, baraka = become_friends(contexts)
    asha.open("/sw/mchezo/")
    strip = asha.page.locator("#friends-strip")
    strip.wait_for(state="visible")
    assert strip.locator("h2").inner_text() == sw("Friends")
    [row] = strip.locator(".friend-list li").all()
    challenge = row.locator("button")
    assert challenge.inner_text() == sw("Challenge")
    asha.page.select_option("#strip-game", "chess")
    challenge.click()
    strip.locator(".sent li[data-status=open]").wait_for()
    assert strip.locator(".status").inner_text() == sw("Challenge sent to %(name)s.") % {
        "name": sw("an unnamed player")
    }

    baraka.page.goto("/tl/")  # his home page: the challenge waits in the strip, in Tagalog
    received = baraka.page.locator("#friends-strip .received li")
    received.wait_for()
    assert received.inner_text().startswith(tl("%(name)s challenges you to %(game)s.").split("(%(name)s)")[0])
    assert tl("Chess") in received.inner_text()
    accept = received.locator("button").first
    assert accept.inner_text() == tl("Accept")
    accept.click()
    baraka.page.wait_for_url("**/tl/mchezo/#game=*")
    baraka.messages = page_config(baraka.page)["messages"]
    game_id = baraka.page.url.split("#game=")[1]

    asha.page.clock.fast_forward(STRIP_POLL_MS + 100)  # her strip hears the answer and offers the game
    opened = strip.locator(".sent li[data-status=accepted] a")
    opened.wait_for()
    assert opened.inner_text() == sw("Open the game")
    opened.click()
    asha.page.wait_for_url(f"**/sw/mchezo/#game={game_id}")

    # Whoever drew White moves first; each page says whose move it is in its own language.
    white, black = (asha, baraka) if _has_the_move(asha) else (baraka, asha)
    white.move("chess", START["chess"], "e4")
    black.sees("chess", START["chess"], ["e4"])
    black.move("chess", after("chess", START["chess"], "e4"), "e5")
    white.sees("chess", START["chess"], ["e4", "e5"])

    # Reactions, not chat: Asha sends "good game" in Swahili; Baraka's page words it in Tagalog.
    sent = asha.page.locator('#game .reactions [data-reaction="good_game"]')
    assert sent.inner_text() == sw("Good game!") == "Mchezo mzuri!"
    sent.click()
    asha.page.locator("#game .reaction-list li").wait_for()
    assert asha.page.locator("#game .reaction-list li").inner_text().endswith("Mchezo mzuri!")
    heard = baraka.page.locator("#game .reaction-list li")
    for _ in range(3):  # his next poll brings it
        baraka.page.clock.fast_forward(5_100)
        try:
            heard.wait_for(timeout=3_000)
            break
        except Exception:
            continue
    assert heard.inner_text().endswith(tl("Good game!")) and tl("Good game!") == "Magandang laro!"
    # He mutes them in every game: his page shows none, and says so on its box.
    baraka.page.locator("#game .mute-always").check()
    assert baraka.page.locator("#game .reaction-list li").count() == 0
    assert not contexts.problems, contexts.problems


def _has_the_move(player: Player) -> bool:
    player.page.clock.fast_forward(5_100)
    player.page.locator("#game .board-host").wait_for(state="visible")
    player.page.wait_for_function("document.querySelector('#game .status').textContent.length > 0")
    return player.page.locator("#game .move-form").is_visible()
