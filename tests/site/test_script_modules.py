"""site/modules/: the scripts' building blocks, bundled at `make site` into each script that imports them,
and the one the service worker shares with the pages, written into /sw.js."""

from __future__ import annotations

import re
import shutil
import subprocess

import assets
import pytest

from tests.site.test_offline_build import MESSAGE_READ, MOVE_FIELDS

NODE = shutil.which("node")


def write(folder, files: dict[str, str]):
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture
def sources(tmp_path):
    modules = write(
        tmp_path / "modules",
        {
            "half.js": "export const half = (n) => n / 2;\n",
            "twice.js": 'import { half } from "./half.js";\nexport const twice = (n) => half(n) * 4;\n',
        },
    )
    static = write(
        tmp_path / "static",
        {
            "api.js": "export const base = 0;\n",
            "page.js": 'import { base } from "./api.js";\nimport { twice } from "../modules/twice.js";\n'
            "console.log(base + twice(21));\n",
            "alone.js": "console.log(1);\n",
        },
    )
    return static, modules


def test_a_script_bundles_its_modules_and_keeps_importing_its_neighbours(sources, tmp_path):
    if not assets.ESBUILD.is_file():
        pytest.skip("esbuild is not installed (make node)")
    static, modules = sources
    built = assets.hashed_assets(static, modules_dir=modules)
    page = built.by_source["page.js"]
    served = page.content.decode()
    assert "modules/" not in served  # no module is fetched on its own
    assert f'"./{built.by_source["api.js"].name}"' in served  # the neighbour stays a file of its own
    assert [name.split(".")[0] for name, _ in page.modules] == ["half", "twice"]
    if NODE:  # the bundle runs as the sources would
        out = tmp_path / "out"
        out.mkdir()
        for asset in built:
            if asset.source.endswith(".js"):
                (out / asset.name).write_bytes(asset.content)
        done = subprocess.run([NODE, str(out / page.name)], capture_output=True, text=True, check=True)
        assert done.stdout.strip() == "42"


def test_a_changed_module_renames_every_script_that_bundles_it_and_no_other(sources):
    static, modules = sources
    before = assets.hashed_assets(static, modules_dir=modules)
    (modules / "half.js").write_text("export const half = (n) => n >> 1;\n")
    after = assets.hashed_assets(static, modules_dir=modules)
    assert before.url("page.js") != after.url("page.js")  # through twice.js, which imports half.js
    assert before.url("api.js") == after.url("api.js")
    assert before.url("alone.js") == after.url("alone.js")


def test_an_import_of_a_missing_module_is_a_clear_build_error(sources):
    static, modules = sources
    (static / "broken.js").write_text('import { a } from "../modules/nowhere.js";\n')
    with pytest.raises(ValueError, match="nowhere.js"):
        assets.hashed_assets(static, modules_dir=modules)


def test_the_service_worker_carries_the_outbox_module_in_place_of_its_import():
    langs = ("sw", "tl", "en")
    worker = assets.service_worker(assets.hashed_assets(), langs, {lang: "<p>offline</p>" for lang in langs})
    assert "../modules/" not in worker and not re.search(r"^\s*(import|export)\b", worker, re.MULTILINE)
    for name in ("function openOutbox", "function inStore", "function moveOutcome", 'const OUTBOX = "ubao-outbox"'):
        assert name in worker, name
    if NODE:  # a classic script, as a service worker registered without type "module" must be
        subprocess.run([NODE, "--check", "-"], input=worker, text=True, check=True)


def test_a_module_the_worker_shares_may_not_import_anything(tmp_path):
    write(tmp_path, {"outbox_store.js": 'import { a } from "./other.js";\nexport const b = a;\n'})
    source = 'import { b } from "../modules/outbox_store.js";\nconst SETTINGS = {};\n'
    with pytest.raises(ValueError, match="outbox_store.js"):
        assets.worker_source(source, modules_dir=tmp_path)


@pytest.mark.parametrize("path", ["/sw/fumbo/", "/en/mchezo/", "/tl/jifunze/english/"])
def test_every_message_a_bundled_module_reads_is_in_its_page_config(built, path):
    page = built.pages[path]
    scripts = [url for tag, url, _ in page.links if tag == "script"]
    code = [asset.code.decode() for asset in assets.hashed_assets().loaded_by(scripts)]
    read = {next(filter(None, match)) for source in code for match in MESSAGE_READ.findall(source)} - MOVE_FIELDS
    assert read and read <= set(page.config["messages"]), sorted(read - set(page.config["messages"]))
