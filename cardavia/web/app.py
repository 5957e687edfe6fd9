"""The site as an ASGI app (Starlette): the rules pages with "Start game", and the tables.

Pages carry their language in the URL (``/it/hk``); every page uses the rules renderer's
templates and catalogs (:mod:`cardavia.render`), this package's templates searched first.

    /                          the landing page of the browser's language
    /LANG/                     the families and their games
    /LANG/FAMILY               "China · 144 tiles": each game with Start game and its rules
    /LANG/VARIANT              a game's page: the tabs Table (Start game) and Full rules
    GET|POST /play/VARIANT     a new deal (``lang``, ``pace``, ``option.NAME``), redirected to its table
    /LANG/table/ID             a game's page, the Table tab showing the game
    /LANG/table/ID/view        the table alone (what the page swaps in as the game moves on)
    /api/games                 POST: start a game (JSON); /api/games/ID: GET the state,
    /api/games/ID/actions      POST an action; /api/games/ID/pace: POST the pace

Requests the game refuses are answered with a 4xx status and ``{"error": ..., "code": ...}``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from cardavia.compiler import load_variant, shipped_variants
from cardavia.render.document import FamilyPage
from cardavia.render.facts import page_name
from cardavia.render.languages import LANGUAGES, Language, UnknownLanguage, language
from cardavia.render.pages import NavLink, Switch, family_document, game_document, html_environment, page_values

from . import tiles
from .games import DEFAULT_PACE, GameError, Games, TableGame, check_pace
from .store import Store
from .view import Table, state

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
#: Static files: name -> media type.
FILES = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
CACHE = {"Cache-Control": "public, max-age=3600"}
#: The longest JSON body a request may send.
MAX_BODY = 16_384


# ------------------------------------------------------------------ pages

class Site:
    """The variants served and their documents (made once per language)."""

    def __init__(self, variants: Sequence[str] | None = None) -> None:
        names = list(variants) if variants is not None else shipped_variants()
        compiled = [load_variant(v) for v in names]
        self.variants = {v.id: v for v in compiled}
        self.sources = {v.id: source for v, source in zip(compiled, names)}
        for v, source in zip(compiled, names):  # a shipped variant is also known by its name (its file stem)
            self.variants.setdefault(page_name(v), v)
            self.sources.setdefault(page_name(v), source)
        self.families: dict[str, list[Any]] = {}
        for v in compiled:
            self.families.setdefault(v.family or "other", []).append(v)
        self.choices = {vid: declared_options(v) for vid, v in self.variants.items()}
        #: The version of the static files, in their addresses: a new version is fetched anew.
        self.v = hashlib.sha256(b"".join((STATIC / name).read_bytes() for name in FILES)
                                + tiles.sprite().encode()).hexdigest()[:12]
        self._docs: dict[str, list[FamilyPage]] = {}

    def family_docs(self, lang: Language) -> list[FamilyPage]:
        docs = self._docs.get(lang.tag)
        if docs is None:
            docs = self._docs[lang.tag] = [family_document(m, lang) for m in self.families.values()]
        return docs


def declared_options(variant: Any) -> list[dict[str, Any]]:
    """The options a variant offers, for a form: id, name, and each choice (the default marked)."""
    out = []
    for oid, spec in (variant.data.get("options") or {}).items():
        if not isinstance(spec, dict) or not isinstance(spec.get("choices"), dict):
            continue
        default = spec.get("default")
        choices = [{"id": cid, "name": (c or {}).get("name", cid) if isinstance(c, dict) else cid,
                    "default": cid == default} for cid, c in spec["choices"].items()]
        out.append({"id": oid, "name": spec.get("name", oid), "choices": choices})
    return out


def _lang(tag: str) -> Language:
    try:
        return language(tag)
    except UnknownLanguage as exc:
        raise GameError(404, "unknown_language", str(exc)) from None


def _preferred(request: Request) -> Language:
    """The first shipped language the browser asks for (Accept-Language), else English."""
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip()
        for candidate in (tag, tag.split("-")[0], "zh-Hant" if tag.lower() in ("zh-tw", "zh-hk", "zh-mo") else "",
                          "zh-Hans" if tag.lower() in ("zh", "zh-cn", "zh-sg") else ""):
            if candidate:
                try:
                    return language(candidate)
                except UnknownLanguage:
                    continue
    return LANGUAGES[0]


def _render(site: Site, lang: Language, template: str, rest: str, current: str | None = None,
            **values: Any) -> HTMLResponse:
    """A page in ``lang``; ``rest`` is its address after the language (for the language switcher)."""
    games = [g for doc in site.family_docs(lang) for g in doc.games]
    nav = [NavLink(f"/{lang.tag}/{g.variant}", g.name, g.variant == current) for g in games]
    switches = [Switch(other.tag, other.native, f"/{other.tag}/{rest}", other == lang) for other in LANGUAGES]
    env = html_environment(lang, TEMPLATES)
    html = env.get_template(template).render(**page_values(lang, {
        "nav": nav, "switches": switches, "home": f"/{lang.tag}/", "suffix": "", "start": "/play/",
        "icon": "/favicon.svg", "choices": site.choices, "prefix": f"/{lang.tag}/", "v": site.v, **values}))
    return HTMLResponse(html)


def _variant_page(site: Site, lang: Language, name: str, tab: str, view: Table | None, rest: str) -> HTMLResponse:
    page = game_document(site.variants[name], lang)
    due = "" if view is None else _due(view.game)
    return _render(site, lang, "variant.html", rest, current=name, page=page, tab=tab, view=view, due=due)


def _due(game: TableGame) -> str:
    wait = game.next_move_in()
    return "" if wait is None else f"{wait:.3f}"


# ------------------------------------------------------------------ the app

def create_app(db: str | Path, pace: float = DEFAULT_PACE, variants: Sequence[str] | None = None) -> Starlette:
    """The site, its games kept in the SQLite database ``db``; ``pace``: the default seconds
    between two of the computer players' moves; ``variants``: the variants served (names or
    paths; default every shipped variant)."""
    site = Site(variants)
    store = Store(db)
    games = Games(store, pace, sources=site.sources)

    async def _game(game_id: str) -> TableGame:
        return await run_in_threadpool(games.get, game_id)

    async def root(request: Request) -> Response:
        return RedirectResponse(f"/{_preferred(request).tag}/", status_code=307)

    async def landing(request: Request) -> Response:
        lang = _lang(request.path_params["lang"])
        return _render(site, lang, "index.html", "", families=site.family_docs(lang))

    async def page(request: Request) -> Response:
        lang = _lang(request.path_params["lang"])
        name = request.path_params["name"]
        if name in site.families:
            docs = {doc.family: doc for doc in site.family_docs(lang)}
            return _render(site, lang, "family.html", name, page=docs[name])
        if name in site.variants:
            tab = "table" if request.query_params.get("tab") == "table" else "rules"
            return _variant_page(site, lang, name, tab, None, name)
        raise GameError(404, "not_found", f"no page {name!r}: expected a family ({', '.join(site.families)}) or "
                                          f"a game ({', '.join(site.variants)})")

    async def play(request: Request) -> Response:
        name = request.path_params["variant"]
        values: Mapping[str, Any] = request.query_params
        if request.method == "POST":  # the Start game form (urlencoded, a few short fields)
            raw = await request.body()
            if len(raw) > MAX_BODY:
                raise GameError(413, "too_large", f"the form has {len(raw)} bytes: at most {MAX_BODY}")
            values = {**request.query_params, **dict(parse_qsl(raw.decode("utf-8", "replace")))}
        lang = _lang(str(values.get("lang") or _preferred(request).tag))
        pace = check_pace(values["pace"]) if values.get("pace") not in (None, "") else None
        options = {k[len("option."):]: str(v) for k, v in values.items() if k.startswith("option.")}
        game = await run_in_threadpool(games.start, name, options, pace)
        return RedirectResponse(f"/{lang.tag}/table/{game.id}", status_code=303)

    async def table_page(request: Request) -> Response:
        lang = _lang(request.path_params["lang"])
        game = await _game(request.path_params["id"])
        tab = "rules" if request.query_params.get("tab") == "rules" else "table"

        def render() -> HTMLResponse:
            with game.lock:
                game.advance()
                return _variant_page(site, lang, game.variant.id, tab, Table(game, lang.tag), f"table/{game.id}")

        return await run_in_threadpool(render)

    async def table_view(request: Request) -> Response:
        lang = _lang(request.path_params["lang"])
        game = await _game(request.path_params["id"])

        def render() -> str:
            with game.lock:
                game.advance()
                view = Table(game, lang.tag)
                env = html_environment(lang, TEMPLATES)
                return env.get_template("table.html").render(**page_values(lang, {"view": view, "due": _due(game),
                                                                                "v": site.v}))

        html = await run_in_threadpool(render)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def api_start(request: Request) -> Response:
        body = await _json(request)
        name = body.get("variant")
        if not isinstance(name, str):
            raise GameError(400, "bad_request", f"'variant' is required: one of {', '.join(site.variants)}")
        options = body.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise GameError(400, "bad_request", "'options' is an object of option names and choices")
        pace = check_pace(body["pace"]) if body.get("pace") is not None else None
        game = await run_in_threadpool(games.start, name, options, pace, _seed(body.get("seed")))
        return JSONResponse(await run_in_threadpool(_locked_state, game), status_code=201)

    async def api_state(request: Request) -> Response:
        game = await _game(request.path_params["id"])
        return JSONResponse(await run_in_threadpool(_locked_state, game), headers={"Cache-Control": "no-store"})

    async def api_act(request: Request) -> Response:
        game = await _game(request.path_params["id"])
        body = await _json(request)

        def act() -> dict[str, Any]:
            with game.lock:
                game.act(body.get("version"), body)
                return state(game)

        return JSONResponse(await run_in_threadpool(act))

    async def api_pace(request: Request) -> Response:
        game = await _game(request.path_params["id"])
        body = await _json(request)
        pace = check_pace(body.get("pace"))

        def change() -> dict[str, Any]:
            with game.lock:
                game.set_pace(pace)
                return state(game)

        return JSONResponse(await run_in_threadpool(change))

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name == "tiles.svg":
            return Response(tiles.sprite(), media_type="image/svg+xml", headers=CACHE)
        if name in FILES:
            return Response((STATIC / name).read_bytes(), media_type=FILES[name], headers=CACHE)
        raise GameError(404, "not_found", f"no static file {name!r}")

    async def favicon(request: Request) -> Response:
        return Response(tiles.favicon(), media_type="image/svg+xml", headers=CACHE)

    async def error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, GameError)
        if request.url.path.startswith("/api/") or request.headers.get("content-type", "").startswith(
                "application/json") or request.url.path.endswith("/view"):
            return JSONResponse(exc.to_json(), status_code=exc.status)
        return PlainTextResponse(exc.message, status_code=exc.status)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        message = "no such address" if status == 404 else getattr(exc, "detail", "refused")
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": f"{message}: {request.url.path}", "code": "not_found"}, status_code=status)
        return PlainTextResponse(f"{message}: {request.url.path}", status_code=status)

    routes = [
        Route("/", root),
        Route("/favicon.ico", favicon),
        Route("/favicon.svg", favicon),
        Route("/static/{name}", static),
        Route("/play/{variant}", play, methods=["GET", "POST"]),
        Route("/api/games", api_start, methods=["POST"]),
        Route("/api/games/{id}", api_state),
        Route("/api/games/{id}/actions", api_act, methods=["POST"]),
        Route("/api/games/{id}/pace", api_pace, methods=["POST"]),
        Route("/{lang}/", landing),
        Route("/{lang}/table/{id}", table_page),
        Route("/{lang}/table/{id}/view", table_view),
        Route("/{lang}/{name}", page),
    ]
    app = Starlette(routes=routes, exception_handlers={GameError: error, 404: not_found, 405: not_found})
    app.state.games = games
    app.state.store = store
    app.state.site = site
    return app


def _locked_state(game: TableGame) -> dict[str, Any]:
    with game.lock:
        game.advance()
        return state(game)


def _seed(value: object) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2 ** 63:
        raise GameError(400, "bad_request", f"'seed' is {value!r}: expected a whole number from 0 to 2**63 - 1")
    return value


async def _json(request: Request) -> dict[str, Any]:
    """The request's JSON object, or GameError saying what is wrong with it."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise GameError(413, "too_large", f"the request body has {len(raw)} bytes: at most {MAX_BODY}")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise GameError(400, "bad_json", f"the request body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise GameError(400, "bad_json", "the request body must be a JSON object")
    return body
