"""Section ``offline``: the pages on a slow link and offline, in headless Chromium."""

from __future__ import annotations

import contextlib
import re
import statistics
import time

from tests.bench.common import heading
from tests.checks import known

#: The link of the issue: 400 kbit/s down (and up), 400 ms latency, in Chromium's network emulation.
SLOW_LINK = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}
OFFLINE_PAGES = ("/sw/sheria/chess/", "/tl/jifunze/english/", "/en/sheria/tanzanian/", "/sw/fumbo/", "/en/mchezo/")


class _CountingProxy:
    """A TCP relay in front of the local server that counts the bytes the server sends: what went over the
    network, whoever asked (the page or its service worker, which Chromium's page-level events do not show).
    Bytes are told apart by the path of the request they answer: ``api`` (/v1/) or ``site`` (the rest)."""

    _REQUEST_LINE = re.compile(rb"(?:^|\r\n)(?:GET|POST|HEAD|PUT|PATCH|DELETE|OPTIONS) (\S+) HTTP/1")

    def __init__(self, target_port: int):
        import socket
        import threading

        self._socket, self._threading = socket, threading
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.received = {"site": 0, "api": 0}
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = self._socket.create_connection(("127.0.0.1", self.target_port))
            answering = {"kind": "site"}  # HTTP/1.1 answers in order: bytes belong to the last request sent
            for ends in ((client, upstream, False), (upstream, client, True)):
                self._threading.Thread(target=self._pump, args=(*ends, answering), daemon=True).start()

    def _pump(self, source, target, downstream: bool, answering: dict) -> None:
        try:
            while data := source.recv(65536):
                if downstream:
                    with self._lock:
                        self.received[answering["kind"]] += len(data)
                else:
                    for path in self._REQUEST_LINE.findall(data):
                        answering["kind"] = "api" if path.startswith(b"/v1/") else "site"
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                with contextlib.suppress(OSError):
                    end.shutdown(self._socket.SHUT_RDWR)

    def take_split(self) -> dict[str, int]:
        with self._lock:
            counts, self.received = self.received, {"site": 0, "api": 0}
        return counts

    def take(self) -> int:
        return sum(self.take_split().values())

    def close(self) -> None:
        self.listener.close()


def _slow_page(context):
    """A page of ``context`` on the slow link, and a counter of the bytes its own requests transferred:
    ``bytes`` in all, ``api`` of them for /v1/ (the page's data, not the page), and ``files``: how many of
    its requests were not for /v1/ (the page and its files)."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
    transferred = {"bytes": 0, "api": 0, "files": 0}
    urls: dict[str, str] = {}

    def finished(event) -> None:
        transferred["bytes"] += event["encodedDataLength"]
        if "/v1/" in urls.get(event["requestId"], ""):
            transferred["api"] += event["encodedDataLength"]
        else:
            transferred["files"] += 1

    cdp.on("Network.requestWillBeSent", lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
    cdp.on("Network.loadingFinished", finished)
    return page, transferred


def _poll(page, expression: str, timeout: float = 30.0) -> None:
    """Wait until ``expression`` (maybe a promise) is true: ``wait_for_function`` evaluates with eval, which
    the site's Content-Security-Policy forbids."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} s: {expression}")
        time.sleep(0.1)


def _load_ms(page) -> float:
    return page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; })()"
    )


def bench_offline() -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import LocalSite, launch_browser, missing_chromium, missing_dynamodb

    heading("offline first: pages on a 400 kbit/s, 400 ms link (headless Chromium, CDP network emulation)")
    if missing_chromium():
        print(missing_chromium())
        return
    with LocalSite(with_dynamodb=missing_dynamodb() is None) as site, sync_playwright() as playwright:
        proxy = _CountingProxy(site.port)
        origin = f"http://127.0.0.1:{proxy.port}"
        browser = launch_browser(playwright)
        try:
            _bench_offline_pages(browser, origin, proxy)
            _bench_offline_pack(browser, origin, proxy, site)
        finally:
            browser.close()
            proxy.close()


