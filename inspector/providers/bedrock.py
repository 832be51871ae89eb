"""What the two AWS Bedrock dialects share: the runtime endpoint, the model in the path, exceptions.

Bedrock answers streaming calls with the AWS event-stream binary framing
(``inspector.framing.eventstream``); each message's ``:event-type`` is the event name. The request
side (botocore ``data/bedrock-runtime/2023-09-30/service-2.json``):

- ``POST /model/{modelId}/invoke-with-response-stream``: InvokeModelWithResponseStream, the
  model's own body (Anthropic Messages with ``anthropic_version: bedrock-2023-05-31``);
- ``POST /model/{modelId}/converse-stream``: ConverseStream, one body shape for every model.

``modelId`` is percent-encoded in the path (``:`` of a version suffix included), as botocore does.
Requests are signed with SigV4 (service ``bedrock``) or carry a Bedrock API key as a bearer token
(``AWS_BEARER_TOKEN_BEDROCK``); ``inspector.net.sigv4`` signs, this module only says how.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from inspector.providers.endpoint import BaseVar, Endpoint, Unredirected

SIGNING_NAME = "bedrock"
"""The SigV4 service name of ``bedrock-runtime`` (its ``signingName``)."""
TOKEN_ENV = "AWS_BEARER_TOKEN_BEDROCK"
"""A Bedrock API key, sent as ``authorization: Bearer …`` instead of a SigV4 signature."""
DEFAULT_BASE = "https://bedrock-runtime.{region}.amazonaws.com"
"""``{region}`` comes from ``AWS_REGION``/``AWS_DEFAULT_REGION`` or the AWS profile."""
REGION_ENV = ("AWS_DEFAULT_REGION", "AWS_REGION")
"""Where the region of a ``bedrock-runtime`` client comes from: botocore reads ``AWS_DEFAULT_REGION``
(``configprovider.py``), other AWS SDKs ``AWS_REGION``."""


def runtime_base(environ: Mapping[str, str]) -> str:
    """The bedrock-runtime endpoint of the region in ``AWS_DEFAULT_REGION``/``AWS_REGION``
    (``us-east-1`` when neither is set: a profile's region is not read here, so ``run`` says to set
    one)."""
    region = next((environ[v].strip() for v in REGION_ENV if environ.get(v, "").strip()), "us-east-1")
    return DEFAULT_BASE.format(region=region)


RUNTIME_DEFAULT = ("`https://bedrock-runtime.REGION.amazonaws.com`, REGION from `AWS_DEFAULT_REGION` or "
                   "`AWS_REGION` (else `us-east-1`: set one when the region comes from a profile)")
BASE_ENV = (
    # botocore ``configprovider.py``: ``AWS_ENDPOINT_URL_<SERVICE_ID>`` for one service, before the
    # global ``AWS_ENDPOINT_URL``. Only the service-specific one is set: the global one would send the
    # agent's S3, STS, DynamoDB… clients to the proxy too.
    BaseVar("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "boto3 / botocore `bedrock-runtime` clients (langchain-aws, "
            "pydantic-ai's Bedrock provider)", RUNTIME_DEFAULT, route="bedrock", fallback=("AWS_ENDPOINT_URL",),
            default_from=runtime_base),
    # litellm ``bedrock/base_aws_llm.py`` ``get_runtime_endpoint``: its own variable, not botocore's.
    BaseVar("AWS_BEDROCK_RUNTIME_ENDPOINT", "LiteLLM's Bedrock provider", RUNTIME_DEFAULT, route="bedrock",
            default_from=runtime_base),
)
"""Where boto3/botocore read the bedrock-runtime endpoint."""
UNREDIRECTED = (
    Unredirected("botocore ignores every endpoint variable while AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is set: "
                 "Bedrock traffic goes straight to AWS", when_set=("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",)),
)
EVENTSTREAM = "application/vnd.amazon.eventstream"

EXCEPTIONS = frozenset({"internalServerException", "modelStreamErrorException", "validationException",
                        "throttlingException", "modelTimeoutException", "serviceUnavailableException"})
"""In-stream exception events of ResponseStream and ConverseStreamOutput (service-2.json); any
other ``…Exception`` name is one too (``Dialect.generic_error`` reports them as S006)."""


def endpoint(operation: str) -> Endpoint:
    """The Bedrock runtime endpoint of one streaming operation path (``{model}`` filled by ``prepare``)."""
    return Endpoint(DEFAULT_BASE, f"/model/{{model}}/{operation}", TOKEN_ENV, accept=EVENTSTREAM,
                    base_env=BASE_ENV, aws_service=SIGNING_NAME, unredirected=UNREDIRECTED)


def model_path(body: dict, template: str) -> tuple[dict, str]:
    """Take the model id out of ``body`` (``modelId`` or ``model``) into the path.

    Raises ``ValueError`` (one line) when there is none: Bedrock names the model in the URL.
    """
    body = dict(body)
    model = body.pop("modelId", None)
    alt = body.pop("model", None)
    model = model if isinstance(model, str) and model else alt
    if not isinstance(model, str) or not model:
        raise ValueError('the request needs "model" (or "modelId"): the Bedrock model id or inference profile, '
                         'e.g. "anthropic.claude-3-5-haiku-20241022-v1:0"; Bedrock takes it in the URL')
    return body, template.replace("{model}", quote(model, safe=""))


def bearer(key: str | None) -> dict:
    """The auth header for a Bedrock API key (None: SigV4 signing or no auth)."""
    return {"authorization": f"Bearer {key}"} if key else {}
