"""Benchmarks: runnable programs that measure the engine and write reports (never tests)."""
