"""The edge: what CloudFront adds (security headers, the origin secret, the viewer's host) and keys on, in the
template and in the local runner, and what every function does around a request (common/web/edge.py)."""

from __future__ import annotations

import json
import threading

import pytest
from common.web import edge

from local.events import LambdaContext, http_api_event
from local.runner import create_server
from local.smoke import Client
from local.template import Template

SECRET = "0f4c2a9e-secret"


@pytest.fixture(scope="module")
def template():
    return Template()


@pytest.fixture(scope="module")
def runner(tmp_path_factory, template):
    """The local runner (source build), with a one-page site; no DynamoDB needed for these routes."""
    site = tmp_path_factory.mktemp("site")
    (site / "index.html").write_text("<!doctype html><title>ubao</title>")
    server = create_server(port=0, quiet=True, site_dir=site, template=template)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Client(server.origin)
    server.shutdown()
    server.server_close()


def policy_config(template) -> dict:
    return template.resources["SecurityHeadersPolicy"]["Properties"]["ResponseHeadersPolicyConfig"]


def expected_security_headers(template) -> dict[str, str]:
    """The policy's headers as a viewer sees them, read from the raw template here (not through the runner)."""
    config = policy_config(template)["SecurityHeadersConfig"]
    hsts = config["StrictTransportSecurity"]
    return {
        "strict-transport-security": f"max-age={hsts['AccessControlMaxAgeSec']}"
        + ("; includeSubDomains" if hsts["IncludeSubdomains"] else "")
        + ("; preload" if hsts["Preload"] else ""),
        "x-content-type-options": "nosniff",
        "x-frame-options": config["FrameOptions"]["FrameOption"],
        "referrer-policy": config["ReferrerPolicy"]["ReferrerPolicy"],
        "content-security-policy": " ".join(config["ContentSecurityPolicy"]["ContentSecurityPolicy"].split()),
    }


def behaviours(template) -> list[dict]:
    config = template.resources["SiteDistribution"]["Properties"]["DistributionConfig"]
    return [config["DefaultCacheBehavior"], *config["CacheBehaviors"]]


# ---------------------------------------------------------------------------------------- the template
def test_every_behaviour_of_the_distribution_sends_the_security_headers(template):
    security = template.resources["SecurityHeadersPolicy"]["Properties"]["ResponseHeadersPolicyConfig"]
    for behaviour in behaviours(template):
        policy = behaviour["ResponseHeadersPolicyId"]["Ref"]
        config = template.resources[policy]["Properties"]["ResponseHeadersPolicyConfig"]
        # /static/* adds its immutable Cache-Control: a behaviour takes one policy, so it repeats the headers
        assert config["SecurityHeadersConfig"] == security["SecurityHeadersConfig"], behaviour.get("PathPattern")
        assert config.get("RemoveHeadersConfig") == security.get("RemoveHeadersConfig"), behaviour.get("PathPattern")
    headers = expected_security_headers(template)
    assert headers["strict-transport-security"].startswith("max-age=63072000")
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_the_rules_page_cache_key_holds_what_the_page_varies_on(template, runner):
    page = runner.call("GET", "/v1/rules/chess?lang=tl")
    assert page.status == 200
    varies = {name.strip().lower() for name in page.headers["vary"].split(",")}
    rules = next(item for item in behaviours(template) if item.get("PathPattern") == "/v1/rules/*")
    assert rules["CachePolicyId"] == {"Ref": "RulesPageCachePolicy"}
    key = template.resources["RulesPageCachePolicy"]["Properties"]["CachePolicyConfig"]
    parameters = key["ParametersInCacheKeyAndForwardedToOrigin"]
    keyed_headers = {name.lower() for name in parameters["HeadersConfig"]["Headers"]}
    assert varies <= keyed_headers, (varies, keyed_headers)
    assert parameters["QueryStringsConfig"]["QueryStrings"] == ["lang"]  # ?lang= chooses the page too
    # CloudFront takes the first behaviour that matches: the rules page's must come before /v1/*
    patterns = [item.get("PathPattern") for item in behaviours(template)]
    assert patterns.index("/v1/rules/*") < patterns.index("/v1/*")


def test_the_api_origin_carries_the_secret_the_functions_check(template):
    config = template.resources["SiteDistribution"]["Properties"]["DistributionConfig"]
    api = next(origin for origin in config["Origins"] if origin["Id"] == "api")
    header = api["OriginCustomHeaders"][0]
    globals_ = template.data["Globals"]["Function"]["Environment"]["Variables"]
    assert header["HeaderName"].lower() == edge.ORIGIN_HEADER
    assert header["HeaderValue"] == globals_[edge.ORIGIN_SECRET_VARIABLE]  # one value, two places
    assert (
        template.origin_headers()["X-Origin-Verify"] == template.functions["GamesFunction"].environment["ORIGIN_VERIFY"]
    )


