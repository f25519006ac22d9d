"""``python -m training {train,export,evaluate,all}``: the support verifier's pipeline."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
