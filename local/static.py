"""The static site of the local runner, cached and compressed as the template's CloudFront declares it.

``site_response`` answers a site request (not /v1/*) the way CloudFront + S3 + the index function do:

* the cache behaviour for the path is read from template.yaml (``/static/*`` or the default), so the
  local answers follow the template: ``Cache-Control`` from the behaviour's response headers policy
  (``public, max-age=31536000, immutable`` for the hashed files of /static/), otherwise the one the
  README's upload gives pages (``no-cache``, S3 object metadata);
* a strong ETag on every file (S3 gives one) and ``304 Not Modified`` for a matching ``If-None-Match``;
* Brotli or gzip when the behaviour compresses (``Compress``), its cache policy lets that encoding into
  the cache key (``EnableAcceptEncodingBrotli``/``Gzip``) and the client accepts it, Brotli first, for
  CloudFront's compressible types between 1,000 bytes and 10 MB, with ``Vary: Accept-Encoding``.

Compressed bodies are kept in memory by (file, mtime, encoding): a page is compressed once per build.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import threading
from dataclasses import dataclass
from functools import cache
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from local.template import TEMPLATE

try:  # PyPI's `brotli` (requirements-dev.txt); without it the runner sends gzip, as a browser accepts both
    import brotli  # no types in the package (pyproject.toml's mypy overrides)
except ImportError:  # pragma: no cover - only on a half-installed venv
    brotli = None

#: One HTTP answer: (status, headers, body).
Answer = tuple[int, list[tuple[str, str]], bytes]

#: What a page gets when no response headers policy sets Cache-Control: the README's `aws s3 sync` of the
#: pages sets it as object metadata, and CloudFront passes it on.
PAGE_CACHE_CONTROL = "no-cache"
#: CloudFront compresses files of these sizes only.
COMPRESS_MIN_BYTES, COMPRESS_MAX_BYTES = 1_000, 10_000_000
#: The content types CloudFront compresses that the site has (its list is longer).
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json", "image/svg+xml")
#: AWS managed cache policies the template may name, by id: (gzip, brotli) they let into the cache key.
MANAGED_CACHE_POLICIES = {
    "658327ea-f89d-4fab-a63d-7e88639e58f6": (True, True),  # CachingOptimized
    "4135ea2d-6df8-44a3-9df3-4b5a84be39ad": (False, False),  # CachingDisabled
}

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    ".xml": "application/xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
}


@dataclass(frozen=True)
class Behaviour:
    """One CloudFront cache behaviour of the site origin, as far as caching and compression go."""

    path_pattern: str  # "*" for the default behaviour
    cache_control: str | None  # set by the response headers policy, overriding the origin's
    compress: bool
    gzip: bool
    brotli: bool

    def matches(self, path: str) -> bool:
        if self.path_pattern == "*":
            return True
        prefix = self.path_pattern.rstrip("*")
        return path.startswith(prefix) if self.path_pattern.endswith("*") else path == self.path_pattern

    def encodings(self) -> tuple[str, ...]:
        """The encodings this behaviour serves, in CloudFront's order of preference."""
        if not self.compress:
            return ()
        return tuple(name for name, on in (("br", self.brotli and brotli is not None), ("gzip", self.gzip)) if on)


class _CloudFormationLoader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML ships no types
    """YAML with CloudFormation's short tags (``!Ref X`` becomes ``{"Ref": "X"}``)."""


def _intrinsic(loader: yaml.SafeLoader, tag_suffix: str, node: yaml.Node) -> Any:
    name = "Ref" if tag_suffix == "Ref" else f"Fn::{tag_suffix}"
    if isinstance(node, yaml.ScalarNode):
        return {name: loader.construct_scalar(node)}
    if isinstance(node, yaml.SequenceNode):
        return {name: loader.construct_sequence(node, deep=True)}
    return {name: loader.construct_mapping(node, deep=True)}


