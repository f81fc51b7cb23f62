"""The judge's read-only web site: every game's page, its map phase by phase, its results and public press.

`pages` makes each page's HTML from the game layer's typed views; `site` serves them (Starlette on uvicorn, in a
thread of `judge serve`), `export` writes the same pages as static files. Nothing here reads the database's tables:
what a page can show is what the views carry (docs/web.md).
"""
