"""Rules that are not a dialect's own: stream framing (S, ``stream``), timing (T, ``timing``),
tool arguments (J, ``arguments``). The dialect families (A, C, R, G, N) live in their provider
folders, Q (request history) in ``history`` over the history each provider reads; ``inspector.model.catalog``
names them all."""
