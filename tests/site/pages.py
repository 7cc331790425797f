"""Reading the built site: each page parsed once into what the tests look at."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from html.parser import HTMLParser
from pathlib import Path

from tests.checks import known

# Attributes whose values a reader meets (alt text, labels, titles), checked like the page's text.
READABLE_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder", "content", "value")


@dataclass
class Page:
    path: str
    html: str
    lang: str | None = None
    canonical: str | None = None
    alternates: dict[str, str] = field(default_factory=dict)
    links: list[tuple[str, str, dict]] = field(default_factory=list)  # (tag, url, attributes)
    ids: list[str] = field(default_factory=list)
    text_parts: list[str] = field(default_factory=list)
    scripts: dict[str, str] = field(default_factory=dict)  # id -> text of JSON script blocks

    @cached_property
    def text(self) -> str:
        return normalise(" ".join(self.text_parts))

    @cached_property
    def config(self) -> dict | None:
        raw = self.scripts.get("ubao-config")
        return json.loads(raw) if raw else None


def normalise(text: str) -> str:
    """Lower case, one kind of quote and dash, single spaces: how seed sentences are compared."""
    text = text.lower().replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = text.replace("–", "-").replace("—", "-").replace("×", "x")
    return re.sub(r"\s+", " ", text).strip()


class _Reader(HTMLParser):
    def __init__(self, page: Page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self._skip = 0  # inside <script>/<style>
        self._script_id: str | None = None
        self._script_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        page = self.page
        if tag == "html":
            page.lang = attributes.get("lang")
        if "id" in attributes:
            page.ids.append(attributes["id"])
        if tag == "link" and attributes.get("rel") == "canonical":
            page.canonical = attributes.get("href")
        elif tag == "link" and attributes.get("rel") == "alternate" and "hreflang" in attributes:
            page.alternates[attributes["hreflang"]] = attributes["href"]
        for name in ("href", "src"):
            if name in attributes:
                page.links.append((tag, attributes[name], attributes))
        for name in READABLE_ATTRIBUTES:
            if attributes.get(name) and not (tag == "meta" and attributes.get("name") in ("viewport", "theme-color")):
                page.text_parts.append(attributes[name])
        if tag in ("script", "style"):
            self._skip += 1
            self._script_id = attributes.get("id") if attributes.get("type") == "application/json" else None
            self._script_text = []

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1
            if self._script_id:
                self.page.scripts[self._script_id] = "".join(self._script_text)
            self._script_id = None

    def handle_data(self, data):
        if self._skip:
            if self._script_id:
                self._script_text.append(data)
            return
        self.page.text_parts.append(data)


def parse(path: str, html: str) -> Page:
    page = Page(path, html)
    reader = _Reader(page)
    reader.feed(html)
    reader.close()
    return page


class BuiltSite:
    def __init__(self, root: Path, base_url: str, report: dict):
        self.root = root
        self.base_url = base_url
        self.report = report
        self.pages: dict[str, Page] = {}
        for file in sorted(root.rglob("index.html")):
            relative = file.parent.relative_to(root).as_posix()
            path = "/" if relative == "." else f"/{relative}/"
            self.pages[path] = parse(path, file.read_text(encoding="utf-8"))

    def exercises(self, path: str) -> list[dict]:
        """The exercises of the lesson at ``path``: the hashed JSON file its config names."""
        url = known(self.pages[path].config)["exercises_url"]
        return json.loads((self.root / url.lstrip("/")).read_text(encoding="utf-8"))

    def resolve(self, url: str) -> Path | None:
        """The file an internal URL serves, or None."""
        path = url.split("#", 1)[0].split("?", 1)[0]
        target = self.root / path.lstrip("/")
        if path.endswith("/"):
            target = target / "index.html"
        return target if target.is_file() else None
