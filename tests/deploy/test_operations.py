"""What an operator gets from template.yaml (and waf.yaml): alarms on one topic, a dashboard whose body is
valid JSON once CloudFormation substitutes it, a budget, reserved concurrency, and lint-clean templates."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from local.template import ROOT, Template

CFN_LINT = ROOT / ".venv" / "bin" / "cfn-lint"


@pytest.fixture(scope="module")
def template():
    return Template()


def of_type(template, kind: str) -> dict[str, dict]:
    return {name: resource for name, resource in template.resources.items() if resource["Type"] == kind}


def test_waf_template_is_lint_clean_and_scoped_for_cloudfront():
    result = subprocess.run([str(CFN_LINT), str(ROOT / "waf.yaml")], capture_output=True, text=True, cwd=ROOT)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")
    waf = Template(ROOT / "waf.yaml")
    acl = waf.resources["WebAcl"]["Properties"]
    assert acl["Scope"] == "CLOUDFRONT"
    limited = {rule["Name"]: rule for rule in acl["Rules"] if "RateBasedStatement" in rule["Statement"]}
    assert {"PlayerCreation", "Validate", "GameCreation", "Api"} <= set(limited)
    for rule in limited.values():
        response = rule["Action"]["Block"]["CustomResponse"]
        assert response["ResponseCode"] == 429
        assert [header["Name"] for header in response["ResponseHeaders"]] == ["retry-after"]
    body = json.loads(acl["CustomResponseBodies"]["RateLimited"]["Content"])
    assert body["error"]["code"] == "rate_limited"


def test_alarms_cover_5xx_lambda_errors_and_throttles_and_dynamodb_and_all_notify_the_topic(template):
    alarms = of_type(template, "AWS::CloudWatch::Alarm")
    watched = set()
    for alarm in alarms.values():
        properties = alarm["Properties"]
        assert properties["AlarmActions"] == [{"Ref": "AlarmTopic"}]
        text = json.dumps(properties)
        watched |= set(re.findall(r'"MetricName": "([^"]+)"', text))
    assert {
        "5xx",
        "Errors",
        "Throttles",
        "ReadThrottleEvents",
        "WriteThrottleEvents",
        "SuccessfulRequestLatency",
    } <= watched
    # CloudWatch's hard limit: a metric math alarm reads 10 metrics at most
    for name, alarm in alarms.items():
        assert sum("MetricStat" in query for query in alarm["Properties"].get("Metrics", [])) <= 10, name
    # every function is in exactly one Lambda errors alarm and one Lambda throttles alarm
    for metric in ("Errors", "Throttles"):
        stats = [
            query["MetricStat"]["Metric"]
            for alarm in alarms.values()
            for query in alarm["Properties"].get("Metrics", [])
            if "MetricStat" in query
        ]
        watched_functions = json.dumps(
            [stat for stat in stats if stat["Namespace"] == "AWS/Lambda" and stat["MetricName"] == metric]
        )
        for name in template.functions:
            assert watched_functions.count(f'"Ref": "{name}"') == 1, (metric, name)
    subscription = template.resources["AlarmEmailSubscription"]
    assert subscription["Condition"] == "HasAlarmEmail" and subscription["Properties"]["Protocol"] == "email"


def test_the_dashboard_body_is_json_once_substituted(template):
    body, variables = template.resources["Dashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]
    inner = variables["DurationMetrics"]["Fn::Sub"]
    text = body.replace("${DurationMetrics}", inner)
    text = re.sub(r"\$\{[^}]+\}", "x", text)
    document = json.loads(text)
    titles = [widget["properties"]["title"] for widget in document["widgets"]]
    assert any("Games" in title for title in titles) and any("Puzzles" in title for title in titles)
    from common.web import metrics

    for name in (metrics.MOVES_PLAYED, metrics.GAMES_CREATED, metrics.GAMES_FINISHED, metrics.PUZZLE_ATTEMPTS,
                 metrics.PUZZLES_SOLVED, metrics.PUSH_SENT, metrics.PUSH_FAILED):  # fmt: skip
        assert f'"{name}"' in text, name


def test_every_function_has_reserved_concurrency_and_the_budget_warns_the_topic(template):
    for name in template.functions:
        reserved = template.resources[name]["Properties"]["ReservedConcurrentExecutions"]["Fn::If"]
        assert reserved[0] == "ReservesConcurrency" and reserved[1]["Ref"] in template.parameters, name
    budget = template.resources["MonthlyBudget"]["Properties"]
    assert budget["Budget"]["BudgetLimit"]["Amount"] == {"Ref": "MonthlyBudgetUsd"}
    for notification in budget["NotificationsWithSubscribers"]:
        assert notification["Subscribers"] == [{"SubscriptionType": "SNS", "Address": {"Ref": "AlarmTopic"}}]
    policy = template.resources["AlarmTopicPolicy"]["Properties"]["PolicyDocument"]["Statement"][0]
    assert "budgets.amazonaws.com" in policy["Principal"]["Service"]
