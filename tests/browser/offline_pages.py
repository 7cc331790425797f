"""What the offline browser tests share: waits on a page's own state and a look into its IndexedDB outbox."""

from __future__ import annotations

import time

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


def wait_on_fake_time(player, expected: dict[str, str] | None, seconds: int = 15) -> None:
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
