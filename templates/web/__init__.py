"""The web site's page templates, its style sheet and its one script, shipped inside the package as
judge.data.templates.web (see judge/data/__init__.py and judge/web/pages.py)."""
