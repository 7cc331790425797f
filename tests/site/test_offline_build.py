"""What `make site` writes for offline first: hashed assets, icons, manifests, the service worker."""

from __future__ import annotations

import hashlib
import html
import json
import re
import struct
import zlib
from typing import Any

import assets
import pytest

from tests.checks import known
from tests.site.conftest import build_site

LANGS = build_site.LANGS
HASHED_URL = re.compile(r"^/static/[\w-]+\.[0-9a-f]{10}\.(js|css|png)$")


def test_every_static_file_is_written_under_its_content_hash(built):
    names = sorted(path.name for path in (built.root / "static").iterdir())
    assert names and all(assets.HASHED_NAME.match(name) for name in names), names
    sources = {path.name for path in assets.STATIC.iterdir()}
    assert {name.split(".")[0] for name in names} >= {source.split(".")[0] for source in sources}
    # site/static/'s files and those the build makes (the lessons' exercises as JSON).
    by_name = {asset.name: asset for asset in build_site.Builder().built_assets()}
    for name in names:
        stem, digest, extension = name.rsplit(".", 2)
        asset = by_name[name]
        assert (built.root / "static" / name).read_bytes() == asset.content
        # Scripts and styles: the source (imports hashed) and the minifier; the rest: the bytes served.
        named = asset.original + (assets.MINIFIER.encode() if extension in ("js", "css") else b"")
        assert hashlib.sha256(named).hexdigest()[:10] == digest, name


def test_names_do_not_depend_on_esbuild_being_installed(monkeypatch):
    """The rules-page function renders Sheria pages with site/ but without Node: its links must be the build's."""
    built = {asset.source: asset for asset in assets.hashed_assets()}
    monkeypatch.setattr(assets, "ESBUILD", assets.ESBUILD.with_name("missing-esbuild"))
    assets.minified.cache_clear()  # minified files are kept per content: forget them for this build ...
    try:
        without = {asset.source: asset for asset in assets.hashed_assets()}
        assert {source: asset.name for source, asset in without.items()} == {
            source: asset.name for source, asset in built.items()
        }
        assert without["style.css"].content == (assets.STATIC / "style.css").read_bytes()  # served as it is
    finally:
        assets.minified.cache_clear()  # ... and keep the unminified ones from the next tests


def test_the_minifier_named_in_the_hashes_is_the_one_package_json_pins():
    pinned = json.loads((assets.HERE.parent / "package.json").read_text())["devDependencies"]["esbuild"]
    assert f"esbuild {pinned}" == assets.MINIFIER


def test_scripts_import_their_neighbours_by_hashed_name(built):
    written = {path.name for path in (built.root / "static").iterdir()}
    for script in (built.root / "static").glob("*.js"):
        for target in re.findall(r"""from\s*["']\./([^"']+)["']""", script.read_text()):
            assert target in written, (script.name, target)
            assert assets.HASHED_NAME.match(target)


def test_changing_a_dependency_renames_the_scripts_that_import_it(tmp_path):
    (tmp_path / "api.js").write_text("export const a = 1;\n")
    (tmp_path / "page.js").write_text('import { a } from "./api.js";\nconsole.log(a);\n')
    (tmp_path / "alone.js").write_text("console.log(1);\n")
    before = assets.hashed_assets(tmp_path)
    (tmp_path / "api.js").write_text("export const a = 2;\n")
    after = assets.hashed_assets(tmp_path)
    assert before.url("api.js") != after.url("api.js")
    assert before.url("page.js") != after.url("page.js")
    assert before.url("alone.js") == after.url("alone.js")
    assert f'from"./{after.by_source["api.js"].name}"' in after.by_source["page.js"].content.decode()


def test_scripts_and_styles_are_minified_after_their_imports_are_hashed(tmp_path):
    if not assets.ESBUILD.is_file():
        pytest.skip("esbuild is not installed (make node)")
    (tmp_path / "api.js").write_text("// a comment\nexport function twice(number) {\n  return number * 2;\n}\n")
    (tmp_path / "page.js").write_text('import { twice } from "./api.js";\nconst answer = twice(21) ?? 0;\n')
    (tmp_path / "style.css").write_text(".box {\n  top: 0;\n  right: 0;\n  bottom: 0;\n  left: 0;\n}\n")
    built = assets.hashed_assets(tmp_path)
    api = built.by_source["api.js"].content.decode()
    assert "comment" not in api and "\n  " not in api and "export" in api
    page = built.by_source["page.js"].content.decode()
    assert f'"./{built.by_source["api.js"].name}"' in page and "??" in page  # ES2020 stays as written
    style = built.by_source["style.css"].content.decode()
    assert "inset" not in style and "top:0" in style  # no syntax the target browsers lack
    plain = assets.hashed_assets(tmp_path, minify=False)
    assert plain.by_source["api.js"].content.decode().startswith("// a comment")


