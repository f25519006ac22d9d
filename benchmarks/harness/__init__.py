"""The benchmark harness: citation accuracy on labelled data, speed and scale, with baselines.

Run as ``python -m benchmarks`` (or ``attribution bench``); see ``benchmarks/__main__.py``.
"""