def test_custom_domain_raises_the_tls_minimum(template):
    config = template.resources["SiteDistribution"]["Properties"]["DistributionConfig"]
    condition, custom, default = config["ViewerCertificate"]["Fn::If"]
    assert condition == "HasCustomDomain"
    assert custom["MinimumProtocolVersion"] == "TLSv1.2_2021" and custom["SslSupportMethod"] == "sni-only"
    assert default == {"CloudFrontDefaultCertificate": True}


def test_the_site_bucket_is_versioned_and_logged(template):
    bucket = template.resources["SiteBucket"]["Properties"]
    assert bucket["VersioningConfiguration"]["Status"] == "Enabled"
    assert bucket["LoggingConfiguration"]["DestinationBucketName"] == {"Ref": "LogsBucket"}


# ------------------------------------------------------------------------------------------- the runner
@pytest.mark.parametrize(
    "method, path, body",
    [("GET", "/", None), ("GET", "/v1/rules/chess?lang=en", None), ("POST", "/v1/validate", {"game": "chess", "move": "e4"}),
     ("GET", "/v1/no/such/route", None), ("GET", "/no-such-page.html", None)],
)  # fmt: skip
def test_the_runner_sends_the_policy_headers_on_every_answer(template, runner, method, path, body):
    reply = runner.call(method, path, body)
    for name, value in expected_security_headers(template).items():
        assert reply.headers.get(name) == value, (path, name)


# ------------------------------------------------------------------------------ around every request
def call_validate(monkeypatch, headers: dict[str, str], secret: str | None = SECRET):
    from validate_move import handler

    if secret is None:
        monkeypatch.delenv(edge.ORIGIN_SECRET_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(edge.ORIGIN_SECRET_VARIABLE, secret)
    event = http_api_event(
        "POST", "/v1/validate", route_key="POST /v1/validate", headers={"content-type": "application/json", **headers},
        body=json.dumps({"game": "chess", "move": "e4"}),
    )  # fmt: skip
    return handler.lambda_handler(event, LambdaContext(function_name="ValidateMoveFunction"))


def test_a_request_around_cloudfront_is_refused_and_runs_nothing(monkeypatch):
    assert call_validate(monkeypatch, {})["statusCode"] == 403
    wrong = call_validate(monkeypatch, {"x-origin-verify": "guess"})
    assert wrong["statusCode"] == 403 and json.loads(wrong["body"])["error"]["code"] == "forbidden"
    assert call_validate(monkeypatch, {"x-origin-verify": SECRET})["statusCode"] == 200
    assert call_validate(monkeypatch, {}, secret=None)["statusCode"] == 200  # no secret configured: no check


def test_links_name_the_host_the_viewer_asked_for(monkeypatch):
    from rules_page import handler

    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.setenv(edge.ORIGIN_SECRET_VARIABLE, SECRET)
    headers = {"host": "abc123.execute-api.eu-west-1.amazonaws.com", "x-forwarded-host": "d111.cloudfront.net",
               "x-origin-verify": SECRET}  # fmt: skip
    event = http_api_event("GET", "/v1/rules/chess", route_key="GET /v1/rules/{game}", query="lang=en",
                           path_parameters={"game": "chess"}, headers=headers)  # fmt: skip
    page = handler.lambda_handler(event, LambdaContext(function_name="RulesPageFunction"))["body"]
    assert "https://d111.cloudfront.net/" in page and "execute-api" not in page


def test_every_request_logs_one_line_with_its_route_status_and_latency_and_never_a_token(monkeypatch, capsys, caplog):
    token = "ubao_" + "s3cr3t" * 7
    with caplog.at_level("INFO"):
        call_validate(monkeypatch, {"x-origin-verify": SECRET, "authorization": f"Bearer {token}"})
        call_validate(monkeypatch, {"authorization": f"Bearer {token}"})  # refused: logged too
    formatter = edge.logger.registered_formatter
    logged = [json.loads(formatter.format(record)) for record in caplog.records]
    requests = [line for line in logged if line["message"] == "request"]
    assert [(line["route"], line["status"]) for line in requests] == [("POST /v1/validate", 200),
                                                                      ("POST /v1/validate", 403)]  # fmt: skip
    assert all(isinstance(line["latency_ms"], float) for line in requests)
    assert requests[1]["code"] == "forbidden" and "code" not in requests[0]
    metrics = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith('{"_aws"')]
    refusals = [line for line in metrics if "Refusals" in line]
    assert len(refusals) == 1 and refusals[0]["reason"] == "forbidden" and refusals[0]["Refusals"] == [1.0]
    assert token not in json.dumps(logged) and "s3cr3t" not in json.dumps(metrics)
