"""The :class:`Provider` record: every fact one provider folder contributes, declared in one place.

Why it exists: a provider's facts used to be spread over tables outside its folder (the diff's
stop classes and id families, the span's provider name, the conformance table, the error shapes):
a new provider that forgot one was silently mislabelled. Each folder's ``__init__`` now declares
one record with every fact as a keyword argument (none has a default: a forgotten one is a
``TypeError`` when the folder loads, and ``tests/unit/test_provider_registry.py`` resolves each).

Cheap to declare: the folder's ``__init__`` imports only this module. A fact that lives in a module
of its own is given as a reference, ``".stream:AnthropicMessages"`` (relative to the folder) or
``"inspector.providers.anthropic.answer:stop_class"``, imported the first time it is read (``check`` of
an Anthropic stream loads the Anthropic ``sniff`` module and dialect and no other provider's module,
and no command loads the mutations unless it mutates). Reading a fact is plain attribute access: ``provider.dialect``.

Imports: nothing of the project at run time (the types are for the checker only).
"""
from __future__ import annotations

from importlib import import_module
from inspector.model.static import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from inspector.model.clients import ClientBehaviour
    from inspector.model.events import EventRecord
    from inspector.providers.base import Dialect
    from inspector.providers.endpoint import Endpoint
    from inspector.providers.conformance import Conformance, Turn
    from inspector.providers.history import HistoryShape
    from inspector.providers.tools import Reader

T = TypeVar("T")


def resolve(package: str, ref: str) -> Any:
    """The object ``ref`` names: ``"module:attr"``, the module relative to ``package`` when it starts
    with a dot. Raises ``ImportError``/``AttributeError`` for a name that does not exist."""
    module, _, attr = ref.partition(":")
    obj: Any = import_module(module, package)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


