"""``python -m attribution`` runs the command-line interface."""

from __future__ import annotations

from attribution._cli import main

raise SystemExit(main())
