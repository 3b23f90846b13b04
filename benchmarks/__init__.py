"""Repeatable benchmarks; recorded results are in benchmarks/RESULTS.md."""
