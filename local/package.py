"""`make package`: the deployable artifacts, one code package per function, without Docker.

    python -m local.package [--host] [--out DIR]

For Lambda (arm64, CPython 3.13; the default, into build/) or, with ``--host``, for this machine's
platform and Python (into build/host/, the same layout), so that what ships is what the tests run:

    constraints.txt            the dev venv's versions: what the tests ran with is what ships
    layer/python/              the RulesLayer (shared_rules/Makefile, target build-RulesLayer): the rules
                               and python-chess, on every function's path as Lambda mounts it (/opt/python)
    functions/<Function>/      one code package per function of template.yaml, holding exactly what that
                               function imports: functions/common/, its own package, the requirements of
                               functions/requirements.txt plus its own functions/<package>/requirements.txt,
                               and its data (PACKAGE_DATA: the puzzle sets, the site's sources, the route table)
    template.json              template.yaml with each CodeUri and the layer's ContentUri pointing at them:
                               `sam deploy --template-file build/template.json` (make deploy)
    runtime/                   (--host only) boto3, which the Lambda runtime provides and the packages do not ship

tests/deploy/test_packaged_build.py builds the host package and serves every route from it alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from local.template import ROOT, Template

BUILD = ROOT / "build"
HOST_BUILD = BUILD / "host"
LAMBDA_PLATFORM = [
    "--platform", "manylinux2014_aarch64", "--implementation", "cp", "--python-version", "3.13", "--abi", "cp313",
]  # fmt: skip
LAYER_DIR_NAME = "layer"
#: Layers other than the rules layer, by logical id: their directory in the build.
STOCKFISH_LAYER_DIR_NAME = "stockfish"
LAYER_DIRS = {"StockfishLayer": STOCKFISH_LAYER_DIR_NAME}
FUNCTIONS_DIR_NAME = "functions"
RUNTIME_DIR_NAME = "runtime"
FUNCTIONS_SOURCE = ROOT / "functions"
SITE_SOURCE = ROOT / "site"
#: What every function's package has besides its own code (the shared helpers).
SHARED_PACKAGES = ("common",)
#: First-party packages a function imports besides common/ and its own: notify reads games with the games
#: function's own codec and fold, and subscriptions through push's repository; the review function reads games
#: and pushes through notify. The reviews the games and puzzles functions read are in common/reviews/.
ALSO_IMPORTS: dict[str, tuple[str, ...]] = {
    "notify": ("games", "push"),
    "review": ("games", "notify", "push"),
    # The live socket reads games and tournaments as a GET does (live/games.py, live/tournaments.py).
    "live": ("games", "tournaments"),
    # Follow the other player of a game (the games repository), a challenge's game (the games' GameLog) and its
    # push (notify's Pushes), Delete my data (the games, ratings and push repositories).
    "community": ("games", "push", "notify"),
    # A league's games are made through the games function's own GameLog (tournaments/seated.py); its pushes go
    # through notify's Web Push sender to push's subscriptions (tournaments/pushes.py).
    "tournaments": ("games", "notify", "push"),
    # A club's leaderboards read the members' game ratings with the games' ratings repository.
    "clubs": ("games",),
}
#: Where one function of a unit imports less than the unit's other functions: the tickets route (an HTTP route
#: of the live handler) checks a game's seats, while tournaments are read only by the socket and the fan-out.
FUNCTION_IMPORTS: dict[str, tuple[str, ...]] = {"LiveTicketsFunction": ("games",)}
#: What the Lambda runtime brings (not shipped); the host build installs it apart, in runtime/.
RUNTIME_REQUIREMENTS = ("boto3",)
_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "requirements.txt")


def write_constraints(build: Path = BUILD) -> Path:
    """The dev venv's exact versions, as a pip constraints file (editable installs left out)."""
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"], check=True, capture_output=True, text=True
    ).stdout
    lines = [line for line in frozen.splitlines() if line and not line.startswith(("-e", "#"))]
    build.mkdir(parents=True, exist_ok=True)
    path = build / "constraints.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ per-function data
