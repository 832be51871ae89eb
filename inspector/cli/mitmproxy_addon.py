"""``stream-inspector mitmproxy-addon``: print the path of the mitmproxy addon file
(``inspector.integrations.mitm_addon``) for ``mitmdump -s``."""
from __future__ import annotations


from inspector.cli.codes import EXIT_OK
from inspector.integrations import mitm_addon_path


def run(args) -> int:
    print(mitm_addon_path())
    return EXIT_OK
