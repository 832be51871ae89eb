"""Screens pushed over the inspector: one per file."""
