"""Winning the Game: the final scoring steps and the ranking with its tie-breaks.

Rulebook: "Winning the Game" (page 23). Traveling ships arrive, then the city walls give
fame by the number of segments, then one fame per full 15 gold; the most fame wins, ties go
to the most gold and then the most goods, and players still tied all win. Players who left
(drop-out variant) are scored but not ranked.
"""

from __future__ import annotations

from referee.contract import Event, Result
from referee.wording import Phrase, phrase

from .draft import writable_sheet
from .ships import move_ships
from .state import GameState, components_of, goods_total, new_phase_key

# The result's score keys in the rulebook's words, in reading order (reports, standings).
SCORE_LABELS = {
    "fame": phrase("fame"), "gold": phrase("gold"), "goods": phrase("goods"),
    "ships_fame": phrase("fame from ships"), "walls_fame": phrase("fame from walls"),
    "gold_fame": phrase("fame for gold"), "ships_gold": phrase("gold from ships"),
    "dropped": phrase("left the game"),
}
# Winning the Game: the most fame, then the most gold, then the most goods.
TIE_BREAKS = ("fame", "gold", "goods")


def final_scoring(state: GameState, events: list[Event]) -> None:
    """Traveling ships, city walls and gold, in that order; then the game is over."""
    components = components_of(state)
    move_ships(state, events, final=True)
    for name in state["players"]:
        sheet = writable_sheet(state, name)
        walls = len(sheet["walls"])
        walls_fame = components["wall_fame"][walls - 1] if walls else 0
        sheet["fame"] += walls_fame
        gold_fame = sheet["gold"] // components["fame_per_gold"]
        sheet["fame"] += gold_fame
        sheet["score"]["walls_fame"] = walls_fame
        sheet["score"]["gold_fame"] = gold_fame
        events.append(Event("score", _final_fame(name, walls_fame, gold_fame, sheet["fame"]),
                            {"player": name, "fame": sheet["fame"], "gold": sheet["gold"]}))
    state["phase"] = "over"
    new_phase_key(state)


def _final_fame(player: str, walls: int, gold: int, fame: int) -> Phrase:
    """The fame a player scores at the end, as a sentence with the player as its subject (as
    every other line of the history), naming only the sources that gave some."""
    if walls and gold:
        return phrase("{player} scores {walls} fame for walls and {gold} for gold: {fame} fame in all.",
                      player=player, walls=walls, gold=gold, fame=fame)
    if walls or gold:
        return phrase("{player} scores {walls} fame for walls (none for gold): {fame} fame in all.", player=player,
                      walls=walls, fame=fame) if walls else \
            phrase("{player} scores {gold} fame for gold (none for walls): {fame} fame in all.", player=player,
                   gold=gold, fame=fame)
    return phrase("{player} scores no fame for walls or gold: {fame} fame in all.", player=player, fame=fame)


def result(state: GameState) -> Result | None:
    """Scores of everyone, places of the players still in the game, the winners."""
    if state["phase"] != "over":
        return None
    sheets = state["p"]
    scores = {}
    for name in state["players"]:
        sheet = sheets[name]
        scores[name] = {"fame": sheet["fame"], "gold": sheet["gold"], "goods": goods_total(sheet),
                        "dropped": sheet["dropped"], **sheet["score"]}
    live = [n for n in state["players"] if not sheets[n]["dropped"]]

    def standing(name: str) -> tuple[int, int, int]:
        return sheets[name]["fame"], sheets[name]["gold"], goods_total(sheets[name])

    places: list[list[str]] = []
    for name in sorted(live, key=standing, reverse=True):
        if places and standing(places[-1][0]) == standing(name):
            places[-1].append(name)
        else:
            places.append([name])
    return Result(scores, tuple(tuple(x) for x in places), tuple(places[0]))
