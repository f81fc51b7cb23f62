"""The site as the judge serves it: Starlette routes over the page functions (`pages`), read from the database
at every request, so a page shows a phase the moment it is processed, without a restart.

The endpoints that make pages are plain functions: Starlette runs them in its thread pool, so a page being made
never holds up the event loop that accepts the next request, and the database is read as the mail path reads it
(the game layer's own short transactions). A private game's pages need a pass (docs/web.md, "Private games"): a
cookie, scoped to the game's pages, carrying when it was given and an HMAC of that, the game's name and its page
password's stamp under the judge's signing key -- which, like the count of wrong guesses, is kept in the database
(`judge.game.web_access`), so several judge processes serve one site.

Every address the site does not make -- a game, phase, frame or variant that is not there, a phase number of four
thousand digits, a negative one, a name no game could have -- answers the site's own 404 page, before any password
is asked for and without reaching the database with what it cannot hold.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import re
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.config import Config
from judge.game import Games
from judge.game.errors import NoSuchGame
from judge.game.views import PublicGame, PublicHistory
from judge.game.web_access import Guess
from judge.web import pages
from judge.web.feed import SITE_ENTRIES, game_feed, site_feed
from judge.web.frames import boards_of, phase_svg, start_svg
from judge.web.pages import GAMES_A_PAGE, STATES, Filter, SiteInfo

PASS_DAYS = 30
"""how long a private game's pass opens its pages (the cookie's life, and checked on the pass itself)"""
HISTORIES_KEPT = 64
"""games whose history is kept between requests (a twenty-year game's is about a megabyte of outcomes)"""
FORM_LIMIT = 4096
"""the most a password form's body may hold"""
HASHES_AT_ONCE = 2
"""page passwords checked at the same time, each in a thread kept for it: a check is an scrypt of 16 MB and ~60 ms
of a core, so the memory and the cores the pages need are bounded whatever the number of guesses. Threads of their
own, because the C library keeps a freed block of that size for the thread that used it: checked in the pages' own
thread pool (40 threads), 16 MB could stay with each of them"""
GUESSES_WAITING = 16
"""guesses that may wait for a check; more at once are answered "busy" (503) without being looked at"""
WAITS_KEPT = 10_000
"""clients and games whose wait this process remembers"""
NAME_LONGEST = 64
"""the longest game name the database holds (`games.name`)"""
_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")
"""a phase's number as the site writes it in a path"""
_STAMP = re.compile(r"[0-9]{1,12}")
"""when a pass was given, in seconds since 1970, as the pass writes it"""
PRIVATE_HEADERS = {"Cache-Control": "private, no-store", "Vary": "Cookie"}
"""on every answer that depends on a pass: no shared cache may keep it, nor serve it to another reader"""


QUERY_LONGEST = 256
"""the longest query string the list of games reads (its three parameters take fewer than 60 characters)"""
_PAGE = re.compile(r"[1-9][0-9]{0,5}")
"""a page of the list, as its links write it"""


class NotUnderstood(Exception):
    """A query the site cannot read (a state or variant it does not know, a page that is no number, a parameter
    given twice): answered with the site's own 400 page, saying `what`."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def list_filter(request: Request) -> Filter:
    """The list of games asked for: `state`, `variant` and `page`, each at most once, each checked against what
    the site knows (an empty one is any); other parameters are ignored. NotUnderstood for anything else."""
    from judge.variants import VARIANTS

    if len(request.url.query) > QUERY_LONGEST:
        raise NotUnderstood("That address asks too much of the list of games.")
    given: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        if key in ("state", "variant", "page"):
            if key in given:
                raise NotUnderstood(f"The list of games takes one {key}.")
            given[key] = value
    state, variant, page = given.get("state", ""), given.get("variant", ""), given.get("page", "") or "1"
    if state and state not in STATES:
        raise NotUnderstood(f"A game's state is one of {', '.join(STATES)}.")
    if variant and variant not in VARIANTS:
        raise NotUnderstood("The judge plays no variant of that name.")
    if not _PAGE.fullmatch(page):
        raise NotUnderstood("A page of the list is a number: 1, 2, ...")
    return Filter(state, variant, int(page))


class NotFound(Exception):
    """An address the site makes no page for: answered with the site's own 404 page, saying `what`."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def site_info(config: Config, exported: bool = False) -> SiteInfo:
    """What the pages say of this judge."""
    return SiteInfo(judge=config.name, address=config.address, code=config.judge_code, exported=exported,
                    noindex=not config.web.search_engines)  # fmt: skip


def game_name(request: Request) -> str:
    """The game named in the path, or NotFound for a name no game can have (too long for the database, or holding a
    character that is no printable text, NUL among them)."""
    name: str = request.path_params["game"]
    if not 0 < len(name) <= NAME_LONGEST or not name.isprintable():
        raise NotFound("No game has that name.")
    return name


def phase_number(text: str) -> int:
    """A phase's number from a path (`0`, `12`), or NotFound for anything else (a sign, leading zeros, digits by
    the thousand)."""
    if not _NUMBER.fullmatch(text):
        raise NotFound("That is no phase of this game.")
    return int(text)


def board_number(text: str) -> int:
    """A board's number from a path (`board3`), or NotFound for anything else."""
    if not _NUMBER.fullmatch(text):
        raise NotFound("The game's map has no such board.")
    return int(text)


def client_of(request: Request) -> str:
    """Who is guessing, as the guess limits count them: the client's address (uvicorn takes it from a trusted
    proxy's X-Forwarded-For), an IPv6 address by its /64 network, which one subscriber usually holds whole."""
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:100] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def root_of(request: Request) -> str:
    """The way up from the page asked for to the site's top (`../../` from a game's page), for the links of a page
    that may answer any address (the lock form, the 404 page)."""
    return "../" * max(0, request.url.path.count("/") - 1)


