"""V rules: the streamed calls against the request's declared tools (RULES.md section V).

The request is the one that produced the stream (``Session.request``: native captures, proxy,
``run``, ``live``, ``gateway``, ``conform``), or the ``check --request`` file when the capture
recorded none. Each provider folder's ``tools`` module reads its spelling (``Provider.declared_tools``);
this module judges, for every dialect alike:

- V001/V002 once per call, when the call closes (never per delta): its name among the declared
  functions, its complete arguments against the declared schema (``schemas``: compiled once);
- V003/V004 once per response (per choice for Chat), when the response ends: a forced choice
  honoured, parallel calls only when allowed;
- V005 once per schema: what the validator could not judge.

False alarms are the risk (PROTOCOLS.md §8: real answers do not break their requests), so a rule
stays silent where the answer could not be judged: a call still open or incomplete (the J rules
speak), a response cut short (``max_tokens``, an error, a refusal) before it could call, a provider's
own tools (web search, code execution, MCP).
"""
from __future__ import annotations

import copy
import enum
from collections.abc import Callable
from inspector.model.static import TYPE_CHECKING

from inspector.providers import provider_for_dialect
from inspector.model.record import FrozenRecord

if TYPE_CHECKING:
    from typing import Literal

    from inspector.session.rules.schemas import Compiled, Violation
    from inspector.model.blocks import Block
    from inspector.model.severity import Severity
    from inspector.providers.tools import DeclaredTool, DeclaredTools, ToolChoice
    from inspector.session.response import ResponseWriter
    from inspector.session.session import Session

CALL_ENDS = frozenset({"end_turn", "stop_sequence", "tool_use", "stop", "tool_calls", "function_call", "completed",
                       "complete", "tool_call"})
"""Stop reasons (lower-cased, every dialect) of an answer that ended on its own and could have called
a tool: only then is "called none" judged (V003). ``max_tokens``, ``length``, ``refusal``, safety
stops, ``pause_turn`` and errors are not."""

class _Unread(enum.Enum):
    """The declaration not read yet (None is a read that found nothing)."""

    UNREAD = 0


_UNREAD = _Unread.UNREAD


class Verdict(FrozenRecord):
    """What V001/V002 say about one call: the code, the message, a severity where the rule grades it
    (V002 on a tool that is not strict: warning), and the violations."""

    __slots__ = ("code", "message", "severity", "violations")

    code: str
    message: str
    severity: Severity | None
    violations: list[Violation]

    def __init__(self, code: str, message: str, severity: Severity | None = None,
                 violations: list[Violation] | None = None) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "severity", severity)
        object.__setattr__(self, "violations", [] if violations is None else violations)


def judge_call(d: DeclaredTools, name: str | None, args: object,
               compile_tool: "Callable[[DeclaredTool], Compiled]") -> Verdict | None:
    """V001 or V002 for one call named ``name`` with parsed ``args`` (None: incomplete) against ``d``,
    or None when it fits (or cannot be judged: no name, incomplete arguments, no schema).
    ``compile_tool`` compiles a tool's schema (and may report its V005)."""
    if not name:
        return None  # a call without a name is the dialect's finding (C002, A011…)
    tool = d.tools.get(name)
    if tool is None:
        names = sorted(d.tools)
        listed = ", ".join(names[:8]) + (", …" if len(names) > 8 else "") if names else "none"
        return Verdict("V001", f"tool call {name!r} names a function the request did not declare "
                       f"(declared: {listed}); do not run it")
    if tool.schema is None or not isinstance(args, dict):
        return None  # no schema, or incomplete / not an object: J002/J004 say so
    from inspector.session.rules.schemas import violations  # only with declared tools (start-up)
    found, total = violations(compile_tool(tool), args)
    if not found:
        return None
    more = f" (and {total - len(found)} more)" if total > len(found) else ""
    promise = ("the tool is strict: the provider promised conforming arguments" if tool.strict else
               "the tool is not strict, so the provider does not promise conforming arguments")
    return Verdict("V002", f"{name}: " + "; ".join(map(str, found)) + more + f" (schema at {tool.where}; {promise})",
                   None if tool.strict else "warning", found)


