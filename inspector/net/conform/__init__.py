"""Conformance: grade a server's streams (``conform --provider``) and a client's survival of broken
ones (``serve --mutate``, ``conform --client``).

Lives here: ``mutate`` (captures turned into mutated streams, by the dialect's mutations),
``verdict`` (a client's next request graded against the stream it was sent), ``expect`` (the
mock provider that serves mutated streams and waits for the next request), ``client`` (runs a
client once per mutation), ``matrix`` and ``matrix/*.toml`` (the declarative request matrix per
provider), ``grade`` (one case graded from its session, its expectations and its non-streamed
twin), ``server`` (runs the matrix against a server), ``report`` (text, JSON, JUnit XML, GitHub
annotations for both).
May import: ``inspector.net`` (live client, serve), ``inspector.feeds`` and the layers below;
never the TUI.
"""
