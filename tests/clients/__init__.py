"""Agents written the way the official SDKs' docs show, used as clients under every mutation.

Each module has ``run(env)``: two turns against the base URL and key in ``env`` (what
``conform --client`` sets), using the SDK's own stream helper to assemble the answer; the second
turn sends the assistant turn back with the tool results (or, when the answer holds no tool call,
the next user message). Runnable as a script too (``python -m tests.clients.anthropic_agent``),
reading ``os.environ``.
"""
