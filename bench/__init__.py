"""Benchmarks (`make bench`). Figures are reported with a reference measured in the same run."""
