"""The WAF's per-route rate rules match a path however a client spells it.

AWS WAF applies a rule's text transformations before matching; this test models the three that waf.yaml uses
(as AWS documents them: URL_DECODE, NORMALIZE_PATH, LOWERCASE) and checks every spelling a client could use to
slip past an exact-path rule is counted by it, and that the rule still leaves the routes beside it alone.
"""

from __future__ import annotations

import re
import urllib.parse

import pytest

from local.template import ROOT, Template


def normalize_path(path: str) -> str:
    """WAF's NORMALIZE_PATH: fold repeated slashes, drop `/./`, resolve `/../` not at the start of the input."""
    path = re.sub(r"/{2,}", "/", path)
    segments: list[str] = []
    for segment in path.split("/"):
        if segment == ".":
            continue
        if segment == ".." and len(segments) > 1:
            segments.pop()
            continue
        segments.append(segment)
    return "/".join(segments)


TRANSFORMATIONS = {"NONE": lambda text: text, "URL_DECODE": urllib.parse.unquote, "LOWERCASE": str.lower}
TRANSFORMATIONS["NORMALIZE_PATH"] = normalize_path


def transformed(statement: dict, text: str) -> str:
    for step in sorted(statement["TextTransformations"], key=lambda step: step["Priority"]):
        text = TRANSFORMATIONS[step["Type"]](text)
    return text


def path_statement(rule: dict) -> dict:
    scope = rule["Statement"]["RateBasedStatement"]["ScopeDownStatement"]
    statements = scope["AndStatement"]["Statements"] if "AndStatement" in scope else [scope]
    (statement,) = [
        inner for part in statements for inner in part.values() if "UriPath" in inner.get("FieldToMatch", {})
    ]
    return statement


def matches(statement: dict, path: str) -> bool:
    text = transformed(statement, path)
    if "RegexString" in statement:
        return re.search(statement["RegexString"], text) is not None
    wanted = statement["SearchString"]
    return {"EXACTLY": text == wanted, "STARTS_WITH": text.startswith(wanted)}[statement["PositionalConstraint"]]


@pytest.fixture(scope="module")
def rules() -> dict[str, dict]:
    acl = Template(ROOT / "waf.yaml").resources["WebAcl"]["Properties"]
    return {rule["Name"]: rule for rule in acl["Rules"] if "RateBasedStatement" in rule["Statement"]}


@pytest.mark.parametrize(
    ("name", "path", "neighbours"),
    [
        ("PlayerCreation", "/v1/players", ["/v1/players/me", "/v1/players/me/games", "/v1/playersx"]),
        ("Validate", "/v1/validate", ["/v1/validatex", "/v1/rules/chess"]),
        ("GameCreation", "/v1/games", ["/v1/games/abc/moves", "/v1/games/abc", "/v1/gamesx"]),
    ],
)
def test_each_route_rule_counts_every_spelling_of_its_path_and_no_other_route(rules, name, path, neighbours):
    statement = path_statement(rules[name])
    head, tail = path.rsplit("/", 1)
    spellings = [
        path,
        path + "/",
        head + "//" + tail,
        "/" + path,
        head + "/./" + tail,
        head + "/x/../" + tail,
        head + "/%" + format(ord(tail[0]), "02X") + tail[1:],
        path.upper(),
    ]
    assert [spelling for spelling in spellings if not matches(statement, spelling)] == []
    assert [other for other in neighbours if matches(statement, other)] == []


def test_the_api_rule_counts_every_spelling_of_an_api_path(rules):
    statement = path_statement(rules["Api"])
    spellings = ["/v1/games/abc", "//v1/games/abc", "/V1/games", "/%76%31/games", "/x/../v1/games", "/./v1/games"]
    assert [spelling for spelling in spellings if not matches(statement, spelling)] == []
    assert not matches(statement, "/sw/mchezo/")
