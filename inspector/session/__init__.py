"""The session: one stream's state, fed chunk by chunk, judged as it goes.

Lives here: ``session`` (``Session``: framing → events → dialect → blocks and findings; the
writer dialects write through), ``detect`` (which dialect a stream speaks), ``rules`` (S, T and J
rules), ``history`` (Q rules on the request a client sends next) and ``advice`` (what to do about
a finding).
May import: ``inspector.providers``, ``inspector.framing``, ``inspector.capture`` (redaction) and
``inspector.model``. Pure: no I/O, no clocks, no Textual, no network.
"""
