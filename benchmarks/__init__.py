"""Benchmarks for Osmia's memory engine: speed, memory footprint and retrieval quality.

Run everything with ``benchmarks/run`` (``benchmarks/run --smoke`` for a tiny size);
see docs/performance.md for what is measured and how.
"""
