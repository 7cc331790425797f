"""template.yaml as data: its functions, their HttpApi routes, layers and environment, with SAM's Globals
applied. The local runner, the route drift test, ``make openapi`` and ``make package`` read the template
through this module, so there is one reading of it.

CloudFormation intrinsics in environment variables resolve to local stand-ins: ``!Ref Resource`` is the
resource's logical id (which is also the name the local DynamoDB tables get), ``!GetAtt Resource.Attr``
a fake ARN, ``!Ref`` of a parameter its default, and pseudo parameters such as ``AWS::Region`` the
local region.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "template.yaml"
LOCAL_ACCOUNT = "000000000000"
#: The local stack's id ends in this UUID, which is also the origin secret CloudFront would add (template.yaml).
LOCAL_STACK_UUID = "00000000-0000-4000-8000-000000000000"

_SUB_VARIABLE = re.compile(r"\$\{([^}!][^}]*)\}")


@dataclass(frozen=True)
class Route:
    """One HttpApi route: ``method`` is upper case or ``ANY``; ``path`` uses ``{param}`` and ``{proxy+}``."""

    method: str
    path: str
    function: str  # logical id of the function it invokes

    @property
    def key(self) -> str:
        """API Gateway's routeKey, e.g. ``POST /v1/validate``."""
        return f"{self.method} {self.path}"


@dataclass(frozen=True)
class Function:
    name: str  # logical id
    handler: str  # "package.module.attribute"
    code_dir: Path
    layer_dirs: tuple[Path, ...]  # each layer's ContentUri
    environment: dict[str, str]
    timeout_seconds: int
    memory_mb: int
    routes: tuple[Route, ...] = field(default=())

    @property
    def module(self) -> str:
        return self.handler.rpartition(".")[0]

    @property
    def attribute(self) -> str:
        return self.handler.rpartition(".")[2]

    @property
    def import_paths(self) -> tuple[Path, ...]:
        """What Lambda puts on sys.path: the code, then each layer's python/ (here: the layer dir's parent,
        since the package directory itself, such as shared_rules/, is the layer's content)."""
        return (self.code_dir, *(layer.parent for layer in self.layer_dirs))


