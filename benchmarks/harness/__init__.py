"""The benchmark harness: citation accuracy on labelled data, speed and scale, with baselines.

Run as ``python -m benchmarks`` from a checkout; see ``benchmarks/__main__.py``.
"""
