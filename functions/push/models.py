"""The push routes' request and response models; they check a subscription with ``push.domain``'s rules."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from push.domain import (
    AUTH_SECRET_BYTES,
    DEFAULT_KINDS,
    KINDS,
    MAX_ENDPOINT_BYTES,
    Kind,
    Lang,
    Subscription,
    b64url_decode,
    check_endpoint,
    check_p256_point,
    check_time_zone,
)


def _auth_secret(value: str) -> str:
    if len(b64url_decode(value)) != AUTH_SECRET_BYTES:
        raise ValueError(f"must be {AUTH_SECRET_BYTES} bytes, base64url")
    return value


def _in_order(kinds: list[Kind]) -> list[Kind]:
    return [kind for kind in KINDS if kind in kinds]  # each once, in one order


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")

    p256dh: Annotated[str, AfterValidator(check_p256_point)] = Field(
        max_length=100, description="The browser's P-256 public key, base64url (65 bytes)."
    )
    auth: Annotated[str, AfterValidator(_auth_secret)] = Field(
        max_length=40, description="The browser's auth secret, base64url (16 bytes)."
    )


class SubscriptionRequest(BaseModel):
    """``PushSubscription.toJSON()`` with the language of the notifications and the kinds wanted."""

    model_config = ConfigDict(extra="forbid")

    endpoint: Annotated[str, AfterValidator(check_endpoint)] = Field(
        max_length=4 * MAX_ENDPOINT_BYTES, description="The push service's URL for this browser."
    )
    expirationTime: int | float | None = Field(
        default=None, ge=0, description="When the subscription ends (epoch ms), or null."
    )
    keys: SubscriptionKeys
    lang: Lang = Field(description="The language of the notifications' text.")
    kinds: Annotated[list[Kind], AfterValidator(_in_order)] = Field(
        default=list(DEFAULT_KINDS), min_length=1, max_length=len(KINDS), description="What to be notified of."
    )
    tz: Annotated[str, AfterValidator(check_time_zone)] = Field(
        default="UTC", max_length=64, description="The IANA time zone of the daily puzzle's 08:00 (default UTC)."
    )

    def subscription(self, now_ms: int) -> Subscription:
        expires = None if self.expirationTime is None else int(self.expirationTime)
        return Subscription(
            endpoint=self.endpoint,
            p256dh=self.keys.p256dh,
            auth=self.keys.auth,
            lang=self.lang,
            kinds=tuple(self.kinds),
            created=now_ms,
            expiration_time=expires,
            tz=self.tz,
        )


class UnsubscribeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(max_length=4 * MAX_ENDPOINT_BYTES, description="The endpoint of the subscription to remove.")


class SubscriptionView(BaseModel):
    """A subscription as listed: no keys."""

    endpoint: str
    expirationTime: int | None
    lang: Lang
    kinds: list[Kind]
    tz: str
    created: int = Field(description="When it was stored (epoch ms).")

    @classmethod
    def of(cls, subscription: Subscription) -> SubscriptionView:
        return cls(
            endpoint=subscription.endpoint,
            expirationTime=subscription.expiration_time,
            lang=subscription.lang,  # type: ignore[arg-type]
            kinds=list(subscription.kinds),  # type: ignore[arg-type]
            tz=subscription.tz,
            created=subscription.created,
        )


class SubscriptionList(BaseModel):
    subscriptions: list[SubscriptionView] = Field(description="Newest first; at most 10.")


class Unsubscribed(BaseModel):
    deleted: bool = Field(description="Whether a subscription with that endpoint was there.")


class PushKey(BaseModel):
    public_key: str = Field(description="The VAPID public key (uncompressed P-256 point, base64url).")
