"""Gemini native: the request side (ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).

``POST /v1beta/models/{model}:streamGenerateContent?alt=sse`` (``alt=sse`` gives SSE frames; without
it the answer is one JSON array); the model is in the URL, not the body; the key goes in
``x-goog-api-key``.
"""
from __future__ import annotations

from collections.abc import Mapping

from inspector.providers.endpoint import BaseVar, Endpoint, Unredirected

DEFAULT_BASE = "https://generativelanguage.googleapis.com"
VERSIONS = ("/v1beta", "/v1", "/v1alpha")
"""The Gemini API's versions (google-genai ``api_version``: 3.x asks ``v1`` by default,
``GOOGLE_AI_API_DEFAULT_VERSION``; LiteLLM and this project's ``live`` ``v1beta``, added to a path
that has none)."""
VERTEX_VERSIONS = ("/v1beta1", "/v1")
MULTI_REGIONAL = ("us", "eu")
"""google-genai ``_api_client.py`` ``_MULTI_REGIONAL_LOCATIONS``."""


def vertex_base(environ: Mapping[str, str]) -> str:
    """Vertex AI's endpoint for ``GOOGLE_CLOUD_LOCATION``, as google-genai ``_api_client.py`` picks
    it: unset or ``global``: ``https://aiplatform.googleapis.com``; ``us``/``eu``:
    ``https://aiplatform.LOC.rep.googleapis.com``; else ``https://LOC-aiplatform.googleapis.com``."""
    loc = environ.get("GOOGLE_CLOUD_LOCATION", "").strip()
    if not loc or loc == "global":
        return "https://aiplatform.googleapis.com"
    if loc in MULTI_REGIONAL:
        return f"https://aiplatform.{loc}.rep.googleapis.com"
    return f"https://{loc}-aiplatform.googleapis.com"


BASE_ENV = (
    # google-genai ``_base_url.py`` ``get_base_url``: a root; the client adds ``v1beta/``.
    BaseVar("GOOGLE_GEMINI_BASE_URL", "`google-genai` (Python), Gemini CLI", DEFAULT_BASE, versions=VERSIONS),
    # litellm ``gemini/common_utils.py`` ``get_api_base`` (a root, for ``/v1beta/models``) and
    # ``vertex_llm_base.py`` (``{api_base}/models/{model}:{endpoint}``, no version): the route adds it.
    BaseVar("GEMINI_API_BASE", "LiteLLM", DEFAULT_BASE, versions=VERSIONS),
    # google-genai ``_base_url.py``, Vertex mode (``vertexai=True`` or ``GOOGLE_GENAI_USE_VERTEXAI``).
    BaseVar("GOOGLE_VERTEX_BASE_URL", "`google-genai` in Vertex AI mode",
            "Vertex AI's endpoint for `GOOGLE_CLOUD_LOCATION` (`https://aiplatform.googleapis.com` when unset)",
            route="vertex", versions=VERTEX_VERSIONS, default_from=vertex_base),
)
UNREDIRECTED = (
    # google-genai ``_api_client.py``: with a base URL not on googleapis.com and no explicit
    # ``project``+``location`` (or ``api_key``) argument, the client clears both ("API gateway proxy").
    Unredirected("google-genai in Vertex AI mode, given a base URL, sends paths without projects/…/locations/… "
                 "unless the client is built with project= and location= (or api_key=)",
                 when_set=("GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT")),
)
ENDPOINT = Endpoint(DEFAULT_BASE, "/v1beta/models/{model}:streamGenerateContent?alt=sse", "GEMINI_API_KEY",
                    base_env=BASE_ENV, unredirected=UNREDIRECTED)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """The model moves into the URL path; ``(body, path, headers)``. Raises ``ValueError``
    when the body names no model."""
    body = dict(body)
    model = body.pop("model", None)
    if not isinstance(model, str) or not model.strip():
        raise ValueError('gemini: the request needs a "model" field (e.g. "gemini-2.5-flash"); it goes in the URL')
    body.pop("stream", None)
    path = ENDPOINT.path.format(model=model.strip().removeprefix("models/"))
    return body, path, ({"x-goog-api-key": key} if key else {})