class _Ref(Generic[T]):
    """A fact given as a ``"module:attr"`` reference (or None, or the object itself), imported on first read."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, obj: Any, owner: Any = None) -> T:
        value = getattr(obj, self.slot)
        if isinstance(value, str):
            value = resolve(obj.package, value)
            setattr(obj, self.slot, value)
        return value  # type: ignore[no-any-return]  # resolved references are typed by the field


ERROR_SHAPES = ("anthropic", "openai", "google", "ollama", "message", "aws-json")
"""The request-error body shapes ``inspector.providers.errors`` writes (a provider names its own)."""


class Provider:
    """Everything one provider folder contributes (see the module docstring). Every argument is a
    keyword and required; ``None`` where a fact does not apply says so explicitly."""

    # Facts that live in the folder's modules, imported on first read.
    sniff: _Ref[Callable[[EventRecord], bool] | None] = _Ref()
    """``sniff(ev) -> bool``: this event alone identifies the dialect (the folder's small ``sniff``
    module: detection imports no dialect, and stops loading sniffs at the first that says yes)."""
    sniff_url: _Ref[Callable[[str], bool] | None] = _Ref()
    """``sniff_url(url) -> bool``: a request URL identifies the dialect when no event does."""
    dialect: _Ref[type[Dialect]] = _Ref()
    """The stream dialect class (its ``name`` is ``dialect_name``)."""
    endpoint: _Ref[Endpoint] = _Ref()
    """How to reach its streaming endpoint (``live``, the proxy's routes, ``run``'s base-URL variables)."""
    prepare: _Ref[Callable[[dict, str | None], tuple[dict, str, dict]]] = _Ref()
    """``prepare(body, key) -> (body, path, headers)``: streaming switched on, the URL path (model
    filled in), and the provider's auth and version headers. Raises ``ValueError`` with one line."""
    summarize: _Ref[Callable[[dict, EventRecord], str | None]] = _Ref()
    """A one-line summary of an event's parsed payload for the event log, or None for the generic one."""
    advice: _Ref[dict] = _Ref()
    """``{family letter: advice text}`` for findings of this provider's rules (what to do in general)."""
    explain: _Ref[dict | None] = _Ref()
    """``{code: RuleText}``: each of this provider's rules in the user's terms (the explain screen); None
    when another provider's table explains its codes."""
    history: _Ref[HistoryShape | None] = _Ref()
    """The request reader: where this provider's requests carry history and how that shape reads into the
    provider-neutral ``inspector.model.history.History`` the Q rules judge; None when another shape reads it."""
    declared_tools: _Ref[Reader | None] = _Ref()
    """``read(body) -> DeclaredTools | None``: the tools a request declares (V rules)."""
    stop_class: _Ref[Callable[[str | None], str | None]] = _Ref()
    """Its stop reason as ``tool``/``end``/``length``/``refusal``/``error`` (None when unknown): the diff."""
    read_answer: _Ref[Callable[[object], Turn] | None] = _Ref()
    """A non-streamed answer body as a ``Turn`` (raises ``ValueError`` when it is not one); None: no reader."""
    clients: _Ref[Mapping[str, ClientBehaviour] | None] = _Ref()
    """What its official SDK does with streams that break its rules (``{key: ClientBehaviour}``, each row
    measured against the pinned SDK; the sentences its findings and advice quote); None: it has no rows
    of its own (the shared ones of ``inspector.model.clients`` may still apply)."""

    __slots__ = ("name", "dialect_name", "package", "priority", "_sniff", "_sniff_url", "tool_stop", "id_family",
                 "ids_optional", "result_id", "otel_name", "otel_operation", "otel_hosts", "error_shape",
                 "meanings", "usage_keys", "conform", "conform_capture", "_conformance", "_dialect", "_endpoint", "_prepare", "_summarize",
                 "_advice", "_explain", "_history", "_declared_tools", "_stop_class", "_read_answer", "_clients")

    def __init__(self, *, name: str, package: str, dialect_name: str, priority: int | None,
                 sniff: str | None, sniff_url: str | None,
                 dialect: str, endpoint: str, prepare: str, summarize: str, advice: str, explain: str | None,
                 history: str | None, declared_tools: str | None, stop_class: str, read_answer: str | None, clients: str | None,
                 tool_stop: bool, id_family: str, ids_optional: bool, result_id: str,
                 otel_name: str, otel_operation: str, otel_hosts: tuple[str, ...], error_shape: str,
                 meanings: "Mapping[str, tuple[str, ...]]", usage_keys: "Mapping[str, tuple[str, ...]]", conform: "tuple[str, str, str | None] | None",
                 conform_capture: str | None) -> None:
        self.name = name
        """The ``live --provider`` name (``anthropic``, ``openai``...)."""
        self.package = package
        """The folder's module (``__name__``): relative references start there."""
        self.dialect_name = dialect_name
        """The stream dialect's name (SPEC.md: ``anthropic-messages``, ``openai-chat``...)."""
        self.priority = priority
        """Detection order, lowest first: typed-event dialects before the shapes only a key identifies
        (a Responses event also has fields a Chat sniff could accept). None: this provider reuses
        another's dialect and never detects (``sniff`` None too): the owner of the dialect does."""
        self._sniff, self._sniff_url = sniff, sniff_url
        self.tool_stop = tool_stop
        """It has a stop reason of its own for tool calls (Anthropic ``tool_use``, Chat ``tool_calls``);
        the others end a tool turn like any turn (Gemini ``STOP``, Responses ``completed``)."""
        self.id_family = id_family
        """Providers that mint tool-call ids the same way share a family: a gateway translating between
        two families may rewrite ids (``toolu_…`` → ``call_…``); within one it must keep them (the diff)."""
        self.ids_optional = ids_optional
        """Its tool calls often carry no id at all (Gemini ``functionCall.id`` and Ollama's are optional)."""
        self.result_id = result_id
        """The block attribute a tool result quotes (``id``; Responses: ``call_id``)."""
        self.otel_name = otel_name
        """``gen_ai.provider.name`` (OpenTelemetry GenAI semconv well-known values: ``anthropic``, ``openai``,
        ``gcp.gemini``, ``aws.bedrock``…; a provider the convention does not list names itself)."""
        self.otel_operation = otel_operation
        """``gen_ai.operation.name`` of a streamed call (semconv: ``chat``, ``generate_content``…)."""
        self.otel_hosts = otel_hosts
        """Regular expressions of its API hosts: a stream from one of them is ``otel_name`` whatever dialect
        it speaks (Cohere's OpenAI-compatible endpoint is still ``cohere``)."""
        self.error_shape = error_shape
        """How it writes a request error, one of :data:`ERROR_SHAPES` (``inspector.providers.errors``)."""
        self.meanings = meanings
        """``{meaning: its codes}``: which of its rule codes state a meaning other dialects state with theirs
        (Anthropic's A007 and Chat's C003 are one ``stop-reason-mismatch``; ``inspector.compare.diff.meaning``)."""
        self.usage_keys = usage_keys
        """``{semconv usage attribute: its usage fields}`` (``gen_ai.usage.input_tokens``: ``("input_tokens",)``),
        looked up in the usage it reports and that usage's ``*_details`` objects (the OTel span)."""
        self.conform = conform
        """``(mutations, answer, content faults)`` module references (content faults may be None) for
        ``conform`` and ``serve --mutate``; None: no conformance support."""
        self.conform_capture = conform_capture
        """The bundled capture (``inspector.capture.bundled.captures_dir``) its mutations apply to by default
        (``conform --client``: a clean tool-call stream); None: the user gives one with ``--capture``."""
        self._conformance: Conformance | None = None
        self._dialect, self._endpoint, self._prepare, self._summarize = dialect, endpoint, prepare, summarize
        self._advice, self._explain, self._history, self._declared_tools = advice, explain, history, declared_tools
        self._stop_class, self._read_answer, self._clients = stop_class, read_answer, clients
        if error_shape not in ERROR_SHAPES:
            raise ValueError(f"{name}: unknown error shape {error_shape!r} (one of {', '.join(ERROR_SHAPES)})")
        if (priority is None) != (sniff is None):
            raise ValueError(f"{name}: a provider detects (priority and sniff) or reuses a dialect (neither)")

    @property
    def conformance(self) -> "Conformance | None":
        """What it gives ``conform`` and ``serve --mutate`` (``inspector.providers.conformance``), built
        on first read; None when it has none."""
        if self.conform is None:
            return None
        if self._conformance is None:
            of = resolve(__name__, "inspector.providers.conformance:of")  # only conform and serve load it
            mutations, answer, content = (resolve(self.package, m) if m else None for m in self.conform)
            self._conformance = of(mutations, answer, content, tool_stop=self.tool_stop)
        return self._conformance

    def __repr__(self) -> str:
        return f"Provider({self.name!r}, dialect {self.dialect_name!r})"