_CloudFormationLoader.add_multi_constructor("!", _intrinsic)


@cache
def site_behaviours(template_path: Path = TEMPLATE) -> tuple[Behaviour, ...]:
    """The cache behaviours of the site origin in template.yaml, in CloudFront's order (the default last)."""
    document = yaml.load(template_path.read_text(encoding="utf-8"), Loader=_CloudFormationLoader)
    resources = document["Resources"]
    distribution = next(
        resource["Properties"]["DistributionConfig"]
        for resource in resources.values()
        if resource["Type"] == "AWS::CloudFront::Distribution"
    )
    default = {**distribution["DefaultCacheBehavior"], "PathPattern": "*"}
    site_origin = default["TargetOriginId"]
    behaviours = [b for b in distribution.get("CacheBehaviors", ()) if b["TargetOriginId"] == site_origin]
    return tuple(_behaviour(resources, config) for config in [*behaviours, default])


def _behaviour(resources: dict[str, Any], config: dict[str, Any]) -> Behaviour:
    policy_id = config.get("CachePolicyId")
    if isinstance(policy_id, dict):
        parameters = resources[policy_id["Ref"]]["Properties"]["CachePolicyConfig"][
            "ParametersInCacheKeyAndForwardedToOrigin"
        ]
        gzip_on, brotli_on = parameters["EnableAcceptEncodingGzip"], parameters.get("EnableAcceptEncodingBrotli", False)
    else:
        gzip_on, brotli_on = MANAGED_CACHE_POLICIES[str(policy_id)]
    cache_control = None
    headers_policy = config.get("ResponseHeadersPolicyId")
    if isinstance(headers_policy, dict):
        policy = resources[headers_policy["Ref"]]["Properties"]["ResponseHeadersPolicyConfig"]
        for header in policy.get("CustomHeadersConfig", {}).get("Items", ()):
            if header["Header"].lower() == "cache-control":
                cache_control = header["Value"]
    return Behaviour(config["PathPattern"], cache_control, bool(config.get("Compress")), gzip_on, brotli_on)


def behaviour_for(path: str, template_path: Path = TEMPLATE) -> Behaviour:
    return next(b for b in site_behaviours(template_path) if b.matches(path))


# -- answers ---------------------------------------------------------------------------------------------


#: The page at / before ``make site`` has built the site.
PLACEHOLDER_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>ubao (local)</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem">
<h1>ubao</h1>
<p>The site is not built yet (<code>make site</code> writes it to <code>site/build/</code>).
The API is running: try</p>
<pre>curl -s -H 'content-type: application/json' \\
  -d '{"game":"chess","move":"e4"}' {origin}/v1/validate</pre>
