"""The site as the judge serves it: Starlette routes over the page functions (`pages`), read from the database
at every request, so a page shows a phase the moment it is processed, without a restart.

The endpoints are plain functions: Starlette runs them in its thread pool, so a page being made never holds up
the event loop that accepts the next request, and the database is read as the mail path reads it (the game
layer's own short transactions). A private game's pages need a pass: a cookie, scoped to the game's pages, that
carries an HMAC of the game's name and its join password's stamp under the judge's web secret.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from judge.config import Config
from judge.game import Games
from judge.game.errors import NoSuchGame
from judge.game.views import PublicHistory
from judge.web import pages
from judge.web.feed import game_feed
from judge.web.frames import phase_svg, start_svg
from judge.web.pages import SiteInfo

PASS_DAYS = 30
"""how long a private game's pass lasts in the browser"""
HISTORIES_KEPT = 64
"""games whose history is kept between requests (a twenty-year game's is about a megabyte of outcomes)"""
FORM_LIMIT = 4096
"""the most a password form's body may hold"""


def load_secret(path: str) -> bytes:
    """The judge's web secret (what a private game's pass is signed with): read from `path`, or made and written
    there (readable by the judge's user alone) on first use, so passes outlive a restart."""
    file = Path(path)
    if file.is_file():
        return bytes.fromhex(file.read_text(encoding="ascii").strip())
    file.parent.mkdir(parents=True, exist_ok=True)
    made = secrets.token_bytes(32)
    descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as out:
        out.write(made.hex() + "\n")
    return made


def site_info(config: Config, exported: bool = False) -> SiteInfo:
    """What the pages say of this judge."""
    return SiteInfo(judge=config.name, address=config.address, code=config.judge_code, exported=exported)


