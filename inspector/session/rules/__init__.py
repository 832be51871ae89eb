"""Rules that are not a dialect's own: stream framing (S, ``stream``), timing (T, ``timing``) and
tool arguments (J, ``arguments``). The dialect families (A, C, R, G, N) live in their provider
folders, Q in ``inspector.session.history``; ``inspector.model.catalog`` names them all."""
