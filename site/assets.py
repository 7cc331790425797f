"""Offline first at `make site` time: hashed file names, the icons, the web app manifests and the
service worker. build_site.py calls ``hashed_assets`` once per build and ``write_offline_files`` after the
pages are written; nothing here renders a page's markup.

* Every file of site/static/ is written as ``name.<10 hex of its sha256>.ext``; a script's imports of its
  neighbours (``from "./api.js"``) are rewritten to their hashed names first, so a changed api.js changes
  the name of every script that imports it. Served ``immutable`` (see local/static.py and template.yaml).
* A script's imports of site/modules/ (``from "../modules/notation.js"``) are rewritten to those modules'
  hashed names, and esbuild bundles the modules into the script: a page loads its scripts, not every
  module they are built from (the service worker gets its one module by ``worker_source``).
* Scripts and the style sheet are minified by esbuild (npm, `make node`) after that rewrite: a third fewer
  bytes after Brotli, which a first visit on a 400 kbit/s link needs (docs/offline.md). Their names hash
  the source and the minifier's version, not esbuild's output, so the rules-page function (deployed with
  site/ but without Node) names them as the build did. Without esbuild the files are written as they are,
  under the same names, with a warning (the site works the same; the modules are then served from /modules/).
* The icons are drawn here (a board on the theme colour) as PNG with zlib alone: no image library.
* ``/{lang}/manifest.webmanifest`` per language, ``/sw.js`` with the precache list (the shell) and its
  version baked in; ``/{lang}/offline/`` is a page of the site (rendered by build_site.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
SERVICE_WORKER_SOURCE = HERE / "offline" / "sw.js"
SERVICE_WORKER_PATH = "/sw.js"
HASH_LENGTH = 10
#: esbuild, installed by `make node` (package.json). Its output keeps to what the sources already need
#: (scripts: ES2020 modules with ``??``; styles: these browsers), so minifying never narrows the browsers
#: the site works in (without a target, esbuild would write e.g. ``inset: 0``, unknown to Chrome 80).
ESBUILD = HERE.parent / "node_modules" / ".bin" / "esbuild"
#: The version package.json pins (a test keeps the two equal): part of a minified file's name.
MINIFIER = "esbuild 0.28.2"
MINIFY_TARGETS = {"js": "es2020", "css": "chrome80,firefox78,safari14"}
#: ``name.0123456789.ext``: what local/static.py (and the /static/* behaviour) serve as immutable.
HASHED_NAME = re.compile(r"^[\w-]+\.[0-9a-f]{10}\.[a-z0-9]+$")
#: site/modules/: the scripts' building blocks, bundled by esbuild into each script of site/static/ that
#: imports them, so a page fetches as many files as it has scripts, not one per module (HTTP/1.1 opens six
#: connections to a host: each six files more would cost a round trip). Never served alone.
MODULES = "modules"
MODULES_DIR = HERE / MODULES
#: The service worker's import of one of those modules (its text takes the import's place).
_WORKER_IMPORT = re.compile(r'^import \{[^}]*\} from "\.\./modules/([\w.-]+\.js)";\n', re.MULTILINE)
#: A script's static or dynamic import of a file beside it.
_IMPORT = re.compile(r"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])\./([\w.-]+\.js)\2""")
#: A script's import of a module of site/modules/.
_MODULE_IMPORT = re.compile(r"""(\bfrom\s*)(["'])\.\./modules/([\w.-]+\.js)\2""")

THEME_COLOUR = "#212121"
BACKGROUND_COLOUR = "#fafafa"
#: (file name, size, maskable): maskable icons keep the board inside the central safe zone (80 % circle).
ICONS = (("icon-192.png", 192, False), ("icon-512.png", 512, False), ("icon-maskable-512.png", 512, True))


@dataclass(frozen=True)
class Asset:
    source: str  # the name in site/static/ (or of a generated icon)
    name: str  # the hashed name under /static/
    original: bytes  # the file, a script's imports rewritten to hashed names
    minify: bool = False
    #: The modules of site/modules/ the script bundles (its imports and theirs): (hashed name, text).
    modules: tuple[tuple[str, bytes], ...] = ()

    @property
    def url(self) -> str:
        return f"/static/{self.name}"

    @property
    def content(self) -> bytes:
        """What is served: ``original`` minified, computed when the build writes it (a name needs only the
        source, so the rules-page function, which renders pages but writes no file, never minifies)."""
        return minified(self.original, self.source.rpartition(".")[2], self.modules) if self.minify else self.original

    @property
    def code(self) -> bytes:
        """The script and the modules it bundles, as written (what the page's config is read against)."""
        return self.original + b"".join(text for _, text in self.modules)


