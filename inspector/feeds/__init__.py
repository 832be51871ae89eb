"""Feeds: sources driven into sessions, and the streams a viewer shows.

Lives here: ``base`` (the ``Feed`` protocol, the ``Driver`` that turns ``Head``/``Chunk``/``End`` into
a session, ``Settings``), ``run`` (a whole capture through a session: ``check``), ``replay``
(``ReplayFeed``: recorded timing, seeking), ``checkpoints`` (session snapshots for cheap seeks
back), ``live`` (``LiveFeed``: an async source) and ``exchanges`` (the proxy's exchanges).
May import: ``inspector.session`` and the layers below it; no network, no Textual.
"""
