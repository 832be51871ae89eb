"""SigV4 request signing for AWS providers (Bedrock), through botocore.

Why it exists: ``live --provider bedrock`` must send a request AWS accepts, and the proxy must
forward one: a client signs for the proxy's host, so the proxy signs again for its upstream. botocore (the optional
``bedrock`` extra; a dev dependency) resolves credentials the way every AWS tool does (environment,
``AWS_PROFILE`` and the shared files, SSO, instance roles) and signs with ``SigV4Auth``. It is
imported here, late, only when a request is signed: ``check`` and the other commands never load it.

Raises ``SigningError`` (one line for the user) when botocore is missing or no credentials exist.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping


class SigningError(Exception):
    """Why a request cannot be signed; one line for the user."""


def _botocore():
    try:
        import botocore.auth
        import botocore.awsrequest
        import botocore.credentials
        import botocore.session
    except ImportError:
        raise SigningError("signing AWS requests needs botocore: install the 'bedrock' extra "
                           "(uv sync --extra bedrock, or pip install 'stream-inspector[bedrock]')") from None
    return botocore


def credentials(env: Mapping[str, str] | None = None):
    """The AWS credentials to sign with, or None. ``env`` given (tests): only its
    ``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``/``AWS_SESSION_TOKEN``; else botocore's whole chain."""
    bc = _botocore()
    if env is not None and env is not os.environ:
        key, secret = env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY")
        if key and secret:
            return bc.credentials.Credentials(key, secret, env.get("AWS_SESSION_TOKEN"))
        return None
    try:
        creds = bc.session.Session().get_credentials()
    except Exception as e:  # noqa: BLE001 (a broken profile or SSO cache: say it in one line)
        raise SigningError(f"cannot read AWS credentials: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    return creds.get_frozen_credentials() if creds is not None else None


def region(env: Mapping[str, str] | None = None) -> str | None:
    """``AWS_REGION``, ``AWS_DEFAULT_REGION``, else the profile's region (botocore), else None."""
    env = os.environ if env is None else env
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION"):
        if env.get(name):
            return env[name]
    if env is not os.environ:
        return None
    try:
        return _botocore().session.Session().get_config_variable("region")
    except SigningError:
        return None
    except Exception:  # noqa: BLE001 (an unreadable config file means no region from it)
        return None


def sign(method: str, url: str, headers: Mapping[str, str], body: bytes, *, service: str, region: str,
         creds) -> dict[str, str]:
    """``headers`` plus ``authorization``, ``x-amz-date`` (and ``x-amz-security-token``) for this exact
    request: the same method, URL, header values and body bytes must be sent."""
    bc = _botocore()
    req = bc.awsrequest.AWSRequest(method=method, url=url, data=body, headers=dict(headers))
    bc.auth.SigV4Auth(creds, service, region).add_auth(req)
    return {k.lower(): v for k, v in req.headers.items()}


_SCOPE = re.compile(r"Credential=[^/,\s]+/\d{8}/([^/,\s]+)/([^/,\s]+)/aws4_request")
_REPLACED = frozenset({"authorization", "x-amz-date", "x-amz-security-token"})


def scope_of(authorization: str) -> tuple[str, str] | None:
    """``(region, service)`` of a SigV4 ``authorization`` header value, or None for any other scheme."""
    if not authorization.startswith("AWS4-HMAC-SHA256"):
        return None
    m = _SCOPE.search(authorization)
    return (m.group(1), m.group(2)) if m else None


def resign(method: str, url: str, headers: list[tuple[bytes, bytes]], body: bytes, *, region: str, service: str,
           creds) -> list[tuple[bytes, bytes]]:
    """A SigV4-signed request's headers signed again for ``url`` (the proxy's upstream): the client
    signed for the proxy's host, which AWS would reject. Other headers keep their order and values."""
    kept = [(k, v) for k, v in headers if k.lower().decode("latin-1") not in _REPLACED]
    plain = {k.decode("latin-1"): v.decode("latin-1") for k, v in kept}
    signed = sign(method, url, plain, body, service=service, region=region, creds=creds)
    extra = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in signed.items() if k in _REPLACED]
    return kept + extra
