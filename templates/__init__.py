"""Data files of the judge, shipped inside the package as judge.data.templates (see judge/data/__init__.py)."""