</body></html>
"""


def site_response(method: str, target: str, site_dir: Path, origin: str, request_headers: Any = None) -> Answer:
    """(status, headers, body) for a site request, as CloudFront + S3 + the index function answer it."""
    request_headers = request_headers or {}
    if method not in ("GET", "HEAD"):
        return _text(HTTPStatus.METHOD_NOT_ALLOWED, "the site answers GET and HEAD only", [("Allow", "GET, HEAD")])
    path = unquote(urlsplit(target).path)
    if not site_dir.is_dir() and path in ("/", "/index.html"):
        page = PLACEHOLDER_PAGE.replace("{origin}", origin).encode("utf-8")
        return 200, [("Content-Type", CONTENT_TYPES[".html"]), ("Cache-Control", "no-cache")], page
    if ".." in path.split("/"):
        return _not_found(site_dir, path)
    last = path.rsplit("/", 1)[-1]
    behaviour = behaviour_for(path)  # chosen on the viewer's path, before the index function rewrites it
    if path.endswith("/"):
        path += "index.html"
    elif "." not in last:
        return 301, [("Location", path + "/")], b""
    file = _inside(site_dir, path)
    if file is None or not file.is_file():
        return _not_found(site_dir, path)
    content_type = CONTENT_TYPES.get(file.suffix.lower()) or mimetypes.guess_type(file.name)[0]
    content_type = content_type or "application/octet-stream"
    encoding = _encoding(behaviour, content_type, file.stat().st_size, _header(request_headers, "Accept-Encoding"))
    identity_tag, body = _representation(file, file.stat().st_mtime_ns, encoding)
    etag = f'"{identity_tag}-{encoding}"' if encoding else f'"{identity_tag}"'
    headers = [
        ("Content-Type", content_type),
        ("Cache-Control", behaviour.cache_control or PAGE_CACHE_CONTROL),
        ("ETag", etag),
    ]
    if behaviour.encodings():
        headers.append(("Vary", "Accept-Encoding"))
    if _etag_matches(_header(request_headers, "If-None-Match"), etag):
        return 304, headers, b""
    if encoding:
        headers.append(("Content-Encoding", encoding))
    return 200, headers, body


def _encoding(behaviour: Behaviour, content_type: str, size: int, accept_encoding: str | None) -> str | None:
    if not (COMPRESS_MIN_BYTES <= size <= COMPRESS_MAX_BYTES) or not content_type.startswith(COMPRESSIBLE):
        return None
    accepted = _accepted_encodings(accept_encoding or "")
    return next((name for name in behaviour.encodings() if name in accepted), None)


def _accepted_encodings(header: str) -> set[str]:
    accepted = set()
    for item in header.split(","):
        name, _, parameters = item.strip().partition(";")
        quality = parameters.strip().removeprefix("q=") if parameters.strip().startswith("q=") else "1"
        try:
            if float(quality) > 0:
                accepted.add(name.strip().lower())
        except ValueError:
            continue
    return accepted


_lock = threading.Lock()
_representations: dict[tuple[str, int, str | None], tuple[str, bytes]] = {}


def _representation(file: Path, mtime_ns: int, encoding: str | None) -> tuple[str, bytes]:
    """(hash of the file, body in ``encoding``), compressed once per file version."""
    key = (str(file), mtime_ns, encoding)
    with _lock:
        found = _representations.get(key)
    if found:
        return found
    raw = file.read_bytes()
    tag = hashlib.sha256(raw).hexdigest()[:32]
    if encoding == "br":
        body = brotli.compress(raw, quality=11)
    elif encoding == "gzip":
        body = gzip.compress(raw, compresslevel=9, mtime=0)
    else:
        body = raw
    with _lock:
        _representations[key] = (tag, body)
    return tag, body


def _etag_matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    # Weak comparison, as RFC 9110 asks for If-None-Match (CloudFront weakens ETags it compresses).
    return any(tag.strip().removeprefix("W/") == etag for tag in if_none_match.split(","))


def _header(headers: Any, name: str) -> str | None:
    if hasattr(headers, "get"):
        value = headers.get(name)
        if value is not None or not isinstance(headers, dict):
            return None if value is None else str(value)
        return next((v for k, v in headers.items() if k.lower() == name.lower()), None)
    return next((value for key, value in headers if key.lower() == name.lower()), None)


def _not_found(site_dir: Path, path: str) -> Answer:
    page = site_dir / "404.html"
    if page.is_file():
        return 404, [("Content-Type", CONTENT_TYPES[".html"])], page.read_bytes()
    return _text(HTTPStatus.NOT_FOUND, f"{path} is not part of the site")


def _inside(site_dir: Path, path: str) -> Path | None:
    """The file for ``path`` under ``site_dir``, or None if the path tries to leave it."""
    root = site_dir.resolve()
    candidate = (root / path.lstrip("/")).resolve()
    return candidate if candidate == root or root in candidate.parents else None


def _text(status: int, text: str, headers: list[tuple[str, str]] | None = None) -> Answer:
    return int(status), [("Content-Type", "text/plain; charset=utf-8"), *(headers or [])], (text + "\n").encode()
