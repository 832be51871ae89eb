"""Real gateways for the end-to-end tests, installed apart from the project (``litellm``)."""
