"""The engine's own processes (the command line, the HTTP service, a batch job's Ray actors)
keep torch out.

Nothing at run time uses torch: every model runs on ONNX Runtime. But spaCy's thinc imports
torch whenever it is installed (the training extra, or an environment shared with other work),
and that import costs a process about two seconds and 180 MB before the first answer (the
``attribution attribute`` example on two cores: 4.3 s and 437 MB with torch imported, 2.4 s and
256 MB without; docs/benchmarks.md, "Torch kept out of the engine's own processes"). A process
the engine starts itself marks torch as absent before anything imports it; thinc then runs on
numpy, as it does where torch is not installed.

The library does not do this on import: a program that imports ``attribution`` may use torch,
or spaCy models that need it, itself.
"""

from __future__ import annotations

import sys

__all__ = ["keep_training_libraries_out"]

# what the training extra brings that thinc (spaCy) would import when installed
TRAINING_LIBRARIES = ("torch",)


def keep_training_libraries_out() -> tuple[str, ...]:
    """Mark the training libraries absent in this process (an ``import torch`` raises
    :class:`ModuleNotFoundError`, as where it is not installed), unless one was already
    imported. Call it first thing in a process's entry point.

    Returns:
        The libraries it marked (none where one had been imported already).
    """
    if any(sys.modules.get(name) is not None for name in TRAINING_LIBRARIES):
        return ()
    for name in TRAINING_LIBRARIES:
        sys.modules[name] = None  # type: ignore[assignment]
    return TRAINING_LIBRARIES
