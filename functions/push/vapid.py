"""The VAPID key pair (RFC 8292) that signs every push and that browsers subscribe with.

* Deployed: ``VAPID_SECRET_ARN`` names a Secrets Manager secret that the template declares and fills with
  a random string (``VapidSecret``); the P-256 private key is derived from it (HKDF-SHA256, then reduced to
  a scalar in [1, n-1]), so the key is made by CloudFormation, lives only in the secret and never in the
  repository. Read once per instance through Powertools' parameters utility (cached).
* Local (``PUSH_LOCAL_MODE=1``): ``.local/vapid.json`` (or ``VAPID_KEY_FILE``), generated on first use.

Changing the key (a new secret value, or deleting the local file) makes every stored subscription useless:
browsers must subscribe again with the new public key.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from common.errors import DomainError

from push.domain import b64url_decode, b64url_encode, local_mode

SECRET_VARIABLE = "VAPID_SECRET_ARN"
KEY_FILE_VARIABLE = "VAPID_KEY_FILE"
DEFAULT_KEY_FILE = Path(__file__).resolve().parents[2] / ".local" / "vapid.json"
#: The order of the P-256 group (FIPS 186-4, D.1.2.3): private keys are the integers 1 .. n-1.
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_DERIVATION_INFO = b"ubao vapid p-256 v1"


class VapidNotConfigured(DomainError, code="push_not_configured"):
    """Neither a secret (deployed) nor local mode: the functions cannot sign pushes (the API says so: 503)."""


@dataclass(frozen=True)
class VapidKey:
    private_key: Any  # cryptography's EllipticCurvePrivateKey

    @property
    def public_key(self) -> str:
        """The public key as browsers take it (``applicationServerKey``): the uncompressed point, base64url."""
        from cryptography.hazmat.primitives import serialization

        raw = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url_encode(raw)

    @property
    def private_raw(self) -> str:
        """The private scalar, 32 bytes base64url (what ``py_vapid.Vapid.from_raw`` takes)."""
        return b64url_encode(self.private_key.private_numbers().private_value.to_bytes(32, "big"))

    def signer(self) -> Any:
        """A ``py_vapid.Vapid`` for this key (notify function only: py-vapid is in its package)."""
        from py_vapid import Vapid

        return Vapid(private_key=self.private_key)


def key_from_seed(seed: str) -> VapidKey:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    # 48 bytes before reducing mod n - 1: the bias towards small scalars is under 2^-128.
    material = HKDF(algorithm=hashes.SHA256(), length=48, salt=None, info=_DERIVATION_INFO).derive(seed.encode())
    scalar = int.from_bytes(material, "big") % (P256_ORDER - 1) + 1
    return VapidKey(ec.derive_private_key(scalar, ec.SECP256R1()))


def key_from_raw(raw: str) -> VapidKey:
    from cryptography.hazmat.primitives.asymmetric import ec

    return VapidKey(ec.derive_private_key(int.from_bytes(b64url_decode(raw), "big"), ec.SECP256R1()))


def local_key(path: Path) -> VapidKey:
    """The key in ``path``, made and written there first if there is none (created once, never overwritten).

    Several instances start at once on a fresh checkout, so the file appears whole or not at all: written
    under a name of its own, then linked into place (a link fails if another instance got there first: its
    key is the one every instance then reads)."""
    if not path.exists():
        import tempfile

        from cryptography.hazmat.primitives.asymmetric import ec

        key = VapidKey(ec.generate_private_key(ec.SECP256R1()))
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, draft = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".draft")  # mode 0600
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as target:
                json.dump({"private_key": key.private_raw, "public_key": key.public_key}, target)
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft)
    return key_from_raw(json.loads(path.read_text(encoding="utf-8"))["private_key"])


@lru_cache(maxsize=4)
def _cached(secret: str | None, key_file: str | None, local: bool) -> VapidKey:
    if local:  # first: the local runner resolves the template's !Ref VapidSecret to a name, not a secret
        return local_key(Path(key_file) if key_file else DEFAULT_KEY_FILE)
    if secret and secret.startswith("arn:"):  # locally, !Ref VapidSecret is only the resource's name
        from aws_lambda_powertools.utilities import parameters

        return key_from_seed(str(parameters.get_secret(secret, max_age=3600)))
    raise VapidNotConfigured(f"set {SECRET_VARIABLE} (deployed) or PUSH_LOCAL_MODE=1 (local) for the VAPID key")


def vapid_key() -> VapidKey:
    """This deployment's VAPID key (see the module docstring for where it comes from)."""
    return _cached(os.environ.get(SECRET_VARIABLE) or None, os.environ.get(KEY_FILE_VARIABLE) or None, local_mode())
