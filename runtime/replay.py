"""Replaying a deal from a scenario: a fixed wall (or a seed) and scripted actions per seat.

The scenario format and its rules are those of docs/interfaces.md ("Replaying a deal:
cardavia replay"). Every problem is a :class:`ScenarioError` whose message names the action
index, the seat and the reason; the CLI prints it and exits with status 2.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from cardavia.compiler import VariantError, load_variant, shipped_variants
from cardavia.compiler.errors import quoted

from .actions import Action, ActionError, Decision, IllegalAction
from .controllers import Controller, DrawnTileAutoplay
from .deal import Deal
from .wall import WallError, check_wall_ids, shuffled_wall, wall_from_codes

AUTOPLAY = ("drawn-tile", "ai")


class ScenarioError(ValueError):
    """A malformed scenario or an illegal scripted action."""


class _Script:
    """One seat's queue of (index in ``actions``, action), falling back to autoplay when empty."""

    def __init__(self, seat: int, fallback: Controller) -> None:
        self.seat = seat
        self.queue: deque[tuple[int, Action]] = deque()
        self.fallback = fallback

    def choose(self, deal: Deal, decision: Decision) -> tuple[int | None, Action]:
        if self.queue:
            return self.queue.popleft()
        return None, self.fallback.choose(deal, decision)

    def why(self) -> str | None:
        """Why autoplay took its last decision, when its controller says (the AI does)."""
        reason = getattr(self.fallback, "reason", None)
        return reason if isinstance(reason, str) else None


def _players(raw: Any, n: int) -> list[str]:
    """A scenario's ``players``: one controller kind a seat, as in simulate."""
    from .bots import KINDS

    if not isinstance(raw, list) or len(raw) != n or not all(isinstance(k, str) for k in raw):
        raise ScenarioError(f"'players' is {quoted(raw)}: expected {n} controller kinds, one a seat "
                            f"({', '.join(KINDS)})")
    unknown = [k for k in raw if k not in KINDS]
    if unknown:
        raise ScenarioError(f"'players': unknown kind {quoted(unknown[0])}: expected one of {', '.join(KINDS)}")
    return list(raw)


def load_scenario(obj: Any, players: list[str] | None = None) -> tuple[Deal, list[_Script]]:
    """Check a scenario object and set up its deal and scripted seats. ``players`` (one
    controller kind a seat) replaces the scenario's own and makes autoplay ``ai``."""
    if not isinstance(obj, dict):
        raise ScenarioError("a scenario is a JSON object with 'variant', 'wall' or 'seed', and 'actions'")
    name = obj.get("variant")
    if not isinstance(name, str):
        shipped = ", ".join(shipped_variants())
        raise ScenarioError(f"'variant' is required: a shipped variant name ({shipped}) or a path")
    options = obj.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                    for k, v in options.items()):
        raise ScenarioError(f"'options' is {quoted(options)}: expected an object naming a choice for some of the "
                            "variant's options, e.g. {\"base_table\": \"half_spicy\"}")
    try:
        variant = load_variant(name, options)
    except VariantError as exc:
        raise ScenarioError("; ".join(str(p) for p in exc.problems)) from None
    n = variant.table.players
    dealer = obj.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise ScenarioError(f"'dealer' is {quoted(dealer)}: expected a seat 0-{n - 1}")
    repeats = obj.get("dealer_repeats", 0)
    if not isinstance(repeats, int) or isinstance(repeats, bool) or not 0 <= repeats <= 999:
        raise ScenarioError(f"'dealer_repeats' is {quoted(repeats)}: expected how many deals in a row the dealer "
                            "has kept, 0-999")
    try:
        if "wall" in obj:
            wall = wall_from_codes(variant.tiles, obj["wall"])
        elif "wall_ids" in obj:
            wall = check_wall_ids(variant.tiles, obj["wall_ids"])
        elif isinstance(obj.get("seed"), int) and not isinstance(obj.get("seed"), bool):
            wall = shuffled_wall(variant.tiles, obj["seed"])
        elif "seed" in obj:
            raise ScenarioError(f"'seed' is {quoted(obj['seed'])}: expected an integer (or give a 'wall')")
        else:
            raise ScenarioError("give a 'wall' (every tile code in draw order) or an integer 'seed'")
    except WallError as exc:
        raise ScenarioError(f"wall: {exc}") from None
    autoplay = obj.get("autoplay", "drawn-tile")
    if autoplay not in AUTOPLAY:
        raise ScenarioError(f"'autoplay' is {quoted(autoplay)}: expected one of {', '.join(AUTOPLAY)}")
    if players is not None:
        kinds = _players(players, n)
        autoplay = "ai"
    elif "players" in obj:
        kinds = _players(obj["players"], n)
    else:
        kinds = ["ai"] * n
    if autoplay == "ai":
        from .bots import make_controller

        seed = obj.get("seed", 0) if isinstance(obj.get("seed"), int) else 0
        fallbacks: list[Controller] = [make_controller(kinds[s], seed * n + s) for s in range(n)]
    else:
        fallbacks = [DrawnTileAutoplay()] * n
    actions = obj.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("'actions' must be a list of {seat, do, ...} objects")
    scripts = [_Script(s, fallbacks[s]) for s in range(n)]
    for i, raw in enumerate(actions):
        seat = raw.get("seat") if isinstance(raw, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ScenarioError(f"action {i}: 'seat' is {quoted(seat)}: expected a seat 0-{n - 1}")
        try:
            action = Action.from_json(raw)
        except ActionError as exc:
            raise ScenarioError(f"action {i} (seat {seat}): {exc}") from None
        scripts[seat].queue.append((i, action))
    try:
        deal = Deal(variant, wall, dealer, repeats)
    except ValueError as exc:  # pragma: no cover - inputs are checked above
        raise ScenarioError(str(exc)) from None
    return deal, scripts


def run(deal: Deal, scripts: list[_Script], reasons: list[str | None] | None = None) -> Deal:
    """Play the deal, raising :class:`ScenarioError` at the first illegal scripted action;
    ``reasons``, when given, gets one entry a decision taken: why autoplay took it (None
    for a scripted one, or a controller that does not say)."""
    while not deal.over:
        for decision in deal.pending():
            script = scripts[decision.seat]
            index, action = script.choose(deal, decision)
            try:
                deal.act(decision.seat, action)
            except IllegalAction as exc:
                if index is None:  # pragma: no cover - autoplay only proposes legal options
                    raise
                raise ScenarioError(f"action {index} (seat {decision.seat}, {action.label()}): {exc}") from None
            if reasons is not None:
                reasons.append(script.why() if index is None else None)
            if deal.over:
                break
    for script in scripts:
        if script.queue:
            index, action = script.queue[0]
            raise ScenarioError(f"action {index} (seat {script.seat}, {action.label()}): still queued when the deal "
                                f"ended ({deal.end}); the seat was never asked for it")
    return deal


def replay(obj: Any, players: list[str] | None = None, explain: bool = False) -> dict[str, Any]:
    """The result object of one scenario (see docs/interfaces.md). ``players``: the
    controller kinds of the seats, replacing the scenario's (autoplay is then ``ai``);
    ``explain``: each decision the AI took carries ``why``, its reason in one line."""
    deal, scripts = load_scenario(obj, players)
    reasons: list[str | None] = []
    result = run(deal, scripts, reasons).result()
    if explain:
        for entry, why in zip(result["decisions"], reasons):
            if why is not None:
                entry["why"] = why
    return result
