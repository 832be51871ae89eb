"""The model: the data every layer of the pipeline passes on, and nothing else.

Lives here: ``capture`` (``Chunk``, ``End``, ``Head``, ``Capture``: what sources yield),
``frames`` (what framing yields), ``events`` (``EventRecord``: what the session records),
``blocks`` (``Block``: what a stream assembles), ``jsonprogress`` (the incremental JSON state of
tool arguments), ``findings`` (``Finding``), ``sizes`` (byte sizes as options take them) and ``catalog`` (the rule codes of
``shared/RULES.md``). Two helpers of the process, not data, shared by the network and TUI layers:
``writes`` (a report written whole) and ``stopsignals`` (SIGTERM and SIGHUP handled as Ctrl+C).
May import: the standard library and orjson. Nothing of the project imports into it (the leaf of
the import-linter layers contract in ``pyproject.toml``).
"""
