"""What a function may do on DynamoDB by template.yaml's policies, and what it did: moto and dynalite check no IAM,
so a call the function's role does not allow passes every local test and fails on AWS. ``DynamoCalls`` records
each call (operation, table, index) while it listens; ``denied`` names those the function's statements do not
allow."""

from __future__ import annotations

import re
from typing import Any

from local.template import Template

#: (action such as "dynamodb:Query", table's logical name, index name or None for the table, "*" for any index)
Grant = tuple[str, str, str | None]
Call = tuple[str, str, str | None]


def grants(function: str, template: Template | None = None) -> set[Grant]:
    """What ``function``'s inline statements allow on DynamoDB tables."""
    resource = (template or Template()).resources[function]
    found: set[Grant] = set()
    for policy in resource["Properties"].get("Policies") or ():
        assert isinstance(policy, dict) and set(policy) == {"Statement"}, f"{function}: a policy this reads: {policy}"
        for statement in policy["Statement"]:
            if statement.get("Effect") != "Allow":
                continue
            actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            resources = statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
            for action in actions:
                for target in resources:
                    table = _table_of(target)
                    if table is not None and action.startswith("dynamodb:"):
                        found.add((action, *table))
    return found


def _table_of(target: Any) -> tuple[str, str | None] | None:
    """(table, index) an ARN expression names: ``!GetAtt T.Arn`` is the table, ``!Sub "${T.Arn}/index/I"`` an index."""
    if isinstance(target, dict) and "Fn::GetAtt" in target:
        name, attribute = target["Fn::GetAtt"]
        return (name, None) if attribute == "Arn" else None
    if isinstance(target, dict) and "Fn::Sub" in target and isinstance(target["Fn::Sub"], str):
        matched = re.fullmatch(r"\$\{(\w+)\.Arn\}/index/(\S+)", target["Fn::Sub"])
        return (matched.group(1), matched.group(2)) if matched else None
    return None


class DynamoCalls:
    """The DynamoDB calls made on ``client`` while registered: (operation, table, index), a batch once per table."""

    def __init__(self, client: Any, tables: dict[str, str]):
        self.client = client
        self.tables = tables  # physical name -> logical name
        self.calls: set[Call] = set()

    def __enter__(self) -> DynamoCalls:
        self.client.meta.events.register("before-parameter-build.dynamodb", self._seen)
        return self

    def __exit__(self, *_: object) -> None:
        self.client.meta.events.unregister("before-parameter-build.dynamodb", self._seen)

    def _seen(self, params: dict[str, Any], model: Any, **_: object) -> None:
        names = [params["TableName"]] if "TableName" in params else list(params.get("RequestItems") or ())
        for name in names:
            self.calls.add((model.name, self.tables.get(name, name), params.get("IndexName")))


def recording(api: Any, method: str = "call") -> set[Call]:
    """The set that gathers the DynamoDB calls of each request ``api`` (a test client of one function) sends
    through its ``method`` from now on."""
    from common.persistence import store

    calls: set[Call] = set()
    send = getattr(api, method)

    def call(*args: Any, **kwargs: Any) -> Any:
        with DynamoCalls(store.client(), {}) as recorded:
            answer = send(*args, **kwargs)
        calls.update(recorded.calls)
        return answer

    setattr(api, method, call)
    return calls


def denied(calls: set[Call], allowed: set[Grant]) -> set[Call]:
    """The calls no grant allows (a grant on an index ``*`` allows every index of its table)."""
    return {
        (operation, table, index)
        for operation, table, index in calls
        if ("dynamodb:" + operation, table, index) not in allowed
        and (index is None or ("dynamodb:" + operation, table, "*") not in allowed)
    }