class Template:
    """A parsed template.yaml."""

    def __init__(self, path: Path = TEMPLATE, region: str | None = None):
        from cfnlint.decode import decode_str  # understands !Ref, !Sub, !GetAtt ...

        self.path = Path(path)
        self.region = region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
        data, problems = decode_str(self.path.read_text(encoding="utf-8"))
        if problems or data is None:
            raise ValueError(f"{self.path} cannot be read: {'; '.join(str(problem) for problem in problems)}")
        self.data: dict[str, Any] = data
        self.resources: dict[str, dict[str, Any]] = dict(data.get("Resources") or {})
        self.parameters: dict[str, dict[str, Any]] = dict(data.get("Parameters") or {})

    # -- functions and routes ------------------------------------------------------------------------
    @cached_property
    def functions(self) -> dict[str, Function]:
        functions = {}
        for name, resource in self.resources.items():
            if resource.get("Type") != "AWS::Serverless::Function":
                continue
            properties = self._with_globals(resource.get("Properties") or {})
            layers = tuple(self._layer_dir(layer) for layer in properties.get("Layers") or ())
            variables = (properties.get("Environment") or {}).get("Variables") or {}
            functions[name] = Function(
                name=name,
                handler=str(properties["Handler"]),
                code_dir=(self.path.parent / str(properties["CodeUri"])).resolve(),
                layer_dirs=tuple(layer for layer in layers if layer is not None),
                environment={key: self.resolve(value) for key, value in variables.items()},
                timeout_seconds=int(properties.get("Timeout", 3)),
                memory_mb=int(properties.get("MemorySize", 128)),
                routes=tuple(self._routes_of(name, properties)),
            )
        return functions

    @property
    def routes(self) -> list[Route]:
        return [route for function in self.functions.values() for route in function.routes]

    @staticmethod
    def _routes_of(function: str, properties: dict[str, Any]) -> Iterator[Route]:
        for event in (properties.get("Events") or {}).values():
            if event.get("Type") != "HttpApi":
                continue
            details = event.get("Properties") or {}
            path = str(details.get("Path", "$default"))
            method = str(details.get("Method", "ANY")).upper() if path != "$default" else "ANY"
            yield Route(method=method, path=path, function=function)

    def _with_globals(self, properties: dict[str, Any]) -> dict[str, Any]:
        """SAM's Globals rules: the function's own scalars win, maps merge, lists add up (Globals first)."""
        defaults = ((self.data.get("Globals") or {}).get("Function")) or {}
        merged: dict[str, Any] = _merge(defaults, properties)
        return merged

    def _layer_dir(self, layer: Any) -> Path | None:
        """The ContentUri of a layer declared in this template (layers given by ARN have no local copy)."""
        if isinstance(layer, dict) and "Ref" in layer:
            resource = self.resources.get(layer["Ref"]) or {}
            content = (resource.get("Properties") or {}).get("ContentUri")
            if content:
                return (self.path.parent / str(content)).resolve()
        return None

    # -- the edge ----------------------------------------------------------------------------------------
    def origin_headers(self, origin_id: str = "api") -> dict[str, str]:
        """The headers CloudFront adds to every request it sends to the origin ``origin_id`` (resolved)."""
        for resource in self.resources.values():
            if resource.get("Type") != "AWS::CloudFront::Distribution":
                continue
            config = (resource.get("Properties") or {}).get("DistributionConfig") or {}
            for origin in config.get("Origins") or ():
                if origin.get("Id") == origin_id:
                    return {
                        str(item["HeaderName"]): self.resolve(item["HeaderValue"])
                        for item in origin.get("OriginCustomHeaders") or ()
                    }
        return {}

    def security_headers(self) -> dict[str, str]:
        """The response headers of the template's CloudFront response-headers policy, as a viewer gets them."""
        for resource in self.resources.values():
            if resource.get("Type") != "AWS::CloudFront::ResponseHeadersPolicy":
                continue
            config = (resource.get("Properties") or {}).get("ResponseHeadersPolicyConfig") or {}
            return security_headers_of(config.get("SecurityHeadersConfig") or {})
        return {}

    def removed_headers(self) -> frozenset[str]:
        """The headers (lower case) the template's CloudFront response-headers policy removes (``Server``)."""
        for resource in self.resources.values():
            if resource.get("Type") != "AWS::CloudFront::ResponseHeadersPolicy":
                continue
            config = (resource.get("Properties") or {}).get("ResponseHeadersPolicyConfig") or {}
            items = (config.get("RemoveHeadersConfig") or {}).get("Items") or ()
            return frozenset(str(item["Header"]).lower() for item in items)
        return frozenset()

    # -- intrinsic functions, resolved to local stand-ins -----------------------------------------------
    def resolve(self, value: Any) -> str:
        if isinstance(value, (str, int, float, bool)):
            return str(value).lower() if isinstance(value, bool) else str(value)
        if isinstance(value, dict) and len(value) == 1:
            ((function, argument),) = value.items()
            if function == "Ref":
                return self._ref(str(argument))
            if function == "Fn::GetAtt":
                resource, attribute = argument if isinstance(argument, list) else str(argument).split(".", 1)
                return self._get_att(str(resource), str(attribute))
            if function == "Fn::Sub":
                text, variables = (argument, {}) if isinstance(argument, str) else argument
                return self._sub(str(text), {key: self.resolve(item) for key, item in variables.items()})
            if function == "Fn::Join":
                separator, items = argument
                return str(separator).join(self.resolve(item) for item in items)
            if function == "Fn::Select":
                index, items = argument
                return self.resolve(self._list(items)[int(index)])
        raise ValueError(f"the local runner cannot resolve {value!r} in {self.path.name}")

    def _list(self, value: Any) -> list[Any]:
        """A list, or an intrinsic that makes one (Fn::Split)."""
        if isinstance(value, list):
            return value
        if isinstance(value, dict) and set(value) == {"Fn::Split"}:
            separator, text = value["Fn::Split"]
            return self.resolve(text).split(str(separator))
        raise ValueError(f"the local runner cannot resolve {value!r} in {self.path.name}")

    def _ref(self, name: str) -> str:
        pseudo = {
            "AWS::Region": self.region,
            "AWS::AccountId": LOCAL_ACCOUNT,
            "AWS::Partition": "aws",
            "AWS::StackName": "ubao-local",
            "AWS::StackId": f"arn:aws:cloudformation:{self.region}:{LOCAL_ACCOUNT}:stack/ubao-local/{LOCAL_STACK_UUID}",
            "AWS::URLSuffix": "amazonaws.com",
        }
        if name in pseudo:
            return pseudo[name]
        if name in self.parameters:
            return self.resolve(self.parameters[name].get("Default", ""))
        if name in self.resources:
            return name  # local resources are named by their logical id
        raise ValueError(f"!Ref {name}: no such parameter or resource in {self.path.name}")

    def _get_att(self, resource: str, attribute: str) -> str:
        if resource not in self.resources:
            raise ValueError(f"!GetAtt {resource}.{attribute}: no such resource in {self.path.name}")
        if attribute.endswith("Arn"):
            service = self.resources[resource]["Type"].split("::")[1].lower()
            return f"arn:aws:{service}:{self.region}:{LOCAL_ACCOUNT}:{resource}"
        return f"{resource}.{attribute}"

    def _sub(self, text: str, variables: dict[str, str]) -> str:
        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in variables:
                return variables[name]
            if "." in name and not name.startswith("AWS::"):
                return self._get_att(*name.split(".", 1))
            return self._ref(name)

        return _SUB_VARIABLE.sub(replace, text)


