"""`make package`: the deployable artifacts in build/, for arm64 / CPython 3.13, without Docker.

    build/constraints.txt   the dev venv's versions: what the tests ran with is what ships
    build/layer/python/     the RulesLayer (built by shared_rules/Makefile, target build-RulesLayer)
    build/functions/        the code every function shares, with functions/requirements.txt installed, and
                            the puzzle sets with their loader (puzzles/: catalog.py and *.jsonl)
    build/functions-<pkg>/  the same code for the functions whose handler package has its own
                            requirements.txt (functions/notify/, functions/push/): those installed too, so
                            only these functions carry them (pywebpush is in the notify package alone);
                            the notify package also gets the compiled catalogs (locale/)
    build/template.json     template.yaml pointing at those directories: `sam deploy --template-file ...`

Make runs the layer build between ``constraints`` and ``functions`` (see the Makefile's package target).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from local.template import ROOT, Template

BUILD = ROOT / "build"
LAMBDA_PLATFORM = [
    "--platform", "manylinux2014_aarch64", "--implementation", "cp", "--python-version", "3.13", "--abi", "cp313",
]  # fmt: skip
LAYER_DIR_NAME = "layer"
FUNCTIONS_DIR_NAME = "functions"


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


#: What the puzzles function needs of puzzles/: the import-light loader and the sets (not the generator).
PUZZLE_FILES = ("__init__.py", "catalog.py", "*.jsonl")


def own_requirements(template: Template) -> dict[str, Path]:
    """Handler packages (``notify``) that have their own requirements.txt, with that file."""
    found = {}
    for function in template.functions.values():
        package = function.module.split(".")[0]
        requirements = ROOT / "functions" / package / "requirements.txt"
        if requirements.is_file():
            found[package] = requirements
    return found


def package_dir_name(package: str | None) -> str:
    return FUNCTIONS_DIR_NAME if package is None else f"{FUNCTIONS_DIR_NAME}-{package}"


#: Packages whose functions read the site's compiled catalogs (notifications' texts).
CATALOG_PACKAGES = ("notify",)


def build_functions(build: Path = BUILD, package: str | None = None, requirements: Path | None = None) -> Path:
    """build/functions (or build/functions-<package>): functions/ (no caches) plus the requirements, installed
    from wheels for Lambda."""
    target = build / package_dir_name(package)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(ROOT / "functions", target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    copy_puzzle_sets(target)
    if package in CATALOG_PACKAGES:
        copy_catalogs(target)
    requirements = requirements or ROOT / "functions" / "requirements.txt"
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-compile", "--upgrade", "--target", str(target)]
    command += [*LAMBDA_PLATFORM, "--only-binary=:all:", "-r", str(requirements)]
    command += ["--find-links", str(pure_wheels(build))]
    constraints = build / "constraints.txt"
    if constraints.exists():
        command += ["-c", str(constraints)]
    subprocess.run(command, check=True)
    return target


def copy_puzzle_sets(target: Path) -> Path:
    """target/puzzles: the puzzle sets and their loader, importable as ``puzzles.catalog`` beside the code."""
    destination = target / "puzzles"
    destination.mkdir(parents=True, exist_ok=True)
    for pattern in PUZZLE_FILES:
        for path in sorted((ROOT / "puzzles").glob(pattern)):
            shutil.copy2(path, destination / path.name)
    return destination


#: Pure-Python requirements published as source only: built here into wheels (any platform), since the
#: Lambda install takes wheels only (``--only-binary=:all:`` with ``--platform``).
SOURCE_ONLY = ("http-ece",)


def pure_wheels(build: Path = BUILD) -> Path:
    """build/wheels, holding a wheel of each ``SOURCE_ONLY`` package (at the dev venv's version)."""
    wheels = build / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), *SOURCE_ONLY]
    constraints = build / "constraints.txt"
    if constraints.exists():
        command += ["-c", str(constraints)]
    subprocess.run(command, check=True)
    return wheels


def copy_catalogs(target: Path) -> Path:
    """target/locale: the site's catalogs, compiled (read with the standard library's gettext at run time)."""
    site = str(ROOT / "site")
    if site not in sys.path:
        sys.path.insert(0, site)
    import build_site

    build_site.compile_catalogs()
    destination = target / "locale"
    for mo in sorted((ROOT / "site" / "locale").glob("*/LC_MESSAGES/messages.mo")):
        (destination / mo.parent.relative_to(ROOT / "site" / "locale")).mkdir(parents=True, exist_ok=True)
        shutil.copy2(mo, destination / mo.relative_to(ROOT / "site" / "locale"))
    return destination


def packaged_template(template: Template) -> dict:
    """template.yaml with each code path pointing into build/ (paths are relative to the template file)."""
    document = json.loads(json.dumps(template.data))  # plain dicts, intrinsics in their long form
    function_defaults = document.get("Globals", {}).get("Function", {})
    if "CodeUri" in function_defaults:
        function_defaults["CodeUri"] = f"{FUNCTIONS_DIR_NAME}/"
    own = own_requirements(template)
    for name, resource in document["Resources"].items():
        properties = resource.get("Properties", {})
        if resource["Type"] == "AWS::Serverless::Function" and "CodeUri" in properties:
            properties["CodeUri"] = f"{FUNCTIONS_DIR_NAME}/"
        if resource["Type"] == "AWS::Serverless::Function":
            package = template.functions[name].module.split(".")[0]
            if package in own:
                properties["CodeUri"] = f"{package_dir_name(package)}/"
        if resource["Type"] == "AWS::Serverless::LayerVersion":
            properties["ContentUri"] = f"{LAYER_DIR_NAME}/"
            resource.pop("Metadata", None)  # already built: nothing for `sam build` to do
    return document


def write_template(build: Path = BUILD) -> Path:
    path = build / "template.json"
    path.write_text(json.dumps(packaged_template(Template()), indent=2) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.package", description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["constraints", "functions"])
    options = parser.parse_args(argv)
    if options.step == "constraints":
        print(f"wrote {write_constraints().relative_to(ROOT)}")
        return 0
    layer = BUILD / LAYER_DIR_NAME / "python" / "shared_rules"
    if not layer.is_dir():
        print(f"{layer.relative_to(ROOT)} is missing: build the layer first (make package)", file=sys.stderr)
        return 1
    functions = build_functions()
    for package, requirements in own_requirements(Template()).items():
        built = build_functions(package=package, requirements=requirements)
        print(f"built {built.relative_to(ROOT)}/")
    template = write_template()
    print(f"built {functions.relative_to(ROOT)}/ and {template.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