#: What the puzzles function needs of puzzles/: the import-light loader and the sets (not the generator).
PUZZLE_FILES = ("__init__.py", "catalog.py", "*.jsonl")
#: What the rules page needs of site/ to render a Sheria page: the builder and the modules it imports, the
#: templates, the content, the static files and the modules they bundle (their hashes are in the page), and the
#: compiled catalogs.
SITE_FILES = (
    "about_pages.py",
    "build_site.py",
    "assets.py",
    "board_svg.py",
    "catalogs.py",
    "diagrams.py",
    "exercise_list.py",
    "exercises.py",
    "fumbo_messages.py",
    "help_topics.py",
    "menu.py",
    "page_builder.py",
    "page_content.py",
    "pages.py",
    "play_messages.py",
    "rules_text.py",
    "script_messages.py",
    "stored_data.py",
)
SITE_DIRS = ("templates", "content", "static", "modules")


def copy_puzzle_sets(target: Path) -> Path:
    """target/puzzles: the puzzle sets and their loader, importable as ``puzzles.catalog`` beside the code."""
    destination = target / "puzzles"
    destination.mkdir(parents=True, exist_ok=True)
    for pattern in PUZZLE_FILES:
        for path in sorted((ROOT / "puzzles").glob(pattern)):
            shutil.copy2(path, destination / path.name)
    return destination


def compile_catalogs(locale: Path) -> Path:
    """``locale``/<lang>/LC_MESSAGES/messages.mo for each of the site's catalogs (compiled with Babel here, so
    the functions read them with the standard library's gettext)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted((SITE_SOURCE / "locale").glob("*/LC_MESSAGES/messages.po")):
        mo = locale / po.relative_to(SITE_SOURCE / "locale").with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as source:
            catalog = read_po(source)
        with mo.open("wb") as out:
            write_mo(out, catalog)
    return locale


def copy_review_data(target: Path) -> Path:
    """The review function's data: the puzzle generator and judge (personal draughts puzzles), the catalogs."""
    destination = target / "puzzles"
    destination.mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "puzzles").glob("*.py")):
        shutil.copy2(path, destination / path.name)
    return copy_catalogs(target)


def copy_site_source(target: Path) -> Path:
    """target/site_source: what rules_page.service.site_source() looks for, with the catalogs compiled (.mo)."""
    destination = target / "site_source"
    destination.mkdir(parents=True, exist_ok=True)
    for name in SITE_FILES:
        shutil.copy2(SITE_SOURCE / name, destination / name)
    for name in SITE_DIRS:
        shutil.copytree(SITE_SOURCE / name, destination / name, ignore=_IGNORED)
    compile_catalogs(destination / "locale")
    return destination


def write_route_table(target: Path, template: Template | None = None) -> Path:
    """target/api_fallback/routes.json: every (METHOD, path) of the template, for the 404-or-405 decision
    (the fallback ships without the other functions' code, so it reads the routes rather than importing them)."""
    template = template or Template()
    fallback = {name for name, function in template.functions.items() if function.module == "api_fallback.handler"}
    routes = sorted({(route.method, route.path) for route in template.routes if route.function not in fallback})
    path = target / "api_fallback" / "routes.json"
    path.write_text(json.dumps([list(route) for route in routes], indent=0) + "\n", encoding="utf-8")
    return path


def copy_catalogs(target: Path) -> Path:
    """target/locale: the site's catalogs, compiled (the notify function needs no Babel at run time)."""
    return compile_catalogs(target / "locale")


#: Data a function's package carries besides code and requirements, by the function's package name.
PACKAGE_DATA: dict[str, Callable[[Path], Path]] = {
    "puzzles_api": copy_puzzle_sets,
    "rules_page": copy_site_source,
    "api_fallback": write_route_table,
    "notify": copy_catalogs,
    "review": copy_review_data,
    "tournaments": copy_catalogs,  # the pushes' texts
}

#: Pure-Python requirements published as source only: built here into wheels (any platform), since the
#: Lambda install takes wheels only (``--only-binary=:all:`` with ``--platform``).
SOURCE_ONLY = ("http-ece",)


def pure_wheels(build: Path) -> Path:
    """build/wheels, holding a wheel of each ``SOURCE_ONLY`` package (at the dev venv's version)."""
    wheels = build / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), *SOURCE_ONLY]
    constraints = build / "constraints.txt"
    if constraints.exists():
        command += ["-c", str(constraints)]
    subprocess.run(command, check=True)
    return wheels


# ------------------------------------------------------------------------------------------- functions
def package_name(handler: str) -> str:
    """``games.handler.lambda_handler`` -> ``games``: the directory under functions/ with the code."""
    return handler.split(".", 1)[0]


