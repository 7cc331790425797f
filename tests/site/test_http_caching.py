"""The local runner serves the site with the caching and compression template.yaml declares for CloudFront.

The template is read here on its own (not through local/static.py), so a change on one side only fails.
Requests go over real HTTP to the runner's server, with the built site of this test session.
"""

from __future__ import annotations

import gzip
import http.client
import threading

import brotli
import pytest
import yaml

from local.runner import create_server
from local.template import TEMPLATE

IMMUTABLE = "public, max-age=31536000, immutable"


class _AnyTagLoader(yaml.SafeLoader):
    pass


_AnyTagLoader.add_multi_constructor("!", lambda loader, suffix, node: {"tag": suffix, "value": node.value})


@pytest.fixture(scope="module")
def template():
    document = yaml.load(TEMPLATE.read_text(), Loader=_AnyTagLoader)
    resources = document["Resources"]
    distribution = resources["SiteDistribution"]["Properties"]["DistributionConfig"]
    static = next(b for b in distribution["CacheBehaviors"] if b["PathPattern"] == "/static/*")
    return {"resources": resources, "default": distribution["DefaultCacheBehavior"], "static": static}


@pytest.fixture(scope="module")
def origin(built):
    server = create_server("127.0.0.1", 0, quiet=True, site_dir=built.root)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address
    server.shutdown()
    server.server_close()


def get(origin, path, **headers):
    # A bound, not a measure: the first API request starts a function instance, slow on a busy machine.
    host, port = origin
    connection = http.client.HTTPConnection(host, port, timeout=60)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def _asset(built, prefix):
    return "/static/" + next(p.name for p in (built.root / "static").iterdir() if p.name.startswith(prefix))


def test_the_template_caches_static_files_for_a_year_and_compresses_them(template):
    static, resources = template["static"], template["resources"]
    assert static["TargetOriginId"] == template["default"]["TargetOriginId"] and static["Compress"] is True
    policy = resources[static["CachePolicyId"]["value"]]["Properties"]["CachePolicyConfig"]
    assert policy["MinTTL"] == policy["DefaultTTL"] == 31536000
    parameters = policy["ParametersInCacheKeyAndForwardedToOrigin"]
    assert parameters["EnableAcceptEncodingGzip"] and parameters["EnableAcceptEncodingBrotli"]
    headers = resources[static["ResponseHeadersPolicyId"]["value"]]["Properties"]["ResponseHeadersPolicyConfig"]
    (cache_control,) = [h for h in headers["CustomHeadersConfig"]["Items"] if h["Header"] == "Cache-Control"]
    assert cache_control["Value"] == IMMUTABLE and cache_control["Override"] is True


@pytest.mark.parametrize("script", ["api.", "board.", "fumbo.", "style."])
def test_hashed_assets_are_served_as_the_template_says(template, built, origin, script):
    resources = template["resources"]
    policy = resources[template["static"]["ResponseHeadersPolicyId"]["value"]]["Properties"]
    declared = next(
        h["Value"]
        for h in policy["ResponseHeadersPolicyConfig"]["CustomHeadersConfig"]["Items"]
        if h["Header"] == "Cache-Control"
    )
    path = _asset(built, script)
    raw = (built.root / path.lstrip("/")).read_bytes()
    status, headers, body = get(origin, path, **{"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["cache-control"] == declared
    assert headers["content-encoding"] == "br" and brotli.decompress(body) == raw
    assert headers["vary"] == "Accept-Encoding"
    status, headers, body = get(origin, path, **{"Accept-Encoding": "gzip"})
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == raw
    status, headers, body = get(origin, path)
    assert "content-encoding" not in headers and body == raw


def test_pages_are_revalidated_with_a_strong_etag_and_answer_304(template, built, origin):
    # The default behaviour compresses with both encodings (its cache policy lets them into the key).
    assert template["default"]["Compress"] is True
    page = "/sw/sheria/chess/"
    status, headers, body = get(origin, page, **{"Accept-Encoding": "br"})
    assert status == 200 and headers["cache-control"] == "no-cache"
    etag = headers["etag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert brotli.decompress(body) == (built.root / "sw/sheria/chess/index.html").read_bytes()
    assert len(body) < 15 * 1024  # 105 KB of HTML, about 8 KB on the wire
    status, headers, body = get(origin, page, **{"Accept-Encoding": "br", "If-None-Match": etag})
    assert status == 304 and body == b"" and headers["etag"] == etag
    # Another encoding is another representation: its own tag, never a 304 for the Brotli one.
    status, headers, _ = get(origin, page, **{"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert status == 200 and headers["etag"] != etag


def test_small_files_and_images_are_sent_as_they_are(built, origin):
    status, headers, body = get(origin, _asset(built, "icon-512"), **{"Accept-Encoding": "gzip, br"})
    assert status == 200 and "content-encoding" not in headers and body.startswith(b"\x89PNG")
    assert headers["cache-control"] == IMMUTABLE
    status, headers, body = get(origin, _asset(built, "go."), **{"Accept-Encoding": "gzip, br"})
    assert len(body) < 1000 and "content-encoding" not in headers  # CloudFront compresses from 1,000 bytes


def test_the_service_worker_and_manifests_are_never_cached_stale(origin):
    for path, content_type in (
        ("/sw.js", "text/javascript"),
        ("/tl/manifest.webmanifest", "application/manifest+json"),
    ):
        status, headers, _ = get(origin, path)
        assert (
            status == 200
            and headers["cache-control"] == "no-cache"
            and headers["content-type"].startswith(content_type)
        )


def test_an_encoding_refused_with_q_zero_is_not_sent(built, origin):
    status, headers, body = get(origin, "/en/", **{"Accept-Encoding": "br;q=0, gzip"})
    assert headers["content-encoding"] == "gzip"


def test_no_answer_carries_a_header_the_template_removes(template, built, origin):
    """CloudFront's response-headers policy removes Server: the runner's answers have none either."""
    removed = set()
    for behaviour in (template["default"], template["static"]):
        policy = template["resources"][behaviour["ResponseHeadersPolicyId"]["value"]]["Properties"]
        removed |= {
            item["Header"].lower() for item in policy["ResponseHeadersPolicyConfig"]["RemoveHeadersConfig"]["Items"]
        }
    assert "server" in removed
    for path in ("/sw/sheria/chess/", _asset(built, "style."), "/no/such/page/", "/v1/no-such-route"):
        status, headers, _ = get(origin, path)
        assert not removed & set(headers), (path, status, headers)
        assert "date" in headers
