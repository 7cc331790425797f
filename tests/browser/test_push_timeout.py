"""The notification switch when the browser's push service cannot be reached (a phone offline, or a network
that blocks it): the browser's subscribe() never settles, and after 10 s the switch gives up, off, with a
message in the page's language, instead of staying grey for minutes."""

from __future__ import annotations

import pytest

# subscribe() that never answers, as Chromium's does when its push service is out of reach.
HANGING_PUSH_SERVICE = """
PushManager.prototype.getSubscription = async function () { return null; };
PushManager.prototype.subscribe = function () { window.subscribeCalled = true; return new Promise(() => {}); };
"""


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_push_switch_gives_up_after_10_s_with_a_message(contexts, lang):
    context = contexts.new(viewport={"width": 360, "height": 740}, permissions=["notifications"])
    page = context.new_page()
    page.add_init_script(HANGING_PUSH_SERVICE)
    page.clock.install()
    page.goto(f"/{lang}/mchezo/")
    switch = page.locator(".push-switch")
    button = switch.locator("button[role=switch]")
    page.wait_for_function("() => !document.querySelector('.push-switch button').disabled")  # push.js is in
    # Time stands still from here: the 10 s run from the tap on the page's clock alone, however long a busy
    # machine takes to fetch the push key before subscribe() is called.
    page.clock.pause_at(page.evaluate("Date.now()") + 1_000)
    button.click()
    page.wait_for_function("() => window.subscribeCalled === true")
    status = switch.locator(".status")
    page.clock.fast_forward(9_000)
    assert button.is_disabled() and status.inner_text() == ""  # still trying
    page.clock.fast_forward(1_100)
    expected = switch.get_attribute("data-timeout")
    assert expected and "10" in expected
    page.wait_for_function(
        "(text) => document.querySelector('.push-switch .status').textContent === text", arg=expected
    )
    assert button.get_attribute("aria-checked") == "false" and button.is_enabled()