def _spoken(wait: timedelta) -> str:
    seconds = max(1, round(wait.total_seconds()))
    return f"{seconds} seconds" if seconds < 120 else f"{round(seconds / 60)} minutes"


class Site:
    """The pages of one judge, from its game layer."""

    def __init__(self, games: Games, info: SiteInfo, base_url: str = "") -> None:
        self.games = games
        self.info = info
        self.base_url = base_url
        self._histories: OrderedDict[str, tuple[str, PublicHistory]] = OrderedDict()
        """the histories of the games read last (`HISTORIES_KEPT`), each with its stamp (`Reads.history_stamp`):
        read again when it changes"""
        self._lock = threading.Lock()
        self._key: bytes | None = None
        self._checker = ThreadPoolExecutor(HASHES_AT_ONCE, thread_name_prefix="judge-web-password")
        self._waiting = 0
        """guesses waiting for, or having, one of the `HASHES_AT_ONCE` checks (counted on the event loop)"""
        self._waits: dict[str, datetime] = {}
        """until when a client (`client ADDRESS`) or a game (`game NAME`) must wait, as the database said at this
        process's last guess: a guess that falls in such a wait is turned away without asking the database (waits
        only grow, but for a right guess, which clears its client here), so a flood of guesses costs the pages
        nothing but its answers; at most `WAITS_KEPT`"""

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

    def _signing_key(self) -> bytes:
        if self._key is None:
            self._key = self.games.web.signing_key()
        return self._key

    def _signed(self, name: str, stamp: str, issued: int) -> str:
        text = f"{name}\0{stamp}\0{issued}".encode()
        return hmac.new(self._signing_key(), text, hashlib.sha256).hexdigest()

    def _now(self) -> int:
        return int(self.games.clock.now().timestamp())

    def make_pass(self, name: str) -> str:
        """A pass to the game's pages as of now: when it was given, and its signature."""
        stamp = self.games.web.pass_stamp(name)
        assert stamp is not None, "a pass is given only for a right page password"
        issued = self._now()
        return f"{issued}.{self._signed(name, stamp, issued)}"

    @staticmethod
    def cookie_name(name: str) -> str:
        return f"judge_game_{hashlib.sha256(name.encode()).hexdigest()[:16]}"

    def _has_pass(self, request: Request, name: str, stamp: str | None) -> bool:
        """Whether the request carries a pass to the game's pages given since its page password was last set, and
        less than `PASS_DAYS` ago."""
        if stamp is None:
            return False
        issued, _, signature = request.cookies.get(self.cookie_name(name), "").partition(".")
        if not _STAMP.fullmatch(issued):
            return False
        now = self._now()
        if not now - PASS_DAYS * 86400 < int(issued) <= now + 60:
            return False
        expected = self._signed(name, stamp, int(issued))
        return hmac.compare_digest(signature.encode("utf-8", "replace"), expected.encode())

    def _locked(self, request: Request, name: str, status: int = 403, *, failed: bool = False, wait: str = "",
                busy: bool = False) -> Response:  # fmt: skip
        opens = bool(wait or busy) or self.games.web.has_page_password(name)  # a guess turned away: no question
        page = pages.locked_page(self.info, name, root_of(request), quote(request.url.path), opens=opens,
                                 failed=failed, wait=wait, busy=busy)  # fmt: skip
        return HTMLResponse(page, status_code=status, headers=PRIVATE_HEADERS)

    def _guarded(self, request: Request, make: Callable[[PublicGame], Response]) -> Response:
        """A game's page, file or feed: to anybody for a public game; for a private one, to a pass holder alone,
        marked for no shared cache; the lock form to everybody else."""
        name = game_name(request)
        game = self.games.reads.public_game(name)
        if not game.private:
            return make(game)
        if not self._has_pass(request, name, self.games.web.pass_stamp(name)):
            return self._locked(request, name)
        answer = make(game)
        answer.headers.update(PRIVATE_HEADERS)
        return answer

    # --- the pages -------------------------------------------------------------------------------------------

    def index(self, request: Request) -> Response:
        asked = list_filter(request)
        listed = self.games.listing.page(asked.page, GAMES_A_PAGE, asked.state, asked.variant)
        if asked.page > listed.pages:
            raise NotFound(f"The list has {listed.pages} {'page' if listed.pages == 1 else 'pages'}.")
        return HTMLResponse(pages.games_page(self.info, listed, asked))

    def openings(self, request: Request) -> Response:
        return HTMLResponse(pages.openings_page(self.info, self.games.openings.all()))

    def site_feed(self, request: Request) -> Response:
        body = site_feed(self.info, self.games.listing.latest(SITE_ENTRIES), self.base_url)
        return Response(body, media_type="application/atom+xml")

    def robots(self, request: Request) -> Response:
        return Response(pages.robots_text(self.info), media_type="text/plain")

    def help(self, request: Request) -> Response:
        return HTMLResponse(pages.help_page(self.info))

    def player(self, request: Request) -> Response:
        text = str(request.path_params["number"])
        if not _NUMBER.fullmatch(text):
            raise NotFound("No player has that number.")
        card = self.games.whois.page(int(text))
        if card is None:
            raise NotFound("No player has that number.")
        return HTMLResponse(pages.player_page(self.info, card))

    def static(self, request: Request) -> Response:
        name = request.url.path.rsplit("/", 1)[-1]
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(pages.static_file(name), media_type=kind, headers={"Cache-Control": "max-age=3600"})

    def variant(self, request: Request) -> Response:
        try:
            return HTMLResponse(pages.variant_page(self.info, request.path_params["name"]))
        except KeyError:
            raise NotFound("The judge has no such variant.") from None

    def variant_map(self, request: Request) -> Response:
        from judge.variants import VARIANTS

        name = request.path_params["name"]
        if name not in VARIANTS:
            raise NotFound("The judge has no such variant.")
        return Response(start_svg(name), media_type="image/svg+xml")

    def game_slash(self, request: Request) -> Response:
        name = self.games.reads.public_game(game_name(request)).name
        return RedirectResponse(f"/games/{quote(name)}/", status_code=308)

    def game(self, request: Request) -> Response:
        def make(game: PublicGame) -> Response:
            openings = self.games.openings.of(game.name)
            return HTMLResponse(pages.game_page(self.info, game, self.history(game.name), openings))

        return self._guarded(request, make)

    def phase(self, request: Request) -> Response:
        index = phase_number(request.path_params["index"])

        def make(game: PublicGame) -> Response:
            try:
                return HTMLResponse(pages.phase_page(self.info, game, self.history(game.name), index))
            except KeyError:
                raise NotFound("That phase has not been played.") from None

        return self._guarded(request, make)

    def frame(self, request: Request) -> Response:
        """A frame of the map: the whole map, or one board of several (`frames/board3/N.svg`)."""
        which = request.path_params["frame"]
        index = None if which == "start" else phase_number(which)
        board = board_number(request.path_params["board"]) if "board" in request.path_params else None

        def make(game: PublicGame) -> Response:
            if board is not None and board not in boards_of(game.variant):
                raise NotFound("The game's map has no such board.")
            if index is None:
                return Response(start_svg(game.variant, board), media_type="image/svg+xml")
            found = next((p for p in self.history(game.name).phases if p.index == index), None)
            if found is None:
                raise NotFound("That phase has not been played.")
            return Response(phase_svg(game.name, game.variant, found, board), media_type="image/svg+xml")

        return self._guarded(request, make)

    def feed(self, request: Request) -> Response:
        def make(game: PublicGame) -> Response:
            body = game_feed(self.info, game, self.history(game.name), self.base_url)
            return Response(body, media_type="application/atom+xml")

        return self._guarded(request, make)

    def unlocking(self, page: Callable[[Request], Response]) -> Callable[[Request], Awaitable[Response]]:
        """The password form's endpoint on a page's own address (`page` makes the page)."""

        async def unlock(request: Request) -> Response:
            return await self.unlock(request, page)

        return unlock

    async def unlock(self, request: Request, page: Callable[[Request], Response]) -> Response:
        """The page password form, posted to the page it stands on: the right password sets the game's pass and
        opens that page. Guesses are limited per client and per game (`judge.game.web_access`), and at most
        `HASHES_AT_ONCE` are checked at once (`GUESSES_WAITING` may wait; more are told the judge is busy). A post
        to a public game's page, or to an address that names no page, is answered as a visit."""
        name = game_name(request)
        for key in ("index", "frame"):
            if request.path_params.get(key, "start") != "start":
                phase_number(request.path_params[key])
        if "board" in request.path_params:
            board_number(request.path_params["board"])
        client = client_of(request)
        now = self.games.clock.now()
        until = max(self._waits.get(f"client {client}", now), self._waits.get(f"game {name}", now))
        if until > now:  # known here: answered on the loop, without the database or a thread
            return self._turned_away(request, name, until - now)
        if self._waiting >= GUESSES_WAITING:
            return self._busy(request, name)
        game = await run_in_threadpool(self.games.reads.public_game, name)
        if not game.private:
            return await run_in_threadpool(page, request)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_LIMIT:
                return Response("too long", status_code=413, media_type="text/plain")
        password = parse_qs(body.decode("utf-8", "replace")).get("password", [""])[0]
        if self._waiting >= GUESSES_WAITING:
            return self._busy(request, name)
        self._waiting += 1
        try:
            guess = await run_in_threadpool(self.games.web.reserve_guess, client, name)
            self._remember(guess)
            if guess.wait:
                return self._turned_away(request, name, guess.wait)
            check = self.games.web.page_password_ok
            right = await asyncio.get_running_loop().run_in_executor(self._checker, check, name, password)
        finally:
            self._waiting -= 1
        if right:
            self._waits.pop(f"client {client}", None)
            await run_in_threadpool(self.games.web.guess_was_right, guess)
        if not right:
            return await run_in_threadpool(lambda: self._locked(request, name, failed=True))
        made = await run_in_threadpool(self.make_pass, name)
        answer = RedirectResponse(quote(request.url.path), status_code=303, headers=PRIVATE_HEADERS)
        answer.set_cookie(self.cookie_name(name), made, max_age=PASS_DAYS * 86400, path=f"/games/{quote(name)}/",
                          httponly=True, samesite="lax", secure=request.url.scheme == "https")  # fmt: skip
        return answer

    def _remember(self, guess: Guess) -> None:
        for key, until in ((f"client {guess.client}", guess.client_until), (f"game {guess.game}", guess.game_until)):
            if until is not None:
                self._waits[key] = until
        if len(self._waits) > WAITS_KEPT:
            now = self.games.clock.now()
            self._waits = {key: until for key, until in self._waits.items() if until > now}
            while len(self._waits) > WAITS_KEPT:
                del self._waits[next(iter(self._waits))]

    def _busy(self, request: Request, name: str) -> Response:
        answer = self._locked(request, name, 503, busy=True)
        answer.headers["Retry-After"] = "5"
        return answer

    def _turned_away(self, request: Request, name: str, wait: timedelta) -> Response:
        answer = self._locked(request, name, 429, wait=_spoken(wait))
        answer.headers["Retry-After"] = str(max(1, int(wait.total_seconds() + 0.999)))
        return answer

    def app(self) -> Starlette:
        async def missing(request: Request, exc: Exception) -> Response:
            what = exc.what if isinstance(exc, NotFound) else "No game has that name." if isinstance(
                exc, NoSuchGame) else "The judge makes no page at that address."  # fmt: skip
            page = await run_in_threadpool(pages.missing_page, self.info, root_of(request), what)
            return HTMLResponse(page, status_code=404)

        page_paths = ("/games/{game}/", "/games/{game}/index.html", "/games/{game}/phases/{index}.html",
                      "/games/{game}/frames/{frame}.svg", "/games/{game}/frames/board{board}/{frame}.svg",
                      "/games/{game}/feed.atom")  # fmt: skip
        made_by = (self.game, self.game, self.phase, self.frame, self.frame, self.feed)
        pages_made = list(zip(page_paths, made_by, strict=True))
        routes = [
            Route("/", self.index),
            Route("/index.html", self.index),
            Route("/help.html", self.help),
            Route("/openings.html", self.openings),
            Route("/players/{number}.html", self.player),
            Route("/robots.txt", self.robots),
            Route("/feed.atom", self.site_feed),
            *(Route(f"/{name}", self.static) for name in pages.STATIC),
            Route("/variants/{name}.html", self.variant),
            Route("/variants/{name}.svg", self.variant_map),
            Route("/games/{game}", self.game_slash, methods=["GET", "HEAD", "POST"]),
            *(Route(path, make, methods=["GET", "HEAD"]) for path, make in pages_made),
            *(Route(path, self.unlocking(make), methods=["POST"]) for path, make in pages_made),
        ]

        async def read_only(request: Request, exc: Exception) -> Response:
            what = "The judge's pages are only read: orders, press and commands go to it by mail."
            page = await run_in_threadpool(pages.missing_page, self.info, root_of(request), what, "Not taken")
            return HTMLResponse(page, status_code=405, headers={"Allow": "GET, HEAD"})

        async def not_understood(request: Request, exc: Exception) -> Response:
            what = exc.what if isinstance(exc, NotUnderstood) else "The judge cannot read that address."
            page = await run_in_threadpool(pages.missing_page, self.info, root_of(request), what, "Not understood")
            return HTMLResponse(page, status_code=400)

        handlers = {NotFound: missing, NoSuchGame: missing, NotUnderstood: not_understood, 404: missing,
                    405: read_only}  # fmt: skip
        middleware = [Middleware(KeepOut)] if self.info.noindex else []
        return Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)


class KeepOut:
    """Where the judge keeps search engines out: `X-Robots-Tag: noindex, nofollow` on every answer, the pictures
    and feeds too, which carry no meta tag of their own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def tagged(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("X-Robots-Tag", "noindex, nofollow")
            await send(message)

        await self.app(scope, receive, tagged if scope["type"] == "http" else send)