def _bench_offline_pages(browser, origin: str, proxy) -> None:
    import urllib.request

    for path in OFFLINE_PAGES:  # the server compresses a file once: measure the link, not that first time
        for encoding in ("br", "identity"):
            request = urllib.request.Request(origin + path, headers={"Accept-Encoding": encoding})
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
    print("median of 3 fresh visits (the slowest in brackets); bytes: the page and its files, then the API's")
    print(
        f"{'page':<22} {'first visit':>29} {'files':>5} {'uncompressed, no SW':>20} {'repeat visit':>29} {'precache':>9}"
    )
    for path in OFFLINE_PAGES:
        runs = [_visit_twice(browser, origin, proxy, path) for _ in range(3)]
        middle = sorted(runs, key=lambda run: run["first_ms"])[1]
        first_ms = statistics.median(run["first_ms"] for run in runs)
        repeat_ms = statistics.median(run["repeat_ms"] for run in runs)
        print(
            f"{path:<22} {middle['first_site'] / 1024:5.1f}+{middle['first_api'] / 1024:4.1f} KB "
            f"{first_ms:5.0f} ({max(run['first_ms'] for run in runs):5.0f}) ms {middle['first_files']:5d} "
            f"{middle['plain_bytes'] / 1024:6.1f} KB {middle['plain_ms']:5.0f} ms "
            f"{middle['repeat_site']:5d}+{middle['repeat_api']:5d} B {repeat_ms:4.0f} ({max(run['repeat_ms'] for run in runs):4.0f}) ms"
            f" {middle['precache'] / 1024:6.1f} KB"
        )
    print("files: the first visit's requests for the page and its files (not the API), those after load included.")
    print("targets: first visit < 30 KB and < 1500 ms; repeat visit <= 1 KB and < 300 ms; precache: the shell only,")
    print("         fetched by the service worker after the first page's load event. Fumbo and Mchezo also ask the")
    print("         API on every visit (the puzzles' legal moves, the games): those bytes are the second number.")


def _visit_twice(browser, origin: str, proxy, path: str) -> dict:
    """One fresh visitor: the reference visit (no compression, no worker), the first visit, the repeat visit."""
    # The reference: the same page as the issue found it (no compression), in the same run.
    reference = browser.new_context(base_url=origin, service_workers="block")
    reference.set_extra_http_headers({"Accept-Encoding": "identity"})
    page, plain = _slow_page(reference)
    page.goto(path, wait_until="load")
    run = {"plain_ms": _load_ms(page), "plain_bytes": plain["bytes"]}
    reference.close()

    context = browser.new_context(base_url=origin)
    page, first = _slow_page(context)
    proxy.take()
    page.goto(path, wait_until="load")
    run["first_ms"] = _load_ms(page)
    _poll(page, "navigator.serviceWorker.controller !== null")
    _poll(page, "caches.open('ubao-pages').then(c => c.match(location.origin + location.pathname)).then(r => !!r)")
    page.wait_for_timeout(1500)  # the precache and the API calls of the page settle
    run["first_site"], run["first_api"] = first["bytes"] - first["api"], first["api"]
    run["first_files"] = first["files"]
    run["precache"] = max(proxy.take() - first["bytes"], 0)
    page.goto("about:blank")
    proxy.take()
    page.goto(origin + path, wait_until="load")
    run["repeat_ms"] = _load_ms(page)
    page.wait_for_timeout(1500)  # stale-while-revalidate: the page is checked after it is shown
    repeat = proxy.take_split()
    run["repeat_site"], run["repeat_api"] = repeat["site"], repeat["api"]
    context.close()
    return run


def _bench_offline_pack(browser, origin: str, proxy, site) -> None:
    import json as json_module
    import re

    import brotli

    heading("offline first: the whole offline pack of one language (Swahili), over the network")
    context = browser.new_context(base_url=origin)
    page = context.new_page()
    proxy.take()
    page.goto("/sw/jifunze/", wait_until="load")
    _poll(page, "navigator.serviceWorker.controller !== null")
    page.click("#save-offline")
    _poll(page, "document.getElementById('save-offline-status').textContent.length > 12", timeout=60)
    page.wait_for_timeout(1000)
    pack = proxy.take()
    cached = page.evaluate(
        "caches.open('ubao-pages').then(c => c.keys()).then(k => k.map(r => new URL(r.url).pathname))"
    )
    shell = json_module.loads(
        known(re.search(r"const SETTINGS = (\{.*?\});", (site.site_dir / "sw.js").read_text())).group(1)
    )
    shell_bytes = sum(
        len(brotli.compress((site.site_dir / url.lstrip("/")).read_bytes()))
        if (site.site_dir / url.lstrip("/")).stat().st_size >= 1000
        else (site.site_dir / url.lstrip("/")).stat().st_size
        for url in shell["shell"]
    )
    context.close()
    print(f"pages kept: {len(cached)} ({', '.join(sorted(cached))})")
    print(
        f"shell precached: {len(shell['shell'])} files + 3 offline pages, {shell_bytes / 1024:.1f} KB Brotli (files alone)"
    )
    print(f"whole pack over the network: {pack / 1024:.1f} KB (target < 400 KB); 20 puzzles per game: section puzzles")
