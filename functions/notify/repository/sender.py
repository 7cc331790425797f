"""Sending one notification to one subscription: RFC 8291 ``aes128gcm`` and RFC 8292 VAPID by ``pywebpush``.

The push service's answer decides what happens next:

* 201 (or any 2xx): sent;
* 404 or 410: the subscription is gone for good (the browser unsubscribed, the app was removed): ``GONE``,
  and the caller deletes it;
* 429 or 5xx, or no answer: retried after ``Retry-After`` (when it says seconds) or a doubling backoff,
  ``attempts`` times in all, then dropped and logged: a push is worth little hours later, and the record
  that caused it must not be retried for ever;
* any other 4xx (our request is wrong for this service): dropped and logged at once.

The retries are urllib3's (``Retry``, mounted on the ``requests`` session pywebpush sends with); only the
wait between two attempts is ours (``PushRetry.sleep``). Each push counts once in the metrics, when its
fate is known: ``PushSent``, or ``PushFailed`` (gone, refused or dropped after its retries).

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
from common.web import metrics
from push.domain import Subscription
from urllib3.util.retry import Retry

logger = Logger(child=True)

SENT, GONE, DROPPED = "sent", "gone", "dropped"
#: RFC 8292: the JWT must expire within 24 hours; 12 leaves room for clock skew.
VAPID_LIFETIME_SECONDS = 12 * 3600
MAX_WAIT_SECONDS = 4.0
#: Seconds to connect, then to wait for the answer: a push service answers in well under a second; an
#: endpoint that does not (a subscription pointing anywhere else) must not hold the function up.
CONNECT_TIMEOUT_SECONDS, READ_TIMEOUT_SECONDS = 2.0, 3.0
#: What urllib3 retries: "busy" and the service's own failures; any other answer is final.
RETRIED_STATUSES = frozenset({429, *range(500, 600)})


@dataclass(frozen=True)
class Push:
    payload: dict[str, Any]
    ttl: int  # seconds the push service keeps it for an offline phone
    urgency: str  # RFC 8030: very-low, low, normal, high


class Sender(Protocol):
    def send(self, subscription: Subscription, push: Push) -> str:
        """``SENT``, ``GONE`` (delete the subscription) or ``DROPPED``."""
        ...


class PushRetry(Retry):
    """urllib3's ``Retry`` with the sender's waits: doubling from ``first_wait``, at least the push service's
    ``Retry-After`` when it gives seconds, at most ``MAX_WAIT_SECONDS``; slept through ``pause`` (the tests
    record the waits instead of sleeping)."""

    def __init__(self, *args: Any, first_wait: float = 0.5, pause: Callable[[float], None] = time.sleep, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.first_wait = first_wait
        self.pause = pause

    def new(self, **kw: Any) -> PushRetry:
        # urllib3 makes a new Retry for each attempt from its own parameters: carry ours over.
        retry = super().new(**kw)
        retry.first_wait, retry.pause = self.first_wait, self.pause
        return retry

    def sleep(self, response: Any = None) -> None:
        self.pause(self.wait(response))

    def wait(self, response: Any = None) -> float:
        """The wait before the next attempt: ``history`` holds the attempts that failed so far."""
        wait = self.first_wait * 2 ** (len(self.history) - 1)
        retry_after = response.headers.get("Retry-After") if response is not None else None
        if retry_after and retry_after.strip().isdigit():
            wait = max(wait, float(retry_after))
        return float(min(wait, MAX_WAIT_SECONDS))


class WebPushSender:
    def __init__(
        self,
        signer: Any,  # a py_vapid.Vapid (push.vapid.VapidKey.signer())
        subject: str,
        attempts: int = 3,
        first_wait: float = 0.5,
        timeout: tuple[float, float] = (CONNECT_TIMEOUT_SECONDS, READ_TIMEOUT_SECONDS),
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.signer = signer
        self.subject = subject
        self.timeout = timeout
        self.retry = PushRetry(
            total=attempts - 1,
            redirect=0,  # a push service never redirects: a 3xx is a refusal, never followed
            status_forcelist=RETRIED_STATUSES,
            allowed_methods=None,  # every method: a push is a POST
            respect_retry_after_header=False,  # which answers are retried is ``RETRIED_STATUSES`` alone
            raise_on_status=False,  # the last answer goes back to pywebpush, which raises with its status
            first_wait=first_wait,
            pause=sleep,
        )
        self._session: Any = None  # a requests.Session, made on the first send

    def send(self, subscription: Subscription, push: Push) -> str:
        outcome = self._send(subscription, push)
        metrics.count(metrics.PUSH_SENT if outcome == SENT else metrics.PUSH_FAILED)
        return outcome

    def _send(self, subscription: Subscription, push: Push) -> str:
        import requests
        from pywebpush import WebPushException, webpush

        if self._session is None:
            self._session = _session(self.retry)
        parts = urlsplit(subscription.endpoint)
        claims = {
            "sub": self.subject,
            "aud": f"{parts.scheme}://{parts.netloc}",
            # Wall-clock time, never an injected one: the push service checks it against its own clock.
            "exp": int(time.time()) + VAPID_LIFETIME_SECONDS,
        }
        try:
            webpush(
                subscription.info(),
                data=json.dumps(push.payload, ensure_ascii=False, separators=(",", ":")),
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
        except requests.RequestException as error:
            status = None
            logger.info("push service unreachable", extra={"host": parts.hostname, "error": type(error).__name__})
        if status in (404, 410):
            return GONE
        if status is not None and status not in RETRIED_STATUSES:
            logger.error("push refused", extra={"host": parts.hostname, "status": status})
            return DROPPED
        logger.warning("push dropped after retries", extra={"host": parts.hostname, "status": status})
        return DROPPED


def _session(retry: Retry) -> Any:
    """A ``requests`` session whose connections retry with ``retry``: one TLS connection per push service.
    It follows no redirect: a subscription's endpoint is the only address a push goes to (a 3xx answer is
    a refusal, dropped), so a subscription cannot point the sender at anything through a redirect."""
    import requests
    from requests.adapters import HTTPAdapter

    class NoRedirects(requests.Session):
        def request(self, *args: Any, **kwargs: Any) -> Any:
            kwargs["allow_redirects"] = False  # pywebpush does not say; requests would follow a POST's 3xx
            return super().request(*args, **kwargs)

    session = NoRedirects()
    session.max_redirects = 0
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session
