"""Widgets of the inspector: one per file."""
