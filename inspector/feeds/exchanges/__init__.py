"""Proxied exchanges as feeds: the record of one exchange, the log that feeds their sessions and
runs the Q rules on each request, the pairing of a request with the answer it continues, and the
feed a viewer reads. Pure: the proxy (``inspector.net.proxy``) hands bytes in on one event loop.
May import: ``inspector.feeds.base`` and the layers below it.
"""
