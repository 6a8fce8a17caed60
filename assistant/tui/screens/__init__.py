"""Screens of the TUI: the main conversation and the modals (help, history, export, values)."""
