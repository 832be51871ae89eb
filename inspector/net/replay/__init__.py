"""``serve --match DIR``: a recorded conversation served back request by request (``match``: which
recording a request is; ``recordings``: the folder as an index; ``targets``: faults on one turn;
``forward``: ``--record-missing``; ``provider``: the ASGI endpoint)."""