def security_headers_of(config: dict[str, Any]) -> dict[str, str]:
    """CloudFront's SecurityHeadersConfig as the header lines it adds (names as CloudFront sends them)."""
    headers: dict[str, str] = {}
    hsts = config.get("StrictTransportSecurity")
    if hsts:
        value = f"max-age={int(hsts['AccessControlMaxAgeSec'])}"
        value += "; includeSubDomains" if hsts.get("IncludeSubdomains") else ""
        value += "; preload" if hsts.get("Preload") else ""
        headers["Strict-Transport-Security"] = value
    if config.get("ContentTypeOptions"):
        headers["X-Content-Type-Options"] = "nosniff"
    if config.get("FrameOptions"):
        headers["X-Frame-Options"] = str(config["FrameOptions"]["FrameOption"])
    if config.get("ReferrerPolicy"):
        headers["Referrer-Policy"] = str(config["ReferrerPolicy"]["ReferrerPolicy"])
    if config.get("XSSProtection"):
        protection = config["XSSProtection"]
        headers["X-XSS-Protection"] = (
            "1; mode=block" if protection.get("ModeBlock") else str(int(protection["Protection"]))
        )
    if config.get("ContentSecurityPolicy"):
        headers["Content-Security-Policy"] = " ".join(
            str(config["ContentSecurityPolicy"]["ContentSecurityPolicy"]).split()
        )
    return headers


def _merge(defaults: Any, own: Any) -> Any:
    if isinstance(defaults, dict) and isinstance(own, dict):
        merged = dict(defaults)
        for key, value in own.items():
            merged[key] = _merge(defaults[key], value) if key in defaults else value
        return merged
    if isinstance(defaults, list) and isinstance(own, list):
        return [*defaults, *own]
    return own


def load(path: Path = TEMPLATE) -> Template:
    return Template(path)
