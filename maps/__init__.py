"""Data files of the judge, shipped inside the package as judge.data.maps (see judge/data/__init__.py)."""