class Site:
    """The pages of one judge, from its game layer."""

    def __init__(self, games: Games, info: SiteInfo, secret: bytes, base_url: str = "") -> None:
        self.games = games
        self.info = info
        self.secret = secret
        self.base_url = base_url
        self._histories: OrderedDict[str, tuple[str, PublicHistory]] = OrderedDict()
        """the histories of the games read last (`HISTORIES_KEPT`), each with its stamp (`Reads.history_stamp`):
        read again when it changes"""
        self._lock = threading.Lock()

    def history(self, name: str) -> PublicHistory:
        """The game's public history, read from the database only when it changed since the last request (a
        twenty-year game's outcomes take tens of milliseconds to load, its stamp one small query)."""
        stamp = self.games.reads.history_stamp(name)
        with self._lock:
            kept = self._histories.get(name)
            if kept is not None and kept[0] == stamp:
                self._histories.move_to_end(name)
                return kept[1]
        history = self.games.reads.public_history(name)
        with self._lock:
            self._histories[name] = (stamp, history)
            self._histories.move_to_end(name)
            while len(self._histories) > HISTORIES_KEPT:
                self._histories.popitem(last=False)
        return history

    # --- private games ---------------------------------------------------------------------------------------

    def _pass(self, name: str) -> str:
        stamp = self.games.reads.access_stamp(name)
        return hmac.new(self.secret, f"{name}\0{stamp}".encode(), hashlib.sha256).hexdigest()

    @staticmethod
    def _cookie(name: str) -> str:
        return f"judge_game_{hashlib.sha256(name.encode()).hexdigest()[:16]}"

    def _allowed(self, request: Request, name: str) -> bool:
        game = self.games.reads.public_game(name)
        if not game.private:
            return True
        given = request.cookies.get(self._cookie(name), "")
        return hmac.compare_digest(given, self._pass(name))

    def _locked(self, name: str, failed: bool = False) -> Response:
        return HTMLResponse(pages.locked_page(self.info, name, failed), status_code=403)

    # --- the pages -------------------------------------------------------------------------------------------

    def index(self, request: Request) -> Response:
        return HTMLResponse(pages.games_page(self.info, self.games.reads.public_games()))

    def help(self, request: Request) -> Response:
        return HTMLResponse(pages.help_page(self.info))

    def static(self, request: Request) -> Response:
        name = request.url.path.rsplit("/", 1)[-1]
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(pages.static_file(name), media_type=kind, headers={"Cache-Control": "max-age=3600"})

    def variant(self, request: Request) -> Response:
        try:
            return HTMLResponse(pages.variant_page(self.info, request.path_params["name"]))
        except KeyError:
            return HTMLResponse("<h1>No such variant</h1>", status_code=404)

    def variant_map(self, request: Request) -> Response:
        from judge.variants import VARIANTS

        name = request.path_params["name"]
        if name not in VARIANTS:
            return Response("no such variant", status_code=404, media_type="text/plain")
        return Response(start_svg(name), media_type="image/svg+xml")

    def game_slash(self, request: Request) -> Response:
        return RedirectResponse(f"/games/{quote(request.path_params['game'])}/", status_code=308)

    def game(self, request: Request) -> Response:
        name = request.path_params["game"]
        if not self._allowed(request, name):
            return self._locked(name)
        reads = self.games.reads
        page = pages.game_page(self.info, reads.public_game(name), self.history(name))
        return HTMLResponse(page)

    def phase(self, request: Request) -> Response:
        name = request.path_params["game"]
        if not self._allowed(request, name):
            return self._locked(name)
        reads = self.games.reads
        try:
            page = pages.phase_page(
                self.info, reads.public_game(name), self.history(name), request.path_params["index"]
            )
        except KeyError:
            return HTMLResponse("<h1>No such phase</h1>", status_code=404)
        return HTMLResponse(page)

    def frame(self, request: Request) -> Response:
        name, which = request.path_params["game"], request.path_params["frame"]
        if not self._allowed(request, name):
            return self._locked(name)
        game = self.games.reads.public_game(name)
        if which == "start":
            return Response(start_svg(game.variant), media_type="image/svg+xml")
        found = next((p for p in self.history(name).phases if str(p.index) == which), None)
        if found is None:
            return Response("no such phase", status_code=404, media_type="text/plain")
        return Response(phase_svg(name, game.variant, found), media_type="image/svg+xml")

    def feed(self, request: Request) -> Response:
        name = request.path_params["game"]
        if not self._allowed(request, name):
            return self._locked(name)
        reads = self.games.reads
        body = game_feed(self.info, reads.public_game(name), self.history(name), self.base_url)
        return Response(body, media_type="application/atom+xml")

    async def unlock(self, request: Request) -> Response:
        """The password form of a private game: the right join password sets the game's pass and opens its page."""
        name = request.path_params["game"]
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_LIMIT:
                return Response("too long", status_code=413, media_type="text/plain")
        password = parse_qs(body.decode("utf-8", "replace")).get("password", [""])[0]
        if not await run_in_threadpool(self.games.reads.join_password_ok, name, password):
            return await run_in_threadpool(self._locked, name, True)
        made = await run_in_threadpool(self._pass, name)
        answer = RedirectResponse(f"/games/{quote(name)}/", status_code=303)
        secure = request.url.scheme == "https"
        answer.set_cookie(self._cookie(name), made, max_age=PASS_DAYS * 86400, path=f"/games/{quote(name)}/",
                          httponly=True, samesite="strict", secure=secure)  # fmt: skip
        return answer

    def app(self) -> Starlette:
        async def missing(request: Request, exc: Exception) -> Response:
            return HTMLResponse("<h1>No such game</h1>", status_code=404)

        routes = [
            Route("/", self.index),
            Route("/index.html", self.index),
            Route("/help.html", self.help),
            Route("/style.css", self.static),
            Route("/stepper.js", self.static),
            Route("/variants/{name}.html", self.variant),
            Route("/variants/{name}.svg", self.variant_map),
            Route("/games/{game}", self.game_slash),
            Route("/games/{game}/", self.game),
            Route("/games/{game}/index.html", self.game),
            Route("/games/{game}/phases/{index:int}.html", self.phase),
            Route("/games/{game}/frames/{frame}.svg", self.frame),
            Route("/games/{game}/feed.atom", self.feed),
            Route("/games/{game}/unlock", self.unlock, methods=["POST"]),
        ]
        return Starlette(routes=routes, exception_handlers={NoSuchGame: missing})
