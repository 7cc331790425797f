"""Section ``package``: each function's code package as deployed."""

from __future__ import annotations

from pathlib import Path

from tests.bench.common import heading


def bench_package() -> None:
    """Each function's code package as `make package` builds it for Lambda (arm64), beside Lambda's limit."""
    import tempfile
    import zipfile

    from local.package import build, package_sizes

    heading("package: each function's code package and the layer, as deployed (make package, arm64)")
    limit = 250 * 1024 * 1024  # Lambda: a function's code and its layers, unzipped
    with tempfile.TemporaryDirectory() as out:
        built = build(Path(out) / "build")
        sizes = package_sizes(built)
        layer = sizes.pop("RulesLayer")
        for name, size in [*sizes.items(), ("RulesLayer", layer)]:
            directory = built / ("layer" if name == "RulesLayer" else f"functions/{name}")
            zipped = Path(out) / f"{name}.zip"
            with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
                for path in sorted(directory.rglob("*")):
                    if path.is_file():
                        archive.write(path, path.relative_to(directory))
            with_layer = size + (layer if name != "RulesLayer" else 0)
            print(f"{name:22} {size / 1e6:6.2f} MB unzipped, {zipped.stat().st_size / 1e6:5.2f} MB zipped;"
                  f" with the layer {with_layer / limit:6.1%} of Lambda's 250 MB")  # fmt: skip
