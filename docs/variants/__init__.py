"""The variants' pages, shipped inside the package as judge.data.variant_docs for the web site (judge/web/docs.py;
see judge/data/__init__.py)."""
