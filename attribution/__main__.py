"""``python -m attribution`` runs the command-line interface."""

from __future__ import annotations

from attribution._cli import console

raise SystemExit(console())