class Assets:
    """The hashed files of one build, by their source names."""

    def __init__(self, files: dict[str, bytes], minify: bool = True, modules: dict[str, bytes] | None = None):
        self.minify = minify
        self.by_source: dict[str, Asset] = {}
        self._module_sources = modules or {}
        #: site/modules/ by source name: (hashed name, text with its own imports hashed).
        self.modules: dict[str, tuple[str, bytes]] = {}
        for source in sorted(files):
            self._resolve(source, files, ())

    def _resolve(self, source: str, files: dict[str, bytes], chain: tuple[str, ...]) -> Asset:
        if source in self.by_source:
            return self.by_source[source]
        if source in chain:
            raise ValueError(f"site/static: import cycle {' -> '.join((*chain, source))}")
        if source not in files:
            raise ValueError(f"site/static/{chain[-1]} imports ./{source}, which does not exist")
        content = files[source]
        if source.endswith(".js"):
            text = content.decode("utf-8")

            def hashed_import(match: re.Match[str]) -> str:
                target = self._resolve(match.group(3), files, (*chain, source))
                return f"{match.group(1)}{match.group(2)}./{target.name}{match.group(2)}"

            bundled: list[str] = []

            def hashed_module(match: re.Match[str]) -> str:
                hashed = self._module(match.group(3), (*chain, source), bundled)
                return f"{match.group(1)}{match.group(2)}../{MODULES}/{hashed}{match.group(2)}"

            content = _MODULE_IMPORT.sub(hashed_module, _IMPORT.sub(hashed_import, text)).encode("utf-8")
        minify = self.minify and source.endswith((".js", ".css"))
        stem, dot, extension = source.rpartition(".")
        digest = hashlib.sha256(content + (MINIFIER.encode() if minify else b"")).hexdigest()[:HASH_LENGTH]
        modules = tuple(self.modules[name] for name in sorted(set(bundled))) if source.endswith(".js") else ()
        asset = Asset(source, f"{stem}.{digest}{dot}{extension}", content, minify, modules)
        self.by_source[source] = asset
        return asset

    def _module(self, source: str, chain: tuple[str, ...], bundled: list[str]) -> str:
        """The hashed name of a module of site/modules/ (its own imports of modules beside it hashed
        first, so a changed module renames every script that bundles it); ``bundled`` gets it and those."""
        if source in chain:
            raise ValueError(f"site/{MODULES}: import cycle {' -> '.join((*chain, source))}")
        if source not in self._module_sources:
            raise ValueError(f"site/static/{chain[0]} imports ../{MODULES}/{source}, which does not exist")
        if source not in self.modules:
            text = self._module_sources[source].decode("utf-8")

            def hashed_import(match: re.Match[str]) -> str:
                target = self._module(match.group(3), (*chain, source), bundled)
                return f"{match.group(1)}{match.group(2)}./{target}{match.group(2)}"

            content = _IMPORT.sub(hashed_import, text).encode("utf-8")
            stem = source.rpartition(".")[0]
            self.modules[source] = (f"{stem}.{hashlib.sha256(content).hexdigest()[:HASH_LENGTH]}.js", content)
        else:
            for match in _IMPORT.finditer(self._module_sources[source].decode("utf-8")):
                self._module(match.group(3), (*chain, source), bundled)
        bundled.append(source)
        return self.modules[source][0]

    def add(self, source: str, content: bytes) -> Asset:
        """A file the build makes (a lesson's exercises as JSON), hashed and served immutable like the
        others, and so in the service worker's shell."""
        return self._resolve(source, {source: content}, ())

    def url(self, source: str) -> str:
        return self.by_source[source].url

    def module_graph(self, urls: list[str]) -> list[str]:
        """The hashed URLs of these scripts and of everything they import, each once, entries first: the
        page names them all in ``<link rel="modulepreload">``, so a slow link fetches the whole graph in one
        round trip instead of one per level of imports."""
        return self._imported(urls, dynamic=False)

    def loaded_by(self, urls: list[str]) -> list[Asset]:
        """The scripts at these URLs and every script they import, statically or with ``import()``: all the
        code a page may run."""
        by_url = {asset.url: asset for asset in self}
        return [by_url[url] for url in self._imported(urls, dynamic=True)]

    def _imported(self, urls: list[str], dynamic: bool) -> list[str]:
        """These scripts' URLs and those of what they import (with ``dynamic``, ``import()`` too), each once,
        in breadth-first order from the entries."""
        by_url = {asset.url: asset for asset in self}
        found: list[str] = []
        pending = [url for url in urls if url in by_url]
        while pending:
            url = pending.pop(0)
            if url in found:
                continue
            found.append(url)
            text = by_url[url].original.decode("utf-8")
            imports = (match for match in _IMPORT.finditer(text) if dynamic or "(" not in match.group(1))
            pending.extend(f"/static/{match.group(3)}" for match in imports)
        return found

    def __iter__(self) -> Iterator[Asset]:
        return iter(self.by_source.values())


