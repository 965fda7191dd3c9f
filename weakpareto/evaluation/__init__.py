"""Scoring a discovered equation against a benchmark's truth: matching, recovery flags, errors
(docs/method/metrics.md)."""