class DeclaredRules:
    """The V rules of one session (see the module docstring). ``session`` reports the findings."""

    def __init__(self, session: "Session") -> None:
        self.s = session
        self._declared: DeclaredTools | None | Literal[_Unread.UNREAD] = _UNREAD
        self._compiled: dict[str, Compiled] = {}
        """By tool name, once per session."""
        self._judged: set[int] = set()
        """Positions of calls already judged (V001/V002)."""
        self._noted: set[str] = set()
        """Tools whose V005 notes were reported."""
        self.violations: dict[int, list[Violation]] = {}
        """Block position -> the V002 violations found (the TUI marks their paths)."""

    def __deepcopy__(self, memo: dict) -> "DeclaredRules":
        """Replay checkpoints: the declaration and compiled schemas are read only and shared."""
        new = object.__new__(DeclaredRules)
        memo[id(self)] = new
        new.s = copy.deepcopy(self.s, memo)
        new._declared, new._compiled = self._declared, self._compiled
        new._judged, new._noted = set(self._judged), set(self._noted)
        new.violations = dict(self.violations)
        return new

    # ------------------------------------------------------------------ reading
    @property
    def declared(self) -> DeclaredTools | None:
        """The request's declaration, read on first use (the dialect is known by then), or None."""
        if self._declared is _UNREAD:
            self._declared = self.read((self.s.request or {}).get("body"))
        return self._declared

    def read(self, body: object) -> DeclaredTools | None:
        """What ``body`` declares, read by the session's dialect's provider (None: nothing)."""
        provider = provider_for_dialect(self.s.dialect_name)
        if not isinstance(body, dict) or provider is None or provider.declared_tools is None:
            return None
        try:
            return provider.declared_tools(body)
        except (TypeError, ValueError, AttributeError):  # bad input never crashes: nothing judged
            return None

    def tool_for(self, block: "Block") -> DeclaredTool | None:
        """The declared tool ``block`` calls (None: none, or no declaration)."""
        d = self.declared
        return d.tools.get(block.name) if d is not None and block.name else None

    def use_request(self, body: dict) -> bool:
        """Judge against ``body`` (the ``check --request`` file) when the capture's own request declared
        no tools; every call and response already over is judged now. True when ``body`` is used."""
        if self.declared is not None:
            return False
        self._declared = self.read(body)
        if self._declared is None:
            return False
        for block in self.s.blocks:
            if block.tool and block.closed:
                self.at_close(block)
        for response in self.s.responses:
            self.at_response_end(response)
        return True

    # ------------------------------------------------------------------ per call
    def at_close(self, block: "Block") -> None:
        """V001, V002 (and the tool's V005) for a tool block that just closed."""
        d = self.declared
        if d is None or block.replaced or block.pos in self._judged or block.kind in d.server_kinds:
            return
        self._judged.add(block.pos)
        verdict = judge_call(d, block.name, block.input, self._compile)
        tool = d.tools.get(block.name) if block.name else None
        if tool is not None and tool.schema is not None:
            self._compile(tool)  # a note judging found (a $ref that loops) is V005 too
        if verdict is None:
            return
        if verdict.violations:
            self.violations[block.pos] = verdict.violations
        self._at(block, verdict.code, verdict.message, severity=verdict.severity,
                 cause=(verdict.code, block.name) if verdict.code == "V001" else None)

    def _compile(self, tool: DeclaredTool) -> Compiled:
        compiled = self._compiled.get(tool.name)
        if compiled is None:
            from inspector.session.rules.schemas import Compiled, compile_schema
            compiled = self._compiled[tool.name] = (compile_schema(tool.schema) if tool.schema is not None
                                                    else Compiled(None))
        if tool.name not in self._noted and compiled.notes:
            self._noted.add(tool.name)
            shown = "; ".join(compiled.notes[:4]) + (f" (and {len(compiled.notes) - 4} more)"
                                                      if len(compiled.notes) > 4 else "")
            self.s.report_at("V005", f"{tool.name} (schema at {tool.where}): {shown}", event=None, line=None,
                             t=None, cause=("V005", tool.name))
        return compiled

    def _at(self, block: "Block", code: str, message: str, *, severity: Severity | None = None,
            cause: object = None) -> None:
        """A finding at the event that closed ``block`` (else the one that opened it)."""
        at = block.closed_event if block.closed_event is not None else block.opened_event
        ev = self.s.events[at] if at is not None and at < len(self.s.events) else None
        f = self.s.report_at(code, message[:600], event=at if ev is not None else None,
                             line=ev.line if ev is not None else None, t=ev.t if ev is not None else None,
                             index=block.index, severity=severity, cause=cause)
        f.response = block.response

    # ------------------------------------------------------------------ per response
    def at_response_end(self, response: "ResponseWriter") -> None:
        """V003 and V004 for a response that is over (each Chat choice on its own)."""
        d = self.declared
        if d is None or (d.choice is None and d.no_parallel is None):
            return
        choices: dict = {}
        for b in response.blocks:
            if not b.replaced:
                choices.setdefault(b.choice, []).append(b)
        if not choices:
            choices[None] = []
        for choice, blocks in choices.items():
            calls = [b for b in blocks if b.tool and b.kind not in d.server_kinds]
            served = [b for b in blocks if b.kind in d.server_kinds]
            where = f"choice {choice}: " if choice is not None and len(choices) > 1 else ""
            if d.no_parallel and len(calls) > 1:
                names = ", ".join(str(b.name) for b in calls[:6])
                self._response_finding(response, "V004", f"{where}{len(calls)} tool calls ({names}) although the "
                                       f"request set {d.no_parallel}", choice)
            if d.choice is not None:
                self._choice(response, d, d.choice, calls, served, where, choice)

    def _choice(self, response: "ResponseWriter", d: DeclaredTools, forcing: ToolChoice, calls: list,
                served: list, where: str, choice: int | None) -> None:
        forced = forcing.names
        names = [b.name for b in calls if b.name]
        if (forced is None and (calls or served)) or (forced is not None and forced & set(names)):
            return
        if not calls and not served:
            reason = (response.stop_reason or "").lower()
            if reason not in CALL_ENDS:
                return  # cut short (max_tokens, refusal, error…) before it could call: not judged
            self._response_finding(response, "V003", f"{where}the request forced a tool call ({forcing.spelled}) "
                                   f"and the answer called none (stop reason {response.stop_reason!r})", choice)
            return
        declared = [n for n in names if n in d.tools]
        if not declared:
            return  # only undeclared names: V001 says it
        wanted = ", ".join(sorted(forced)) if forced else "a declared tool"
        self._response_finding(response, "V003", f"{where}the request forced {wanted} ({forcing.spelled}) and the "
                               f"answer called {', '.join(declared[:4])} instead", choice)

    def _response_finding(self, response: "ResponseWriter", code: str, message: str, choice: int | None) -> None:
        f = self.s.report_at(code, message[:600], event=None, line=None, t=None,
                             cause=(code, response.index, choice))
        f.response = response.index