def hashed_assets(static_dir: Path = STATIC, minify: bool = True, modules_dir: Path = MODULES_DIR) -> Assets:
    files = {path.name: path.read_bytes() for path in sorted(static_dir.iterdir()) if path.is_file()}
    for name, size, maskable in ICONS:
        files[name] = icon_png(size, maskable)
    modules = {path.name: path.read_bytes() for path in sorted(modules_dir.glob("*.js"))}
    return Assets(files, minify=minify, modules=modules)


@cache
def minified(content: bytes, loader: str, modules: tuple[tuple[str, bytes], ...] = ()) -> bytes:
    """``content`` (a script or a style sheet) minified by esbuild, or as it is when esbuild is not installed;
    a script with ``modules`` (hashed name, text) has them bundled in, its imports of the other scripts kept.
    Kept per content: the tests build the site many times."""
    if not ESBUILD.is_file():
        _warn_once(f"{ESBUILD} is missing (`make node`): scripts and styles are served unminified")
        return content
    target = MINIFY_TARGETS[loader]
    command = [str(ESBUILD), "--minify", f"--loader={loader}", f"--target={target}", "--log-level=error"]
    if loader == "js":
        command.append("--format=esm")
    if not modules:
        done = subprocess.run(command, input=content, capture_output=True, check=False, timeout=60)
    else:
        with tempfile.TemporaryDirectory() as folder:
            # stdin is bundled from the working directory (static/): modules are found where its imports say.
            (Path(folder) / "static").mkdir()
            (Path(folder) / MODULES).mkdir()
            for name, text in modules:
                (Path(folder) / MODULES / name).write_bytes(text)
            siblings = {match.group(3) for match in _IMPORT.finditer(content.decode("utf-8"))}
            command += ["--bundle", *(f"--external:./{name}" for name in sorted(siblings))]
            # A module's import of an npm package (pass-and-play's chess.js) is found in the project's node_modules.
            environment = {**os.environ, "NODE_PATH": str(ESBUILD.parents[1])}
            done = subprocess.run(
                command,
                input=content,
                capture_output=True,
                check=False,
                timeout=60,
                cwd=Path(folder) / "static",
                env=environment,
            )
    if done.returncode:
        raise ValueError(f"esbuild could not minify a {loader} file: {done.stderr.decode(errors='replace')}")
    return done.stdout


@cache
def _warn_once(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


# --------------------------------------------------------------------------------------------- icons


@cache
def icon_png(size: int, maskable: bool) -> bytes:
    """A 4x4 board of light and dark squares on the theme colour, with one round piece: ubao's icon."""
    background = bytes(_rgb(THEME_COLOUR))
    light, dark, piece = bytes((0xF0, 0xD9, 0xB5)), bytes((0x8B, 0x5A, 0x2B)), bytes((0xFA, 0xFA, 0xFA))
    # The maskable icon's safe zone is a circle of 40 % radius: its board's corners must lie inside it.
    margin = round(size * (0.24 if maskable else 0.1))
    cell = (size - 2 * margin) // 4
    board = cell * 4
    start = (size - board) // 2
    centre_x, centre_y, radius = start + cell * 2.5, start + cell * 1.5, cell * 0.38  # on a dark square
    rows = []
    for y in range(size):
        if not start <= y < start + board:
            rows.append(b"\x00" + background * size)  # filter byte 0, then the pixels
            continue
        rank = (y - start) // cell
        pixels = bytearray(background * start)
        for file in range(4):
            pixels += (dark if (file + rank) % 2 else light) * cell
        pixels += background * (size - start - board)
        half = (radius**2 - (y + 0.5 - centre_y) ** 2) ** 0.5 if abs(y + 0.5 - centre_y) <= radius else None
        if half is not None:  # the piece's pixels on this row
            for x in range(int(centre_x - half + 0.5), int(centre_x + half + 0.5)):
                pixels[3 * x : 3 * x + 3] = piece
        rows.append(b"\x00" + bytes(pixels))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _png_chunk(b"IEND", b"")
    )


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------- manifest


