"""Shapes of Google Cloud identifiers, written once for the parser, the redactor and the
placeholder rules."""

from __future__ import annotations

# A project id: 6 to 30 characters, lower-case letters, digits and hyphens, starting with a letter
# and not ending with a hyphen (what `gcloud projects create` accepts).
PROJECT_ID = r"[a-z][-a-z0-9]{4,28}[a-z0-9]"

# A TPU accelerator type: the generation (`v4`, `v5e`, `v5litepod`, `v6e`) and the slice's size
# (`v4-32`, `v5litepod-16`).
TPU_GENERATION = r"v[2-7][a-z]*"
ACCELERATOR_TYPE = rf"{TPU_GENERATION}-[0-9]{{1,4}}"

# A framework release as pip names it: 2.5.1, 0.4.30, 2.6.0.dev20241107, 2.16.0rc1.
RELEASE = r"[0-9]+(?:\.[0-9]+){1,3}(?:(?:a|b|rc|\.dev|\.post)[0-9]+)?"
