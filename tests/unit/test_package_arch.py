"""``make package`` on a machine whose dpkg has no arm64 architecture stops before building anything, with one
line saying what to run; dpkg itself is stubbed at the boundary (a ``dpkg`` first on ``PATH``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from local import package


def fake_dpkg(folder: Path, native: str, foreign: str) -> None:
    """A ``dpkg`` that answers the two questions ``make package`` asks, as Debian's does."""
    script = folder / "dpkg"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$1" in --print-architecture) echo {native};; --print-foreign-architectures) printf "{foreign}";; '
        "*) exit 2;; esac\n"
    )
    script.chmod(0o755)


def test_without_arm64_it_says_what_to_run_in_one_line_and_builds_nothing(tmp_path, monkeypatch, capsys) -> None:
    bin_dir, out = tmp_path / "bin", tmp_path / "build"
    bin_dir.mkdir()
    fake_dpkg(bin_dir, "amd64", "i386\n")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert package.main(["--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [package.ARM64_MISSING]
    assert "dpkg --add-architecture arm64" in err
    assert not out.exists()


def test_without_dpkg_it_says_so_in_one_line(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no dpkg anywhere
    assert package.main(["--out", str(tmp_path / "build")]) == 1
    assert capsys.readouterr().err.splitlines() == [package.NO_DPKG]


@pytest.mark.parametrize(("native", "foreign"), [("amd64", "arm64\n"), ("arm64", "")])
def test_with_arm64_packages_the_check_lets_the_build_go_on(tmp_path, monkeypatch, native, foreign) -> None:
    fake_dpkg(tmp_path, native, foreign)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    package.check_arm64()  # no PackageError
    assert "arm64" in package.dpkg_architectures()
