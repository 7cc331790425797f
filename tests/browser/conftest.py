"""Fixtures of the browser tests: one local server (as `make run` starts it) and one Chromium per session.

Every test here is marked ``browser`` and put in one xdist group, so under ``pytest -n 2 --dist loadgroup``
they all run in the same worker and share that worker's server and browser. A test gets fresh browser
contexts (its own localStorage, so its own player), and a failing test leaves a screenshot of each of its
pages in test-artifacts/browser/.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from local.contract import server_errors
from tests.browser.harness import (
    ROOT,
    LocalSite,
    install_dynalite,
    launch_browser,
    missing_chromium,
    missing_dynamodb,
)

ARTIFACTS = ROOT / "test-artifacts" / "browser"  # gitignored; emptied when a session starts
HERE = Path(__file__).resolve().parent
# A phone, as most players hold one (and the layout the site is written for first).
VIEWPORT = {"width": 412, "height": 915}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    reason = missing_chromium()
    for item in items:
        if HERE not in item.path.resolve().parents:
            continue
        item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.xdist_group("browser"))
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, "report_" + report.when, report)
    return report


@pytest.fixture(scope="session")
def server():
    """The local server with its own dynalite (when Node.js is here), stopped with Ctrl-C at the end."""
    install_dynalite()
    with LocalSite(with_dynamodb=missing_dynamodb() is None) as site:
        yield site
        # A 500 seen once under load had no trace left: any 5xx the runner answered fails the session, with
        # what the runner logged around it (the function's own log of the error).
        errors = server_errors(site.log_path.read_text("utf-8", "replace"))
    assert not errors, "the local server answered a 5xx:\n" + "\n---\n".join(errors)


@pytest.fixture
def needs_dynamodb():
    reason = missing_dynamodb()
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    shutil.rmtree(ARTIFACTS, ignore_errors=True)  # only this run's failures are left to look at

    with sync_playwright() as playwright:
        browser = launch_browser(playwright)
        yield browser
        browser.close()


class Contexts:
    """The browser contexts (one per person) of one test, each with its own storage."""

    def __init__(self, browser, origin: str):
        self.browser, self.origin = browser, origin
        self.contexts: list[Any] = []
        self.problems: list[str] = []  # console errors, uncaught exceptions, failed requests, HTTP errors

    def new(self, **options):
        # Playwright's wait_for_function evaluates its predicate with eval, which the site's CSP (script-src
        # 'self') forbids: the tests that drive pages bypass the CSP; tests/browser/test_pages.py keeps it on
        # (bypass_csp=False) and finds every page free of violations.
        options = {"viewport": VIEWPORT, "bypass_csp": True, **options}
        context = self.browser.new_context(base_url=self.origin, **options)
        context.set_default_timeout(30_000)  # a bound on waits, not a measure: a busy machine is slow, not wrong
        context.on("console", lambda message: self._console(message))
        context.on("weberror", lambda error: self.problems.append(f"uncaught: {error.error}"))
        context.on("requestfailed", lambda request: self._failed(request))
        context.on("response", lambda response: self._response(response))
        self.contexts.append(context)
        return context

    def _failed(self, request) -> None:
        # A request still in flight when its page navigates away is cancelled (net::ERR_ABORTED): the page's
        # own choice, not a failure. Every other failure (refused, reset, blocked) is a problem.
        if request.failure != "net::ERR_ABORTED":
            self.problems.append(f"failed: {request.url} {request.failure}")

    def _console(self, message) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text} ({message.location.get('url', '')})")

    def _response(self, response) -> None:
        if response.status >= 400:
            try:
                body = response.text()[:300]
            except Exception as error:
                body = repr(error)
            auth = response.request.headers.get("authorization", "")[:20]
            self.problems.append(f"HTTP {response.status}: {response.request.method} {response.url} {auth!r} {body}")

    def new_page(self, **options):
        return self.new(**options).new_page()

    def screenshots(self, name: str) -> list[Path]:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        saved = []
        for i, context in enumerate(self.contexts):
            for j, page in enumerate(context.pages):
                path = ARTIFACTS / f"{name}-{i}-{j}.png"
                try:
                    page.screenshot(path=str(path), full_page=True, timeout=5_000)
                    saved.append(path)
                except Exception:  # a crashed page: nothing to show, the failure itself says what happened
                    pass
        return saved

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def contexts(request, browser, server):
    made = Contexts(browser, server.origin)
    yield made
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        for path in made.screenshots(name):
            print(f"screenshot: {path}")
    made.close()
