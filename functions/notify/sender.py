"""Sending one notification to one subscription: RFC 8291 ``aes128gcm`` and RFC 8292 VAPID by ``pywebpush``.

The push service's answer decides what happens next:

* 201 (or any 2xx): sent;
* 404 or 410: the subscription is gone for good (the browser unsubscribed, the app was removed): ``GONE``,
  and the caller deletes it;
* 429 or 5xx, or no answer: retried after ``Retry-After`` (when it says seconds) or a doubling backoff,
  ``attempts`` times in all, then dropped and logged: a push is worth little hours later, and the record
  that caused it must not be retried for ever;
* any other 4xx (our request is wrong for this service): dropped and logged at once.

``pywebpush`` (with ``py-vapid``, ``http-ece``, ``cryptography``, ``requests``) is imported here only, on the
first send: it ships in the notify package alone (functions/notify/requirements.txt).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from aws_lambda_powertools import Logger
from push.domain import Subscription

logger = Logger(child=True)

SENT, GONE, DROPPED = "sent", "gone", "dropped"
#: RFC 8292: the JWT must expire within 24 hours; 12 leaves room for clock skew.
VAPID_LIFETIME_SECONDS = 12 * 3600
MAX_WAIT_SECONDS = 4.0


@dataclass(frozen=True)
class Push:
    payload: dict[str, Any]
    ttl: int  # seconds the push service keeps it for an offline phone
    urgency: str  # RFC 8030: very-low, low, normal, high


class Sender(Protocol):
    def send(self, subscription: Subscription, push: Push) -> str:
        """``SENT``, ``GONE`` (delete the subscription) or ``DROPPED``."""
        ...


class WebPushSender:
    def __init__(
        self,
        signer: Any,  # a py_vapid.Vapid (push.vapid.VapidKey.signer())
        subject: str,
        attempts: int = 3,
        first_wait: float = 0.5,
        timeout: float = 3.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.signer = signer
        self.subject = subject
        self.attempts = attempts
        self.first_wait = first_wait
        self.timeout = timeout
        self.sleep = sleep
        self._session: Any = None  # a requests.Session, made on the first send

    def send(self, subscription: Subscription, push: Push) -> str:
        import requests
        from pywebpush import WebPushException, webpush

        if self._session is None:
            self._session = requests.Session()  # one TLS connection per push service, reused
        parts = urlsplit(subscription.endpoint)
        data = json.dumps(push.payload, ensure_ascii=False, separators=(",", ":"))
        for attempt in range(1, self.attempts + 1):
            claims = {  # a new dict each time: pywebpush writes into it
                "sub": self.subject,
                "aud": f"{parts.scheme}://{parts.netloc}",
                # Wall-clock time, never an injected one: the push service checks it against its own clock.
                "exp": int(time.time()) + VAPID_LIFETIME_SECONDS,
            }
            try:
                webpush(
                    subscription.info(),
                    data=data,
                    vapid_private_key=self.signer,
                    vapid_claims=claims,
                    content_encoding="aes128gcm",
                    ttl=push.ttl,
                    headers={"Urgency": push.urgency},
                    timeout=self.timeout,
                    requests_session=self._session,
                )
                return SENT
            except WebPushException as error:
                status = error.status_code
                retry_after = error.retry_after
            except requests.RequestException as error:
                status, retry_after = None, None
                logger.info("push service unreachable", extra={"host": parts.hostname, "error": type(error).__name__})
            if status in (404, 410):
                return GONE
            if status is not None and status < 500 and status != 429:
                logger.error("push refused", extra={"host": parts.hostname, "status": status})
                return DROPPED
            if attempt < self.attempts:
                self.sleep(self._wait(attempt, retry_after))
        logger.warning("push dropped after retries", extra={"host": parts.hostname, "status": status})
        return DROPPED

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        wait = self.first_wait * 2 ** (attempt - 1)
        if retry_after and retry_after.strip().isdigit():
            wait = max(wait, float(retry_after))
        return float(min(wait, MAX_WAIT_SECONDS))
