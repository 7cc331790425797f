"""First visits on a 360x740 phone over the slow link (400 kbit/s, 400 ms): nothing moves under a finger as the
page and its data arrive (the layout shifts a ``PerformanceObserver`` sees add up to less than 0.1, the
"good" of Core Web Vitals), and each is ready within the 30 KB budget (a lesson's exercises' data is a file of
its own, fetched when the exercises come near: tests/browser/test_phone_exercises_data.py)."""

from __future__ import annotations

import pytest

from tests.bench.offline import SLOW_LINK

PHONE = {"width": 360, "height": 740}
BUDGET = 30 * 1024  # bytes over the wire until the page is ready to use, its data included
SHIFTS = """window.__shift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
}).observe({ type: "layout-shift", buffered: true });"""
# When each page is ready to use: Fumbo's puzzle on its board with its goal; a lesson's first exercise board.
READY = {
    "fumbo": "document.querySelector('#puzzle-chess .board-host .grid') && "
    "document.querySelector('#puzzle-chess .goal').textContent.trim() !== ''",
    "mchezo": "document.querySelector('#create-form button[type=submit]') !== null",
    "jifunze": "document.readyState === 'complete'",
}
PAGES = [
    ("sw", "fumbo"),
    ("tl", "fumbo"),
    ("sw", "mchezo"),
    ("tl", "mchezo"),
    ("sw", "jifunze/chess"),
    ("tl", "jifunze/chess"),
    ("tl", "jifunze/english"),
]


@pytest.mark.parametrize(("lang", "path"), PAGES, ids=[f"{lang}-{path}" for lang, path in PAGES])
def test_a_first_visit_does_not_move_under_a_finger(contexts, needs_dynamodb, lang, path):
    context = contexts.new(viewport=PHONE)
    context.add_init_script(SHIFTS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
    received = {"bytes": 0}
    cdp.on(
        "Network.loadingFinished",
        lambda event: received.__setitem__("bytes", received["bytes"] + event["encodedDataLength"]),
    )
    page.goto(f"/{lang}/{path}/", wait_until="load")
    page.wait_for_function(READY[path.split("/")[0]], timeout=60_000)
    ready_bytes = received["bytes"]
    page.wait_for_timeout(1_000)  # what moves just after the page is ready moves under a finger too
    shift = page.evaluate("window.__shift")
    assert shift < 0.1, f"/{lang}/{path}/: cumulative layout shift {shift:.3f}"
    assert ready_bytes < BUDGET, f"/{lang}/{path}/: {ready_bytes} bytes until ready"
    assert contexts.problems == []
