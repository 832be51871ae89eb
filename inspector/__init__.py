"""stream-inspector: see, lint, replay and serve LLM streaming responses."""
__version__ = "0.1.0"
