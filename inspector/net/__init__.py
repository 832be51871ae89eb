"""The network: ``live`` (a request sent, its answer as a source), ``proxy`` (a pass-through endpoint
that feeds every exchange to the exchange log), ``serve`` (captures answered as a mock provider),
``servers`` (loopback sockets and uvicorn set-up), ``eager`` (one request sent with and without
eager input streaming), ``launch`` (``run``: the SDK variables pointed at the proxy, the agent
process), ``otlp`` (``--otlp``: spans sent to an OpenTelemetry collector).
May import: ``inspector.report``, ``inspector.compare``, ``inspector.feeds`` and the layers below; never
the TUI (the CLI wires the two).
"""
