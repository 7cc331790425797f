"""The puzzle tools on a compiled search: the same code, compiled by mypyc, about three times faster.

    python -m puzzles.compiled                              # build build/compiled (again only when a source changed)
    python -m puzzles.compiled verify --jobs 2              # `python -m puzzles.verify --jobs 2` on it, on puzzles/
    python -m puzzles.compiled generate --top-up --jobs 2   # the same for the generator
    python -m puzzles.compiled verify --dir /work/pz        # on a copy of the sets

mypyc (part of mypy, a dev dependency; it needs a C compiler and Python's headers) compiles the modules the
search spends its time in (``HOT_MODULES``) into C extensions, in a copy of ``shared_rules`` and ``puzzles``
under ``build/compiled``. Run from there, Python imports the compiled modules. The code is the same, so the
searcher visits the same nodes in the same order and every verdict is the same (``make bench verify`` runs
both on the same puzzles and asserts it). Where the build fails, the tools run on the plain code, saying so.
Only the offline puzzle tools use it: the Lambda functions ship the plain code.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "compiled"
PACKAGES = ("shared_rules", "puzzles")
# Where the verification spends its CPU (cProfile): the move generator, the searcher, the draughts model
# and its quick path. Compiled together, so that their calls to each other are native calls.
HOT_MODULES = (
    "shared_rules/draughts/engine.py",
    "shared_rules/search/core.py",
    "shared_rules/search/draughts.py",
    "puzzles/quick_search.py",
)
TOOLS = ("verify", "generate")
STAMP = ".sources"  # the digest of the sources the build was made from


def ignored(directory: str, names: list[str]) -> set[str]:
    """Not copied: caches, and the sets (the tools read and write the ones in puzzles/, by ``--dir``/``--out``)."""
    return {name for name in names if name in {"__pycache__", "dropped"} or name.endswith((".jsonl", ".so", ".pyc"))}


def digest(root: Path = ROOT) -> str:
    """The sources a build is made from, and the compiler and the Python it is made with."""
    hashed = hashlib.sha256(f"{sys.version} mypy {version('mypy')}".encode())
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                hashed.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


def build(target: Path = BUILD) -> bool:
    """Build the compiled copy in ``target`` unless it is up to date; False if mypyc could not build it."""
    wanted = digest()
    stamp = target / STAMP
    if stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return True
    print(f"compiling the search with mypyc into {target} (about 2 minutes, once) ...", flush=True)
    started = time.monotonic()
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, target / package, ignore=ignored)
    result = subprocess.run(
        [sys.executable, "-m", "mypyc", *HOT_MODULES], cwd=target, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        print(result.stdout[-2000:] + result.stderr[-2000:], file=sys.stderr)
        return False
    stamp.write_text(wanted, encoding="utf-8")
    print(f"compiled {len(HOT_MODULES)} modules in {time.monotonic() - started:.0f} s", flush=True)
    return True


def command(tool: str, args: list[str]) -> list[str]:
    """The tool's command line, its sets defaulting to the ones in puzzles/ (not the copy's)."""
    option = "--dir" if tool == "verify" else "--out"
    given = any(arg == option or arg.startswith(option + "=") for arg in args)
    return [sys.executable, "-m", f"puzzles.{tool}", *args, *([] if given else [option, str(ROOT / "puzzles")])]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv and argv[0] not in TOOLS:
        print(f"unknown tool {argv[0]!r}: one of {', '.join(TOOLS)}", file=sys.stderr)
        return 2
    compiled = build()
    if not argv:
        return 0 if compiled else 1
    where = BUILD if compiled else ROOT
    if not compiled:
        print("mypyc could not build the search (see above): running on the plain code, about 3x slower", flush=True)
    return subprocess.run(command(argv[0], argv[1:]), cwd=where, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
