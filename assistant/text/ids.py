"""Shapes of Google Cloud identifiers, written once for the parser, the redactor and the
placeholder rules."""

from __future__ import annotations

# A project id: 6 to 30 characters, lower-case letters, digits and hyphens, starting with a letter
# and not ending with a hyphen (what `gcloud projects create` accepts).
PROJECT_ID = r"[a-z][-a-z0-9]{4,28}[a-z0-9]"
