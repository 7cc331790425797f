"""What the build makes of pass-and-play (one phone for two): chess.js pinned, GPL-compatible and bundled, the
draughts rules configured from shared_rules, everything lazy on the play page and kept by the service worker."""

from __future__ import annotations

import json
import re

import assets

from shared_rules.game_facts import variant_rules
from tests.checks import known
from tests.site.conftest import ROOT, build_site

PASS_SCRIPTS = ("pass_and_play", "rules_chess", "rules_draughts")
#: Licences that GPL-3.0-or-later code may bundle (the FSF's list of GPL-compatible free licences).
GPL_COMPATIBLE = {"MIT", "BSD-2-Clause", "BSD-3-Clause", "ISC", "Apache-2.0", "GPL-3.0-or-later", "LGPL-3.0-or-later"}


def test_chess_js_is_pinned_once_and_its_licence_is_gpl_compatible():
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["chess.js"]
    installed = json.loads((ROOT / "node_modules" / "chess.js" / "package.json").read_text())
    assert installed["version"] == pinned
    assert installed["license"] in GPL_COMPATIBLE
    # The module names the version it bundles, so a new chess.js renames the script that carries it.
    assert f"pinned\n// to {pinned} in package.json" in (ROOT / "site" / "modules" / "chess_rules.js").read_text()


def test_the_chess_rules_script_carries_chess_js_bundled(built):
    (script,) = (built.root / "static").glob("rules_chess.*.js")
    text = script.read_text()
    assert '"chess.js"' not in text and "isThreefoldRepetition" in text  # bundled, not a bare import


def test_the_play_page_loads_pass_and_play_only_when_it_opens(built):
    for lang in build_site.LANGS:
        page = (built.root / lang / "mchezo" / "index.html").read_text()
        loaded = re.findall(r'(?:src|href)="/static/([\w-]+)\.', page)
        assert loaded and not set(loaded) & set(PASS_SCRIPTS), loaded
        config = json.loads(known(re.search(r'id="ubao-config"[^>]*>(.*?)</script>', page, re.S)).group(1))
        assert config["variants"] == {game: variant_rules(game) for game in ("english", "tanzanian")}
        assert config["messages"]["pass_handover"] and config["messages"]["pass_check"]


def test_the_service_worker_keeps_pass_and_play_for_offline(built):
    source = (built.root / "sw.js").read_text()
    shell = json.loads(known(re.search(r"const SETTINGS = (\{.*?\});\n", source)).group(1))["shell"]
    for name in PASS_SCRIPTS:
        assert any(url.startswith(f"/static/{name}.") for url in shell), name
    by_source = {asset.source: asset for asset in assets.hashed_assets()}
    assert by_source["rules_draughts.js"].modules[0][0].startswith("draughts_rules.")