def requirements_of(package: str) -> list[str]:
    """functions/requirements.txt (every function) plus functions/<package>/requirements.txt (its own)."""
    lines: list[str] = []
    for path in (FUNCTIONS_SOURCE / "requirements.txt", FUNCTIONS_SOURCE / package / "requirements.txt"):
        if path.is_file():
            lines += [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if line]


def pip_install(requirements: list[str], target: Path, host: bool, constraints: Path | None) -> None:
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-compile", "--upgrade", "--target", str(target)]
    command += [] if host else [*LAMBDA_PLATFORM]
    command += ["--only-binary=:all:", *requirements]
    if constraints and constraints.exists():
        command += ["-c", str(constraints)]
        if any(name in requirement for requirement in requirements for name in SOURCE_ONLY):
            command += ["--find-links", str(pure_wheels(constraints.parent))]
    subprocess.run(command, check=True)
    shutil.rmtree(target / "bin", ignore_errors=True)  # console scripts: never imported


def build_functions(build: Path = BUILD, host: bool = False, template: Template | None = None) -> dict[str, Path]:
    """build/functions/<Function>/ for every function of the template; returns {logical id: directory}."""
    template = template or Template()
    root = build / FUNCTIONS_DIR_NAME
    shutil.rmtree(root, ignore_errors=True)
    wheels = build / ".requirements"  # one install per distinct requirement list, copied into each package
    shutil.rmtree(wheels, ignore_errors=True)
    built: dict[str, Path] = {}
    for name, function in sorted(template.functions.items()):
        package = package_name(function.handler)
        target = root / name
        requirements = requirements_of(package)
        installed = wheels / hashlib.sha256("\n".join(sorted(requirements)).encode()).hexdigest()[:12]
        if not installed.exists():
            pip_install(requirements, installed, host, build / "constraints.txt")
        shutil.copytree(installed, target)
        also = FUNCTION_IMPORTS.get(name, ALSO_IMPORTS.get(package, ()))
        for shared in (*SHARED_PACKAGES, *also, package):
            shutil.copytree(FUNCTIONS_SOURCE / shared, target / shared, ignore=_IGNORED, dirs_exist_ok=True)
        if package in PACKAGE_DATA:
            PACKAGE_DATA[package](target)
        built[name] = target
    shutil.rmtree(wheels, ignore_errors=True)
    return built


def build_layer(build: Path = BUILD, host: bool = False) -> Path:
    """build/layer/python: shared_rules/Makefile's build-RulesLayer, for Lambda or for this machine."""
    artifacts = build / LAYER_DIR_NAME
    command = ["make", "--no-print-directory", "-C", str(ROOT / "shared_rules"), "build-RulesLayer"]
    command += [
        f"ARTIFACTS_DIR={artifacts}",
        f"PIP={sys.executable} -m pip",
        f"CONSTRAINTS={build / 'constraints.txt'}",
    ]
    if host:
        command.append("LAMBDA_PLATFORM=")  # pip's own platform: the wheels of this machine
    subprocess.run(command, check=True)
    return artifacts / "python"


class PackageError(Exception):
    """What stops a build, said in one line that tells what to run."""


ARM64_MISSING = (
    "make package: Lambda's Stockfish layer is Debian's arm64 build, and dpkg has no arm64 architecture; run "
    "`sudo dpkg --add-architecture arm64 && sudo apt-get update` and try again (or `make package PLATFORM=host`)"
)
NO_DPKG = (
    "make package: Lambda's Stockfish layer is fetched with apt-get (Debian's arm64 build), and this machine has "
    "no dpkg; build on Debian or Ubuntu (or `make package PLATFORM=host` for this machine)"
)


