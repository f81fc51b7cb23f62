"""Data files of the judge, shipped inside the package as judge.data.migrations (see judge/data/__init__.py)."""
