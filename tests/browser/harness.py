"""The real parts of the browser tests: the local server as `make run` starts it, and Debian's Chromium.

Used by the pytest fixtures (tests/browser/conftest.py) and by the README screenshots script
(``python -m tests.browser.screenshots``), so both drive exactly the same server and browser.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

from local.contract import interrupt, start_local_runner, wait_until_serving
from local.dynamodb import CLI, free_port, node_executable

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
CHROMIUM = Path("/usr/bin/chromium")
# No network on CI machines: without these, Chromium keeps trying to reach Google's services and fills the
# log with refused connections (and spends CPU on it).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def missing_chromium() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not CHROMIUM.exists():
        return (
            f"BROWSER TESTS NOT RUN: {CHROMIUM} is missing. Install Debian's chromium "
            "(apt-get install chromium; .ci/run does it) to run them."
        )
    return None


def missing_dynamodb() -> str | None:
    """Why games and puzzles cannot be stored here (no local DynamoDB), or None."""
    if node_executable() is None:
        return "Node.js is not installed, so the local DynamoDB (dynalite) cannot run: games and puzzles need it"
    if not CLI.is_file():
        return "dynalite is not installed (`make node` runs npm ci): games and puzzles need it"
    return None


def install_dynalite() -> None:
    """`make node` when npm is here and dynalite is not yet installed (a fresh clone running pytest alone)."""
    npm = shutil.which("npm")
    if CLI.is_file() or npm is None or node_executable() is None:
        return
    lock_path = ROOT / ".local" / "npm-install.lock"
    lock_path.parent.mkdir(exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the games tests may be installing it at the same moment
        if not CLI.is_file():
            subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=True)


#: A folder to copy each runner's log into when the server stops (a loaded run's evidence: docs/limits.md).
KEEP_LOGS_VARIABLE = "UBAO_KEEP_RUNNER_LOGS"


def keep_runner_log(log_path: Path) -> None:
    """Copy ``log_path`` into the folder ``UBAO_KEEP_RUNNER_LOGS`` names, if any (the workdir is deleted)."""
    folder = os.environ.get(KEEP_LOGS_VARIABLE)
    if folder and log_path.is_file():
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(log_path, Path(folder) / f"{log_path.parent.name}-{log_path.name}")


def launch_browser(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)


def build_site_module():
    """site/build_site.py (site/ is not a package: its name would shadow the stdlib's ``site``)."""
    if str(SITE) not in sys.path:
        sys.path.insert(0, str(SITE))
    import build_site

    return build_site


def build_site(out: Path, origin: str) -> dict:
    """`make site` into ``out``, with canonical links on ``origin``."""
    return build_site_module().build(out, origin)


class LocalSite:
    """`make run` in a subprocess: the site built once, the runner on a free port, dynalite on a temporary folder.

    ``start()`` waits until the server answers; ``stop()`` sends Ctrl-C (the runner then stops its dynalite)
    and checks that no process it started is left behind.
    """

    def with_assets(self, script: str) -> str:
        """``script`` with each ``/static/<name>.js`` it imports turned into the built file's hashed name."""

        def hashed(match: re.Match[str]) -> str:
            stem, suffix = match.group(1), match.group(2)
            found = sorted((self.site_dir / "static").glob(f"{stem}.*{suffix}"))
            assert len(found) == 1, f"no single built file for /static/{stem}{suffix}: {found}"
            return f"/static/{found[0].name}"

        return re.sub(r"/static/([a-z_-]+)(\.js)\b", hashed, script)

    def __init__(self, workdir: Path | None = None, with_dynamodb: bool = True):
        self._own_workdir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="ubao-browser-"))
        self.with_dynamodb = with_dynamodb
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.site_dir = self.workdir / "site"
        self.data_dir = self.workdir / "dynalite"
        self.log_path = self.workdir / "runner.log"
        self.process: subprocess.Popen | None = None
        self._log: IO[bytes] | None = None

    def start(self, timeout: float = 60.0) -> LocalSite:
        build_site(self.site_dir, self.origin)
        environment = {**os.environ, "PORT": str(self.port), "PYTHONUNBUFFERED": "1"}
        environment["UBAO_LOCAL_CLOCK"] = "1"  # POST /v1/_local/clock lets a live turn run out at once (local/clock.py)
        environment.pop("DYNAMODB_ENDPOINT", None)  # our own dynalite, never someone else's tables
        # One instance of each function started at once: a page's own time limits (the push switch gives up
        # after 10 s) then measure the site, not a busy machine's cold start of a fresh interpreter.
        environment["LOCAL_WARM_INSTANCES"] = "1"
        environment.pop("SITE_URL", None)  # invite links then name this server, as on a fresh `make run`
        # Every page test's people come from 127.0.0.1: at the real limits (30 new players per address, then
        # one every 10 s) a fast run's later tests got 429s. The limits have their own tests
        # (tests/ratelimit); here they are 100 times larger, as `make contract` makes them larger for its thousands.
        environment["RATE_LIMIT_SCALE"] = "100"
        if self.with_dynamodb:
            environment["LOCAL_DYNAMODB_DIR"] = str(self.data_dir)
        else:
            environment.pop("LOCAL_DYNAMODB_DIR", None)
        self._log = log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = start_local_runner(self.site_dir, log, environment)
        if wait_until_serving(self.process, self.log, self.origin + "/", timeout):
            return self
        self.stop()
        raise RuntimeError(f"the local server did not answer on {self.origin} within {timeout:.0f} s:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text("utf-8", "replace")[-8000:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Ctrl-C, as a person stops `make run`; then make sure nothing it started still runs."""
        process, self.process = self.process, None
        if process is not None:
            interrupt(process)
        if self._log is not None:
            self._log.close()
            self._log = None
        keep_runner_log(self.log_path)
        leaked = self.leftover_processes()
        for pid in leaked:  # only processes whose command line names our own temporary folder
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        if leaked:
            raise RuntimeError(f"the local server left processes running after Ctrl-C: {leaked}")

    def leftover_processes(self) -> list[int]:
        """Processes still running with our temporary folder on their command line (dynalite's --path)."""
        if not Path("/proc").is_dir():
            return []  # not Linux: nothing to look at (Ctrl-C still stopped the runner and its dynalite)
        marker = str(self.workdir).encode()
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                command = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0]
            except OSError:
                continue
            if marker in command and state != "Z":
                found.append(int(entry.name))
        return found

    def __enter__(self) -> LocalSite:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


# -- what the tests of several pages do ------------------------------------------------------------------
def http(
    origin: str,
    method: str,
    path: str,
    body: dict | None = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
) -> dict:
    """One API request from outside the browser (another phone, a script); its JSON answer. A 4xx or 5xx
    raises (``urllib.error.HTTPError``). ``headers``: more, such as CloudFront's ``CloudFront-Viewer-Country``."""
    headers = {
        "Content-Type": "application/json",
        **({"Authorization": f"Bearer {token}"} if token else {}),
        **(headers or {}),
    }
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(origin + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"{}")


def controlled(page) -> None:
    """Wait until the service worker controls the page (after its first visit it does on every load)."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)


def page_token(page) -> str:
    """The player token this browser keeps (``api.js``, ``localStorage``)."""
    return page.evaluate("JSON.parse(localStorage.getItem('ubao.player')).token")