def dpkg_architectures() -> set[str]:
    """The architectures dpkg installs packages for: its own and the foreign ones added."""
    try:
        native = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True)
        foreign = subprocess.run(["dpkg", "--print-foreign-architectures"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise PackageError(NO_DPKG) from error
    return set(native.stdout.split()) | set(foreign.stdout.split())


def check_arm64() -> None:
    """Before anything is built: apt-get can fetch arm64 packages, or ``PackageError`` says what to run."""
    if "arm64" not in dpkg_architectures():
        raise PackageError(ARM64_MISSING)


def build_stockfish_layer(build: Path = BUILD, host: bool = False) -> Path:
    """build/stockfish/bin/stockfish: Debian's stockfish (arm64 for Lambda, fetched with ``apt-get download``;
    this machine's own with ``host``), which Lambda mounts at /opt/bin/stockfish (docs/engine.md)."""
    target = build / STOCKFISH_LAYER_DIR_NAME / "bin"
    shutil.rmtree(target.parent, ignore_errors=True)
    target.mkdir(parents=True)
    if host:
        found = shutil.which("stockfish") or "/usr/games/stockfish"
        if Path(found).is_file():
            shutil.copy2(found, target / "stockfish")
        return target.parent
    work = build / ".stockfish-deb"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # Needs arm64 in dpkg's architectures (``check_arm64``) and the package lists fetched since.
    fetched = subprocess.run(["apt-get", "download", "stockfish:arm64"], cwd=work, capture_output=True, text=True)
    if fetched.returncode != 0:
        reason = (fetched.stderr.strip().splitlines() or ["no reason given"])[-1]
        raise PackageError(
            f"make package: apt-get could not fetch stockfish:arm64 ({reason}); run `sudo apt-get update`"
        )
    package = next(work.glob("stockfish_*_arm64.deb"))
    subprocess.run(["dpkg-deb", "-x", str(package), str(work / "root")], check=True)
    shutil.copy2(work / "root" / "usr" / "games" / "stockfish", target / "stockfish")
    shutil.rmtree(work)
    return target.parent


def build_runtime(build: Path) -> Path:
    """build/host/runtime: boto3 at the dev venv's version, standing in for the Lambda runtime's copy."""
    target = build / RUNTIME_DIR_NAME
    shutil.rmtree(target, ignore_errors=True)
    pip_install(list(RUNTIME_REQUIREMENTS), target, True, build / "constraints.txt")
    return target


# -------------------------------------------------------------------------------------------- template
def packaged_template(template: Template, functions: dict[str, Path] | None = None) -> dict[str, Any]:
    """template.yaml with each code path pointing into the build (paths are relative to the template file)."""
    document: dict[str, Any] = json.loads(json.dumps(template.data))  # plain dicts, intrinsics in their long form
    document.get("Globals", {}).get("Function", {}).pop("CodeUri", None)
    for name, resource in document["Resources"].items():
        properties = resource.setdefault("Properties", {})
        if resource["Type"] == "AWS::Serverless::Function":
            properties["CodeUri"] = f"{FUNCTIONS_DIR_NAME}/{name}/"
        if resource["Type"] == "AWS::Serverless::LayerVersion":
            properties["ContentUri"] = f"{LAYER_DIRS.get(name, LAYER_DIR_NAME)}/"
            resource.pop("Metadata", None)  # already built: nothing for `sam build` to do
    return document


def write_template(build: Path = BUILD, template: Template | None = None) -> Path:
    path = build / "template.json"
    path.write_text(json.dumps(packaged_template(template or Template()), indent=2) + "\n", encoding="utf-8")
    return path


# -------------------------------------------------------------------------------------------- the whole
def build(out: Path | None = None, host: bool = False) -> Path:
    """Every artifact into ``out`` (build/ for Lambda, build/host/ for this machine); returns ``out``."""
    out = Path(out) if out else (HOST_BUILD if host else BUILD)
    if not host:
        check_arm64()
    out.mkdir(parents=True, exist_ok=True)
    write_constraints(out)
    build_layer(out, host)
    build_stockfish_layer(out, host)
    build_functions(out, host)
    if host:
        build_runtime(out)
    write_template(out)
    return out


def package_sizes(build: Path = BUILD) -> dict[str, int]:
    """Bytes of each function's package and of the layer (unzipped, as Lambda's 250 MB limit counts them)."""

    def size(directory: Path) -> int:
        return sum(path.stat().st_size for path in directory.rglob("*") if path.is_file())

    sizes = {path.name: size(path) for path in sorted((build / FUNCTIONS_DIR_NAME).iterdir()) if path.is_dir()}
    sizes["RulesLayer"] = size(build / LAYER_DIR_NAME)
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.package", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", action="store_true", help="this machine's platform and Python (build/host/)")
    parser.add_argument("--out", type=Path, help="where to build (default build/, or build/host/ with --host)")
    options = parser.parse_args(argv)
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    try:
        out = build(options.out, options.host)
    except PackageError as error:
        print(error, file=sys.stderr)
        return 1
    for name, size in package_sizes(out).items():
        print(f"  {name:24} {size / 1e6:6.1f} MB")
    where = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    print(
        f"built {where}/ ({'this machine' if options.host else 'Lambda arm64, python3.13'}); template {where}/template.json"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
