"""The terminal UI (Textual): ``app`` (the inspector over one or more feeds), ``screens/`` (help,
explain, timeline, jump, compare, the proxy's exchanges), ``widgets/`` (one widget per file),
``themes`` (theme files loaded into Textual themes), ``series`` (sparkline and chart data),
``layout`` (the sizes the screen adapts to, the maximisable panes, the footer that fits).
May import: ``inspector.report``, ``inspector.compare``, ``inspector.feeds`` and the layers below; never
the network (the CLI hands it feeds).
"""