def test_an_import_of_a_missing_file_is_a_clear_build_error(tmp_path):
    (tmp_path / "page.js").write_text('import { a } from "./nowhere.js";\n')
    with pytest.raises(ValueError, match="nowhere.js"):
        assets.hashed_assets(tmp_path)


def test_every_page_links_hashed_assets_and_its_own_language_manifest(built):
    for path, page in built.pages.items():
        for tag, url, attrs in page.links:
            if tag == "script" or (tag == "link" and attrs.get("rel") in ("stylesheet", "apple-touch-icon")):
                assert HASHED_URL.match(url), (path, url)
                assert (built.root / url.lstrip("/")).is_file(), (path, url)
        lang = page.lang
        if path in ("/", "/game/"):
            continue
        manifests = [url for tag, url, attrs in page.links if tag == "link" and attrs.get("rel") == "manifest"]
        assert manifests == [f"/{lang}/manifest.webmanifest"], path


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR"
    assert zlib.crc32(data[12 : 16 + length]) & 0xFFFFFFFF == struct.unpack(">I", data[16 + length : 20 + length])[0]
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("lang", LANGS)
def test_manifest_of_each_language_is_installable(built, lang):
    data = json.loads((built.root / lang / "manifest.webmanifest").read_text())
    translated = build_site.translations(lang)
    assert data["name"] == translated.gettext("ubao: chess and draughts")
    assert data["lang"] == lang and data["start_url"] == f"/{lang}/" and data["display"] == "standalone"
    assert data["short_name"] and data["theme_color"].startswith("#")
    sizes: dict[str, Any] = {}
    for icon in data["icons"]:
        png = (built.root / icon["src"].lstrip("/")).read_bytes()
        width, height = _png_size(png)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes["any"] >= {192, 512} and 512 in sizes["maskable"]


def test_maskable_icon_keeps_the_board_inside_the_safe_zone():
    png = assets.icon_png(512, maskable=True)
    pixels = zlib.decompress(png[png.index(b"IDAT") + 4 :])
    row_bytes = 1 + 512 * 3
    background = bytes(assets._rgb(assets.THEME_COLOUR))
    outside = []
    for y in range(512):
        for x in range(0, 512, 4):
            colour = pixels[y * row_bytes + 1 + 3 * x : y * row_bytes + 4 + 3 * x]
            if colour != background and (x - 256) ** 2 + (y - 256) ** 2 > (0.4 * 512) ** 2:
                outside.append((x, y))
    assert not outside


def test_service_worker_precaches_the_shell_and_nothing_else(built):
    source = (built.root / "sw.js").read_text()
    settings = json.loads(known(re.search(r"const SETTINGS = (\{.*?\});\n", source)).group(1))
    static = {f"/static/{path.name}" for path in (built.root / "static").iterdir()}
    assert set(settings["shell"]) == static
    assert settings["offlinePages"] == {lang: f"/{lang}/offline/" for lang in LANGS}
    for lang in LANGS:
        assert (built.root / lang / "offline" / "index.html").is_file()
    assert re.fullmatch(r"[0-9a-f]{10}", settings["version"])
    # Sheria and Jifunze pages are cached when visited or when the player asks, never at install.
    assert not any("/sheria/" in url or "/jifunze/" in url for url in settings["shell"])
    # A lesson's exercises come from a file of their own, fetched when they come near: in the shell, so a
    # lesson seen once works offline (tests/browser/test_phone_exercises_data.py).
    for game in build_site.GAMES:
        for lang in LANGS:
            assert built.pages[f"/{lang}/jifunze/{game}/"].config["exercises_url"] in settings["shell"]


def test_service_worker_version_follows_the_shell(tmp_path):
    first = assets.hashed_assets()
    pages: dict[str, str] = {lang: "<p>offline</p>" for lang in LANGS}
    assert assets.service_worker(first, LANGS, pages) == assets.service_worker(assets.hashed_assets(), LANGS, pages)
    changed = {**pages, "sw": "<p>nje ya mtandao</p>"}
    assert assets.service_worker(first, LANGS, pages) != assets.service_worker(first, LANGS, changed)


