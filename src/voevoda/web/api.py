"""The JSON API, ``/api/v1``: the same operations and the same permissions as the pages
(each route calls one operation of the service), for a player's own program — authorised by a
seat's token (``Authorization: Bearer …``) — or for a signed-in browser (its session cookie, and
the ``X-CSRF-Token`` header on every change). Its OpenAPI description is ``/api/v1/openapi.json``.

Errors are JSON: ``{"error": {"status", "kind", "message_ru", "message_en"}}``, and a refused
post adds ``problems`` — each with ``line``, ``column``, ``kind``, ``rule`` and both messages,
as the command line prints them.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import Body, Depends, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from voevoda.core import outputs
from voevoda.core.errors import GameError, OrdersRejected
from voevoda.core.journal import MAX_REASON
from voevoda.service import Service
from voevoda.web.auth import Visitor, check_csrf, visitor

MAX_POST = 64 * 1024


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PostIn(_In):
    player: str = Field(min_length=1, max_length=200, description="the seat the post is for")
    text: str = Field(max_length=MAX_POST, description="the post as the player would write it on the forum")
    step: int | None = Field(default=None, ge=1, le=100_000,
                             description="the step the post is for; refused once that step is resolved")


class CheckIn(_In):
    player: str = Field(min_length=1, max_length=200)
    text: str = Field(max_length=MAX_POST)


class ResolveIn(_In):
    step: int = Field(ge=1, le=100_000, description="the open step: refused as already resolved for any other")
    force: bool = Field(default=False, description="give the silent seats their default orders")


class RollbackIn(_In):
    step: int = Field(ge=1, le=100_000, description="the last resolved step")
    reason: str = Field(min_length=1, max_length=MAX_REASON)


class ReopenIn(_In):
    step: int = Field(ge=1, le=100_000, description="the open step")
    player: str = Field(min_length=1, max_length=200)
    reason: str = Field(min_length=1, max_length=MAX_REASON)


class PatchIn(_In):
    patch: list[dict[str, Any]] = Field(max_length=1000, description="an RFC 6902 JSON Patch")


class EditIn(_In):
    step: int = Field(ge=1, le=100_000, description="the open step")
    patch: list[dict[str, Any]] = Field(max_length=1000)
    reason: str = Field(min_length=1, max_length=MAX_REASON)
    base_hash: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$",
                                  description="the state hash of a preview: refused when the state changed since")


class RevealIn(_In):
    step: int = Field(ge=1, le=100_000, description="the open step")


class InviteIn(_In):
    player: str = Field(min_length=1, max_length=200)


class CreateIn(_In):
    ruleset: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=100)
    players: list[str] = Field(min_length=1, max_length=64)
    bots: list[str] = Field(default_factory=list, max_length=64)
    config: dict[str, Any] = Field(default_factory=dict)
    house_rules: dict[str, Any] = Field(default_factory=dict)
    seed: str | None = Field(default=None, max_length=200)
    auto_resolve: bool = False
    public: bool = False
    timezone: str = Field(default="UTC", max_length=64)


class OddsIn(_In):
    battle: str = Field(max_length=MAX_POST, description="a Steel Rose battle file (TOML), as for `voevoda odds`")
    n: int = Field(default=10_000, ge=1, le=100_000, description="battles to simulate")
    seed: str | None = Field(default=None, max_length=200)


class Text(BaseModel):
    text: str


class Listing(BaseModel):
    name: str
    ruleset: str
    steps_resolved: int
    roles: list[str]
    public: bool


class EchoOut(BaseModel):
    player: str
    step: int | None
    check: bool
    accepted: bool
    head_ru: str
    head_en: str
    orders: list[dict[str, Any]]
    problems: list[dict[str, Any]]
    warnings: list[dict[str, Any]]
    prose: list[list[Any]]
    unbold: list[int]
    hidden: list[int]
    replaced: str | None
    text: str = Field(description="the echo as the command line prints it")


class Created(BaseModel):
    name: str
    commitment: str
    setup_digest: str


class InvitationOut(BaseModel):
    player: str
    token: str
    url: str


def _who(request: Request) -> Visitor:
    return visitor(request, request.app.state.service, request.app.state.signer)


def _svc(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


Who = Annotated[Visitor, Depends(_who)]
Svc = Annotated[Service, Depends(_svc)]
ViewerQuery = Annotated[str | None, Query(alias="as", max_length=200, description="a player, public or gm")]
Lang = Annotated[Literal["ru", "en"], Query()]


def create_api(parent: FastAPI) -> FastAPI:
    api = FastAPI(title="voevoda API", version="1", docs_url=None, redoc_url=None, openapi_url="/openapi.json",
                  description=__doc__)
    api.state.service = parent.state.service
    api.state.settings = parent.state.settings
    api.state.signer = parent.state.signer
    from voevoda.web.app import install_error_handlers

    install_error_handlers(api)

    def changing(request: Request, visitor_: Visitor) -> None:
        check_csrf(request, visitor_, None)

    @api.get("/rulesets", summary="the installed games")
    def rulesets(service: Svc) -> list[dict[str, Any]]:
        return [{"id": rid, "title_ru": ru, "title_en": en, "min_players": lo, "max_players": hi}
                for rid, ru, en, lo, hi in service.rulesets()]

    @api.get("/games", summary="the games the caller may see")
    def games(service: Svc, visitor_: Who) -> list[Listing]:
        return [Listing(name=g.name, ruleset=g.ruleset, steps_resolved=g.steps_resolved, roles=list(g.roles),
                        public=g.public) for g in service.games(visitor_.actor)]

    @api.post("/games", status_code=201, summary="create a game (the installation's game master)")
    def create(request: Request, body: CreateIn, service: Svc, visitor_: Who) -> Created:
        changing(request, visitor_)
        service.throttle("create", *visitor_.limit_keys(request))
        game = service.create_game(visitor_.actor, body.ruleset, body.name, body.players, bots=body.bots,
                                   config=body.config, house_rules=body.house_rules, seed=body.seed,
                                   auto_resolve=body.auto_resolve, public=body.public, timezone=body.timezone)
        return Created(name=game.record.name, commitment=game.record.commitment, setup_digest=game.setup.digest)

    @api.get("/games/{game}", summary="the game's dashboard as the viewer sees it")
    def dashboard(game: str, service: Svc, visitor_: Who, viewer: ViewerQuery = None) -> dict[str, Any]:
        return asdict(service.sight(visitor_.actor, game, viewer).dashboard())

    @api.get("/games/{game}/status", summary="status as `voevoda status` prints it")
    def status(game: str, service: Svc, visitor_: Who, viewer: ViewerQuery = None) -> Text:
        return Text(text=service.sight(visitor_.actor, game, viewer).status())

    @api.get("/games/{game}/view", summary="the viewer's view of the state")
    def view(game: str, service: Svc, visitor_: Who, viewer: ViewerQuery = None) -> Response:
        return Response(service.sight(visitor_.actor, game, viewer).view_json(), media_type="application/json")

    @api.get("/games/{game}/outline", summary="the readable outline (`voevoda show`)")
    def outline(game: str, service: Svc, visitor_: Who, viewer: ViewerQuery = None) -> Text:
        return Text(text=service.sight(visitor_.actor, game, viewer).show())

    @api.get("/games/{game}/reports", summary="the turns that have a report")
    def turns(game: str, service: Svc, visitor_: Who, viewer: ViewerQuery = None) -> dict[str, list[int]]:
        return {"turns": service.sight(visitor_.actor, game, viewer).turns()}

    @api.get("/games/{game}/reports/{turn}", summary="a turn's report for the viewer")
    def report(game: str, turn: Annotated[int, PathParam(ge=0, le=1_000_000)], service: Svc, visitor_: Who,
               viewer: ViewerQuery = None,
               format: Annotated[Literal["text", "bbcode", "markdown", "telegram", "html"], Query()] = "text",
               flavour: Annotated[str | None, Query(max_length=20)] = None, lang: Lang = "ru") -> Text:
        return Text(text=service.sight(visitor_.actor, game, viewer).report(turn, format, lang, flavour))

    @api.get("/games/{game}/map", summary="the viewer's map, SVG or PNG")
    def game_map(game: str, service: Svc, visitor_: Who, viewer: ViewerQuery = None,
                 turn: Annotated[int | None, Query(ge=0, le=1_000_000)] = None, lang: Lang = "ru",
                 format: Annotated[Literal["svg", "png"], Query()] = "svg",
                 zoom: Annotated[float, Query(ge=0.1, le=4)] = 1.0) -> Response:
        sight = service.sight(visitor_.actor, game, viewer)
        if format == "png":
            png = sight.map_png(lang, turn, zoom)
            if png is None:
                raise _no_map()
            return Response(png, media_type="image/png")
        svg = sight.map_svg(lang, turn)
        if svg is None:
            raise _no_map()
        return Response(svg, media_type="image/svg+xml")

    @api.get("/games/{game}/posts/{player}", summary="the seat's post standing in the open step")
    def standing(game: str, player: str, service: Svc, visitor_: Who) -> dict[str, Any] | None:
        post = service.standing_post(visitor_.actor, game, player)
        return asdict(post) if post is not None else None

    def echo_out(echo: outputs.Echo, text: str) -> EchoOut:
        return EchoOut(player=echo.player, step=echo.step, check=echo.check, accepted=echo.accepted,
                       head_ru=echo.head_ru, head_en=echo.head_en,
                       orders=[asdict(o) for o in echo.orders], problems=[p.to_json() for p in echo.problems],
                       warnings=[p.to_json() for p in echo.warnings], prose=[list(p) for p in echo.prose],
                       unbold=echo.unbold, hidden=echo.hidden, replaced=echo.replaced, text=text)

    @api.post("/games/{game}/posts/check", summary="read and check a post without storing it")
    def check(request: Request, game: str, body: CheckIn, service: Svc, visitor_: Who) -> Response:
        changing(request, visitor_)
        service.throttle("check", *visitor_.limit_keys(request))
        try:
            outcome = service.check_post(visitor_.actor, game, body.player, body.text)
        except OrdersRejected as rejected:
            echo = service.echo_of(visitor_.actor, game, body.player, rejected, check=True)
            return _json(echo_out(echo, outputs.error_text(rejected)), 422)
        return _json(echo_out(outcome.echo_data(), outcome.echo), 200)

    @api.post("/games/{game}/posts", summary="store a post (it replaces the seat's earlier post of the step)")
    def post(request: Request, game: str, body: PostIn, service: Svc, visitor_: Who) -> Response:
        changing(request, visitor_)
        service.throttle("post", *visitor_.limit_keys(request))
        try:
            outcome = service.post(visitor_.actor, game, body.player, body.text, step=body.step)
        except OrdersRejected as rejected:
            echo = service.echo_of(visitor_.actor, game, body.player, rejected, check=False, step=body.step)
            return _json(echo_out(echo, outputs.error_text(rejected)), 422)
        return _json(echo_out(outcome.echo_data(), outcome.echo), 201)

    @api.post("/games/{game}/resolve", summary="resolve the open step (game masters)")
    def resolve(request: Request, game: str, body: ResolveIn, service: Svc, visitor_: Who) -> Text:
        changing(request, visitor_)
        return Text(text=service.resolve(visitor_.actor, game, step=body.step, force=body.force).text)

    @api.post("/games/{game}/rollback", summary="undo the last resolved step (game masters)")
    def rollback(request: Request, game: str, body: RollbackIn, service: Svc, visitor_: Who) -> Text:
        changing(request, visitor_)
        return Text(text=service.rollback(visitor_.actor, game, step=body.step, reason=body.reason).text)

    @api.post("/games/{game}/reopen", summary="let a player change a frozen post (game masters)")
    def reopen(request: Request, game: str, body: ReopenIn, service: Svc, visitor_: Who) -> Text:
        changing(request, visitor_)
        return Text(text=service.reopen(visitor_.actor, game, step=body.step, player=body.player,
                                        reason=body.reason).text)

    @api.post("/games/{game}/edit/preview", summary="try a JSON Patch on a copy (game masters)")
    def preview(request: Request, game: str, body: PatchIn, service: Svc, visitor_: Who) -> dict[str, Any]:
        changing(request, visitor_)
        result = service.preview_edit(visitor_.actor, game, body.patch)
        return {"changes": result.changes, "outline": result.outline, "state_hash": result.state_hash}

    @api.post("/games/{game}/edit", summary="edit the state by a JSON Patch with a public reason (game masters)")
    def edit(request: Request, game: str, body: EditIn, service: Svc, visitor_: Who) -> dict[str, Any]:
        changing(request, visitor_)
        applied = service.edit(visitor_.actor, game, step=body.step, patch=body.patch, reason=body.reason,
                               base_hash=body.base_hash)
        return {"applied": applied}

    @api.post("/games/{game}/reveal", summary="publish the secret of a finished game (game masters)")
    def reveal(request: Request, game: str, body: RevealIn, service: Svc, visitor_: Who) -> dict[str, str]:
        changing(request, visitor_)
        return {"secret": service.reveal(visitor_.actor, game, step=body.step)}

    @api.get("/games/{game}/export", summary="the public record, or the full backup (game masters)")
    def export(game: str, service: Svc, visitor_: Who, full: bool = False) -> Response:
        data = service.export(visitor_.actor, game, full=full)
        return Response(json.dumps(data, ensure_ascii=False, sort_keys=True), media_type="application/json")

    @api.delete("/games/{game}", summary="delete a game for good (its owner)")
    def delete(request: Request, game: str, service: Svc, visitor_: Who,
               confirm: Annotated[str, Query(max_length=200, description="the game's name again")] = "") -> dict[str, str]:
        changing(request, visitor_)
        service.delete(visitor_.actor, game, confirm=confirm)
        return {"deleted": game}

    @api.get("/games/{game}/seats", summary="seats, holders and open invitations (game masters)")
    def seats(game: str, service: Svc, visitor_: Who) -> list[dict[str, Any]]:
        sight = service.sight(visitor_.actor, game, "gm")
        return [{"player": s.player, "bot": s.bot, "holder": s.holder,
                 "invited_at": s.invited_at.isoformat() if s.invited_at else None}
                for s in service.seats(visitor_.actor, game, sight.players, sight.bots)]

    @api.post("/games/{game}/invitations", status_code=201, summary="a new invitation link to a seat (game masters)")
    def invite(request: Request, game: str, body: InviteIn, service: Svc, visitor_: Who) -> InvitationOut:
        changing(request, visitor_)
        sight = service.sight(visitor_.actor, game, "gm")
        token = service.invite(visitor_.actor, game, body.player, sight.players)
        url = request.app.state.settings.base_url.rstrip("/") + "/join/" + token
        return InvitationOut(player=body.player, token=token, url=url)

    @api.delete("/games/{game}/invitations/{player}", summary="revoke a seat's open invitation (game masters)")
    def revoke(request: Request, game: str, player: str, service: Svc, visitor_: Who) -> dict[str, bool]:
        changing(request, visitor_)
        return {"revoked": service.revoke_invitation(visitor_.actor, game, player)}

    @api.post("/odds", summary="a Steel Rose battle's odds on the batched simulator (anybody)")
    def odds(request: Request, body: OddsIn, service: Svc, visitor_: Who) -> dict[str, Any]:
        changing(request, visitor_)
        service.throttle("odds", *visitor_.limit_keys(request))
        return service.odds(visitor_.actor, body.battle, n=body.n, seed=body.seed)

    @api.post("/import", status_code=201, summary="store a game from a full export (the installation's game master)")
    def import_game(request: Request, service: Svc, visitor_: Who,
                    export: Annotated[dict[str, Any], Body(description="a full export (voevoda export --full)")],
                    name: Annotated[str | None, Query(max_length=100)] = None) -> Created:
        changing(request, visitor_)
        service.throttle("create", *visitor_.limit_keys(request))
        game = service.import_game(visitor_.actor, export, source="export", name=name)
        return Created(name=game.record.name, commitment=game.record.commitment, setup_digest=game.setup.digest)

    from voevoda.web import clock_api

    clock_api.install(api)
    return api


def _json(model: BaseModel, status: int) -> Response:
    return JSONResponse(model.model_dump(mode="json"), status_code=status)


def _no_map() -> GameError:
    from voevoda.service.errors import NotFound

    return NotFound("у этой игры нет карты", "this game has no map")


__all__ = ["create_api"]
