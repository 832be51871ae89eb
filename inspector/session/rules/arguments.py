"""J rules: tool arguments, judged on each tool block's accumulated text (every dialect).

``shared/RULES.md`` section J. The JSON state comes from the block's ``JsonProgress`` (one pass
over every character, O(total length)); each rule below reads that state at the moment that
decides it: a fragment (J001, J003, J006), the block's closing event (J002, J004, J007), or the
end of the stream with the block still open (J005).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

import orjson

from inspector.model.jsondepth import MAX_DEPTH, TOO_DEEP, depth_over
from inspector.model.jsonprogress import COMPLETE, EMPTY, INVALID, PARTIAL, TRAILING, JsonProgress

if TYPE_CHECKING:
    from inspector.model.blocks import Block
    from inspector.session.session import Session


class ArgumentRules:
    """The J rules of one session; remembers which blocks already got J006 (once per block)."""

    __slots__ = ("s", "_resent", "_add_delta")

    def __init__(self, session: "Session") -> None:
        self.s = session
        self._add_delta = session.add_delta
        self._resent: set[int] = set()
        """Positions of blocks J006 already fired for."""

    def resent(self, block: "Block") -> bool:
        """J006 already fired for ``block`` (it fires once per block)."""
        return block.pos in self._resent

    def fragment(self, block: "Block", fragment: str) -> None:
        """One argument delta: J006 args-resent judged before it is added; J001 args-invalid or
        J003 args-trailing-data when it turns the text into one (hot: once per delta)."""
        prog = block.progress
        if prog is None:
            block.progress = prog = JsonProgress()
        before = prog.state
        if fragment and prog.length and (len(fragment) >= prog.length or before == COMPLETE) \
                and block.pos not in self._resent and self._is_resend(block, prog, fragment):
            self._resent.add(block.pos)
            self.s.report("J006", f"fragment of {len(fragment)} characters re-sends the "
                          f"{prog.length} characters already accumulated (cumulative snapshot or "
                          "whole object sent again): naive accumulators double the arguments",
                          index=block.index)
        self._add_delta(block, fragment)
        if not fragment:
            return
        after = prog.feed(fragment)
        if after == before:
            return
        if after == INVALID:
            self.s.report("J001", f"arguments are no longer a JSON prefix at character {prog.error_offset}: "
                          f"{prog.error_reason}", index=block.index)
        elif after == TRAILING:
            self.s.report("J003", f"a complete JSON value ends at character {prog.complete_at} and more text "
                          f"follows at {prog.trailing_offset} (two values glued together?)", index=block.index)

    def quiet(self, block: "Block", fragments: list, text: str) -> bool:
        """Judge many argument deltas of ``block`` at once (``fragments``: their strings, in order;
        ``text``: them joined) where taking them one by one through :meth:`fragment` would report
        nothing: True, and the JSON state is fed their text; False, nothing changed (take them one
        by one).

        Nothing fires when the state after all of them is neither INVALID nor TRAILING (both are for
        good once reached, so J001/J003 cannot have fired on the way) and no fragment is a J006
        candidate: J006 looks at a fragment at least as long as the text before it, or one that
        follows a complete value; a value other than a number, once complete, stays complete
        (only whitespace may follow), so the text before a fragment was complete exactly when it
        reached the end of the value (a top-level number can grow back into a prefix: refused).
        """
        prog = block.progress
        if prog is None or prog.top_kind == "number":
            return False
        length = prog.length
        # Nothing fed yet (a fresh state): it is fed, and a fresh one takes its place if anything fires.
        # Else a snapshot to go back to.
        snap = prog.snapshot() if length else None
        state = prog.feed(text)
        if state == INVALID or state == TRAILING or prog.top_kind == "number":
            _undo(block, prog, snap)
            return False
        end = prog.complete_at if state == COMPLETE else None  # where the value ends, when it does
        if block.pos not in self._resent:
            before = None  # the text before the fragment at hand, made only for a J006 candidate
            for k, fragment in enumerate(fragments):
                complete = end is not None and length >= end
                if fragment and length and (len(fragment) >= length or complete):
                    if before is None:
                        before = block.content
                    if _resends(fragment, before + "".join(fragments[:k]), length, complete):
                        _undo(block, prog, snap)
                        return False
                length += len(fragment)
        return True

    @staticmethod
    def fresh_call(fragments: list, text: str) -> JsonProgress | None:
        """The JSON state of a new tool block whose missing arguments mean ``{}`` (nothing fed yet),
        fed ``fragments`` (``text``: them joined), when neither :meth:`quiet` for them nor
        :meth:`at_close` right after would report anything (a short call taken whole,
        ``Session.take_call``); None otherwise."""
        prog = JsonProgress()
        state = prog.feed(text)
        if state == INVALID or state == TRAILING or prog.top_kind == "number":
            return None
        if state == COMPLETE:  # ``silent_at_close``'s test, with the text at hand
            if prog.top_kind != "object" or len(text) > MAX_DEPTH and depth_over(text) \
                    or _resent_from_start(fragments, text, prog.complete_at):
                return None
        elif state == PARTIAL or _resent_from_start(fragments, text, None):
            return None
        return prog

    def whole(self, block: "Block", text: str) -> None:
        """Arguments that arrived whole: judged afresh (J001, J003)."""
        block.progress = JsonProgress()
        state = block.progress.feed(text) if text else EMPTY
        if state == INVALID:
            self.s.report("J001", f"arguments are not JSON at character {block.progress.error_offset}: "
                          f"{block.progress.error_reason}", index=block.index)
        elif state == TRAILING:
            self.s.report("J003", f"a complete JSON value ends at character {block.progress.complete_at} and "
                          "more text follows", index=block.index)

    def at_close(self, block: "Block") -> None:
        """J002 incomplete at close, J007 empty, J004 not an object."""
        prog = block.progress
        state = prog.state if prog else EMPTY
        if prog is not None and state == PARTIAL:
            self.s.report("J002", f"closed while the arguments are an incomplete JSON prefix "
                          f"({prog.length} characters, depth {prog.depth}): do not execute",
                          index=block.index)
        elif state == EMPTY and not block.empty_is_object:
            self.s.report("J007", "call finished with no argument text at all (clients expect at least '{}')",
                          index=block.index)
        elif prog is not None and state == COMPLETE and prog.top_kind != "object":
            self.s.report("J004", f"arguments are a complete JSON {prog.top_kind}, not an object",
                          index=block.index)
        if state == COMPLETE and depth_over(block.content):
            self.s.report("S019", f"the arguments are valid JSON {TOO_DEEP}: not parsed (no input), kept as text",
                          index=block.index)

    @staticmethod
    def silent_at_close(block: "Block") -> bool:
        """:meth:`at_close` would report nothing for ``block`` (it changes nothing either way)."""
        prog = block.progress
        if prog is None:
            return block.empty_is_object
        state = prog.state
        if state == COMPLETE:
            if prog.top_kind != "object":
                return False
            text = block.content
            return len(text) <= MAX_DEPTH or not depth_over(text)  # short text: not that deep (no call)
        return state != PARTIAL and (state != EMPTY or block.empty_is_object)

    def at_end(self, block: "Block") -> None:
        """J005: the stream ended with the tool block still open (J004 too when not an object)."""
        prog = block.progress
        what = prog.state if prog else EMPTY
        self.s.report("J005", f"stream ended with this tool call still open (arguments {what}, "
                      f"{prog.length if prog else 0} characters): do not execute it",
                      index=block.index, event=False)
        if prog and prog.state == COMPLETE and prog.top_kind != "object":
            self.s.report("J004", f"arguments are a complete JSON {prog.top_kind}, not an object",
                          index=block.index, event=False)

    @staticmethod
    def _is_resend(block: "Block", prog: JsonProgress, fragment: str) -> bool:
        """J006 for ``fragment`` after the block's text so far (``prog``: its JSON progress)."""
        return _resends(fragment, block.content, prog.length, prog.state == COMPLETE)


def _undo(block: "Block", prog: JsonProgress, snap: tuple | None) -> None:
    """Put back the JSON state ``prog`` had before a feed: ``snap``, or a fresh state (None: nothing was fed)."""
    if snap is not None:
        prog.restore(snap)
    else:
        block.progress = JsonProgress()


def _resent_from_start(fragments: list, text: str, end: int | None) -> bool:
    """J006 (:meth:`ArgumentRules.quiet`'s loop) would fire for one of ``fragments`` fed to a block with
    no text before them (``text``: them joined; ``end``: where the value they complete ends)."""
    length = 0
    for fragment in fragments:
        complete = end is not None and length >= end
        if fragment and length and (len(fragment) >= length or complete) \
                and _resends(fragment, text[:length], length, complete):
            return True
        length += len(fragment)
    return False


def _resends(fragment: str, text: str, length: int, complete: bool) -> bool:
    """J006: the fragment F, at least ``length`` long (the characters judged before it), starts with
    the text A before it, or A is a ``complete`` JSON value and F is a complete value equal to it."""
    if len(fragment) >= length and fragment.startswith(text):
        return True
    if complete:
        try:
            return orjson.loads(fragment) == orjson.loads(text)
        except orjson.JSONDecodeError:
            return False
    return False
