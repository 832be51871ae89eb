"""Every user command of the inspector: its keys, action, footer label, palette and help text.

One table, :data:`COMMANDS`, gives the app its bindings, the command palette (ctrl+p) its
entries and the help screen (``?``) its rows (:func:`main_help_groups`).
"""
from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.screen import Screen

from inspector.tui.quitting import INTERRUPT
from inspector.tui.screens.help import key_text
from inspector.tui.widgets.argument_view import ARGUMENT_KEYS
from inspector.tui.widgets.block_list import BlockList
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList


@dataclass(frozen=True, slots=True)
class Command:
    """One user command: its keys, action, footer label and palette/help text."""

    keys: str
    action: str
    label: str
    title: str
    help: str
    show: bool = True
    key_display: str | None = None

    def binding(self) -> Binding:
        return Binding(self.keys, self.action, self.label, show=self.show, key_display=self.key_display,
                       tooltip=self.help)


COMMANDS: tuple[Command, ...] = (
    # help first: the footer cuts at the right edge of a narrow terminal
    Command("question_mark,f1", "help", "Help", "Help", "List every key binding", key_display="?"),
    Command("space", "toggle_pause", "Pause", "Pause / resume", "Stop or continue playback (at the end: play again)"),
    Command("full_stop,right", "step_forward", "Step", "Step forward", "Show one more event (pauses; replay only)", key_display="."),
    Command("comma,left", "step_back", "Back", "Step back",
            "Show one event fewer: the session is rebuilt from the capture (pauses; replay only)", key_display=","),
    Command("plus,equals_sign", "speed_up", "Faster", "Speed up", "Next faster playback speed", show=False,
            key_display="+"),
    Command("minus", "speed_down", "Slower", "Slow down", "Next slower playback speed", show=False, key_display="-"),
    Command("r", "restart", "Restart", "Restart", "Play the stream again from the start (replay only)", show=False),
    Command("g", "jump", "Go to", "Go to event…", "Jump to event N, forward or back (replay only)"),
    Command("f", "toggle_follow", "Follow", "Follow tail", "Keep the newest event in view in the event log",
            show=False),
    Command("t", "timeline", "Timeline", "Timeline", "When each block's bytes arrived, on one time axis"),
    Command("z", "maximize_pane", "Max", "Maximise pane", "Give the focused pane the whole screen (z again: back)"),
    Command("e", "compare_eager", "Eager", "Compare eager vs buffered (bundled example)",
            "A bundled example: one tool call with and without eager_input_streaming, on one time axis "
            "(your own pair: stream-inspector compare A B)", show=False),
    Command("j", "toggle_json", "JSON", "Pretty JSON / raw", "Show tool arguments as pretty partial JSON or raw text"),
    Command("k", "toggle_schema", "Schema", "Declared schema", "Show beside each tool call the schema its request "
            "declared, with the paths its arguments break (V rules)", show=False),
    Command("slash", "search", "Search", "Search events…", "Search the raw event log (n / N: next / previous match)",
            key_display="/"),
    Command("x", "filter", "Filter", "Filter findings…", "Show only findings whose code, name or message contains text",
            show=False),
    Command("v", "cycle_severity", "Severity", "Cycle severity filter",
            "Show findings of every severity / warnings and errors / errors only", show=False),
    Command("i", "explain", "Explain", "Explain finding", "The highlighted finding's rule and what to do", show=False),
    Command("C", "collapse_all", "Fold detail", "Fold / show the block detail",
            "Fold the highlighted block's detail (the summary rows fill the pane) or show it again", show=False),
    Command("1", "focus_pane('blocks')", "Blocks", "Focus blocks",
            "Move the focus to the blocks list (tab: its arguments, which scroll from their first byte)", show=False),
    Command("2", "focus_pane('findings')", "Findings", "Focus findings", "Move the focus to the findings list",
            show=False),
    Command("3", "focus_pane('log')", "Events", "Focus event log", "Move the focus to the raw event log", show=False),
    Command("right_square_bracket", "next_source", "Next", "Next stream", "Switch to the next stream",
            show=False, key_display="]"),
    Command("left_square_bracket", "prev_source", "Previous", "Previous stream",
            "Switch to the previous stream", show=False, key_display="["),
    Command("y", "copy", "Copy", "Copy", "Copy the highlighted finding, event data or block arguments to the clipboard",
            show=False),
    Command("s", "save", "Save", "Save stream…", "Save the stream shown as a native capture (any mode, live included)",
            show=False),
    Command("o", "open", "Open", "Open capture…", "Open another capture file as one more stream", show=False),
    Command("ctrl+t", "cycle_theme", "Theme", "Next theme", "Cycle through the inspector's themes", show=False),
    Command("q", "quit", "Quit", "Quit", "Leave stream-inspector"),
)


def screen_help_groups(screen: Screen) -> list[tuple[str, list[tuple[str, str]]]]:
    """The keys of a screen shown over the inspector (its own bindings, then the ones that work everywhere)."""
    own = [(key_text(b), b.tooltip or b.description) for b in screen.BINDINGS if isinstance(b, Binding)]
    everywhere = [(key_text(c.binding()), c.help) for c in COMMANDS if c.action in ("help", "cycle_theme", "quit")]
    title = getattr(screen, "HELP_TITLE", None) or type(screen).__name__.removesuffix("Screen")
    return [(title, own), ("Everywhere", everywhere)]


def main_help_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every binding of the inspector's main screen, grouped by where it works (built from the
    binding tables): what ``?`` lists there."""
    groups = [("Main screen", [(key_text(c.binding()), c.help) for c in COMMANDS])]
    groups[0][1].append(("ctrl+p", "Command palette: every command by name"))
    groups[0][1].append((key_text(INTERRUPT), INTERRUPT.tooltip or ""))
    groups[0][1].append(("tab / shift+tab", "Move the focus between panes"))
    for title, bindings in (("Findings list", FindingsList.BINDINGS), ("Event log", EventLog.BINDINGS),
                            ("Blocks list", BlockList.BINDINGS), ("Block arguments", ARGUMENT_KEYS)):
        rows = [(key_text(b), b.tooltip or b.description) for b in bindings if isinstance(b, Binding)]
        if title == "Findings list":
            rows = [("up / down", "Move the highlight"), ("enter / click", "Jump to the event and the block")] + rows
        groups.append((title, rows))
    groups.append(("Search box / filter box", [
        ("enter", "Next match (search) / close the box (filter)"),
        ("esc", "Close the box; what it set stays (the pane's border says so): esc on the list or log clears it")]))
    return groups