def manifest(lang: str, name: str, short_name: str, description: str, assets: Assets) -> dict[str, Any]:
    """The web app manifest of one language: installing from a Swahili page gives the Swahili app."""
    icons = [
        {
            "src": assets.url(file),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable" if maskable else "any",
        }
        for file, size, maskable in ICONS
    ]
    return {
        "id": f"/{lang}/",
        "name": name,
        "short_name": short_name,
        "description": description,
        "lang": lang,
        "start_url": f"/{lang}/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }


def manifest_path(lang: str) -> str:
    return f"/{lang}/manifest.webmanifest"


# --------------------------------------------------------------------------------------------- service worker


def offline_page_path(lang: str) -> str:
    return f"/{lang}/offline/"


def service_worker(assets: Assets, langs: tuple[str, ...], offline_pages: dict[str, str]) -> str:
    """/sw.js: the worker's source with the shell to precache (hashed assets, offline pages) baked in.

    Its version is the hash of everything it precaches, so a new build installs a new shell and the old one
    is deleted on activation; an unchanged build leaves the installed worker as it is.
    """
    shell = sorted(asset.url for asset in assets)
    digest = hashlib.sha256()
    for asset in assets:
        digest.update(asset.name.encode())
    for lang in langs:
        digest.update(hashlib.sha256(offline_pages[lang].encode()).digest())
    settings = {
        "version": digest.hexdigest()[:HASH_LENGTH],
        "shell": shell,
        "offlinePages": {lang: offline_page_path(lang) for lang in langs},
        "langs": list(langs),
    }
    source = worker_source(SERVICE_WORKER_SOURCE.read_text(encoding="utf-8"))
    marker = "const SETTINGS = {};"
    if marker not in source:
        raise ValueError(f"{SERVICE_WORKER_SOURCE} must declare `{marker}` for the build to fill in")
    return source.replace(marker, "const SETTINGS = " + json.dumps(settings, separators=(",", ":")) + ";", 1)


def worker_source(source: str, modules_dir: Path = MODULES_DIR) -> str:
    """The worker's source with each import of a module of site/modules/ replaced by that module's text, its
    ``export`` keywords dropped: a classic service worker cannot import a module (module workers are too
    new for the browsers the site serves), yet the pages and the worker share one outbox module."""

    def inlined(match: re.Match[str]) -> str:
        name = match.group(1)
        module = (modules_dir / name).read_text(encoding="utf-8")
        if re.search(r"^\s*import\b|^export (default|\{)", module, re.MULTILINE):
            raise ValueError(f"site/{MODULES}/{name} is written into /sw.js: only top-level `export` declarations")
        body = re.sub(r"^export (?=(async )?function |const |let |class )", "", module, flags=re.MULTILINE)
        return f"// site/{MODULES}/{name}, written here by the build\n{body}"

    return _WORKER_IMPORT.sub(inlined, source)


def write_offline_files(
    out: Path, assets: Assets, manifests: dict[str, dict[str, Any]], offline_pages: dict[str, str]
) -> None:
    """The hashed assets, the manifests and /sw.js into the build folder (the pages are already there)."""
    static = out / "static"
    static.mkdir(parents=True, exist_ok=True)
    for asset in assets:
        (static / asset.name).write_bytes(asset.content)
        if asset.content == asset.original and asset.modules:  # not bundled (no esbuild): served as they are
            (out / MODULES).mkdir(exist_ok=True)
            for name, text in asset.modules:
                (out / MODULES / name).write_bytes(text)
    for lang, data in manifests.items():
        target = out / manifest_path(lang).lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    langs = tuple(manifests)
    (out / SERVICE_WORKER_PATH.lstrip("/")).write_text(service_worker(assets, langs, offline_pages), encoding="utf-8")