def test_rules_and_lesson_pages_offer_to_save_every_rules_and_lesson_page_of_their_language(built):
    for lang in LANGS:
        page = built.pages[f"/{lang}/jifunze/chess/"]
        match = re.search(r'id="save-offline" data-urls="([^"]+)"', page.html)
        urls = json.loads(html.unescape(known(match).group(1)))
        expected = [f"/{lang}/sheria/", f"/{lang}/jifunze/"]
        for game in build_site.GAMES:
            expected += [f"/{lang}/sheria/{game}/", f"/{lang}/jifunze/{game}/"]
        assert urls == expected
        assert "save-offline" not in built.pages[f"/{lang}/mchezo/"].html
        assert 'id="offline-note"' in built.pages[f"/{lang}/mchezo/"].html
        assert 'id="offline-note"' in built.pages[f"/{lang}/fumbo/"].html


def test_every_page_preloads_its_whole_module_graph_from_its_head(built):
    """One round trip for every script: the page names each module it will run, and each module
    those import, in ``<link rel="modulepreload">`` before the body, so a 400 ms link is not paid per level."""
    # A side-effect import (``import "./friends.js"``) is minified to ``;import"./friends.<hash>.js"`` mid-line.
    import_of = re.compile(r"""\bfrom\s*["']\./([\w.-]+\.js)["']|(?:^|[;}])import\s*["']\./([\w.-]+\.js)["']""", re.M)
    deepest = 0
    for path, page in built.pages.items():
        head = built.resolve(path).read_text(encoding="utf-8").split("</head>")[0]
        preloaded = [url for tag, url, attrs in page.links if tag == "link" and attrs.get("rel") == "modulepreload"]
        scripts = [url for tag, url, attrs in page.links if tag == "script" and attrs.get("type") == "module"]
        needed, pending, depth = set(), [(url, 1) for url in scripts], 0
        while pending:
            url, level = pending.pop()
            needed.add(url)
            depth = max(depth, level)
            for names in import_of.findall((built.root / url.lstrip("/")).read_text()):
                pending.append(("/static/" + (names[0] or names[1]), level + 1))
        assert set(preloaded) == needed and len(preloaded) == len(needed), path
        assert all(f'<link rel="modulepreload" href="{url}">' in head for url in preloaded), path
        deepest = max(deepest, depth)
    assert deepest >= 2  # the game and puzzle pages import modules: the test sees a real graph


def test_a_page_carries_only_the_messages_its_scripts_name():
    code = 'say(m.your_move); m["piece_" + piece]; m[`reason_${why}`]; plural(m, "streak", 2);'
    messages = {key: key for key in ("your_move", "piece_K", "reason_timeout", "streak", "correct", "your")}
    assert build_site.messages_named(messages, code) == {
        "your_move": "your_move",
        "piece_K": "piece_K",
        "reason_timeout": "reason_timeout",
        "streak": "streak",
    }


#: How the sources of site/static read a message: m.key, messages.key, m["key"], plural(m, "key", n).
MESSAGE_READ = re.compile(r"""\b(?:m|messages)(?:\.(\w+)|\["(\w+)"\])|\bplural\(\w+, "(\w+)\"""")
#: ``m`` is also a move in the scripts' arrow functions (``(m) => m.san``): its fields are no messages.
MOVE_FIELDS = {"from", "to", "path", "san", "uci", "promotion"}


@pytest.mark.parametrize("path", ["/sw/fumbo/", "/en/mchezo/", "/tl/jifunze/english/"])
def test_every_message_a_page_script_reads_is_in_its_config(built, path):
    page = built.pages[path]
    scripts = [url for tag, url, _ in page.links if tag == "script"]
    sources = [(assets.STATIC / asset.source).read_text() for asset in assets.hashed_assets().loaded_by(scripts)]
    read = {next(filter(None, match)) for source in sources for match in MESSAGE_READ.findall(source)} - MOVE_FIELDS
    carried = page.config["messages"]
    assert read and read <= set(carried), sorted(read - set(carried))
    if path == "/sw/fumbo/":  # the game page's texts stay on the game page
        assert "invited_by" not in carried and "invited_by" in built.pages["/sw/mchezo/"].config["messages"]
