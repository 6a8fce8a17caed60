"""Widgets of the TUI: they render attributes given to them and post messages up."""
