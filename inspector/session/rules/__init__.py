"""Rules that are not a dialect's own: stream framing (S), timing (T); the J rules live on the
session's argument API, the dialect families (A, C, R, G, N) in their dialect modules, Q in
``history``. ``catalog`` names them all."""
