"""Checks of the rules of play: plies, their effects, the turn, end rules, `after each ply`."""

from __future__ import annotations

from dsl import constructs
from dsl import syntax as syn
from dsl.check_exprs import ExprChecks
from dsl.model import TurnPhase


class RuleChecks(ExprChecks):
    # ------------------------------------------------------------------ plies
    def check_plies(self, plies: list[syn.PlyDecl]) -> dict[str, syn.PlyDecl]:
        """Check each ply rule; the rules by name (the first of a name, reserved ones left out)."""
        ply_names: dict[str, syn.PlyDecl] = {}
        self.ply_names = [p.name for p in plies]
        self.remembers = False
        for p in plies:
            if p.name in ply_names or p.name in ("any", "pass"):
                self.error(p.name_span, f"ply '{p.name}' is declared twice" if p.name in ply_names
                           else f"'{p.name}' is a reserved ply name")
                continue
            ply_names[p.name] = p
            self.check_ply(p)
        if not plies and "ply" not in self.broken_kinds:
            self.error(None if not self.decls else self.decls[0].span,
                       "the ruleset declares no ply: nothing can ever move",
                       "add a rule such as `ply step: move own piece step onto empty`")
        return ply_names

    def check_ply(self, p: syn.PlyDecl) -> None:
        self.motion_construct = constructs.SYNTAX[p.motion.kind]
        try:
            self._check_ply(p, self.motion_construct)
        finally:
            self.motion_construct = None

    def _check_ply(self, p: syn.PlyDecl, construct: constructs.MotionConstruct) -> None:
        if p.owner not in (None, "own", "opponent's") and p.owner[:-2] not in self.player_names:
            self.error(p.kind_span, f"unknown player '{p.owner[:-2]}' (players: {', '.join(self.player_names)})",
                       self.suggest(p.owner[:-2], self.player_names))
        if p.kind != "piece" and p.kind not in self.kinds:
            self.error(p.kind_span, f"unknown piece '{p.kind}'", self.suggest(p.kind, self.kinds))
        elif construct.name != "place" and (p.kind in self.placed_whole or p.kind == "piece" and self.placed_whole):
            kind = p.kind if p.kind != "piece" else sorted(self.placed_whole)[0]
            self.error(p.motion.span, f"pieces of '{kind}' cover several cells and are placed whole: "
                                      f"no rule may '{p.motion.kind}' them",
                       "a placed piece covering several cells stays where it is put; use another kind for pieces that move")
        elif not construct.wide_pieces and any(
                self.kinds[k].size > 1 for k in ([p.kind] if p.kind != "piece" else self.kinds)):
            wide = " or ".join(f"`{c.name}`" for c in constructs.SYNTAX.values() if c.wide_pieces and c.moves)
            put = " or ".join(f"`{c.name}`" for c in constructs.SYNTAX.values() if c.wide_pieces and not c.moves)
            self.error(p.motion.span, f"pieces covering several cells move only {wide} ({put} puts them down whole); "
                                      f"'{p.motion.kind}' is not supported for them")
        elif p.kind == "piece":
            self.check_one_size(p)
        self.check_counted(p, construct)
        self.check_dirs(p.motion.dirs, straight=construct.straight)
        construct.check(p, self.error, self.board.size)
        if p.motion.limit is not None:
            self.expect(p.motion.limit, "number", ply=True, here=False)
        if p.motion.cells is not None:
            self.here_unknown = "the cells left out are known before the pieces go"
            self.expect(p.motion.cells, "cells", ply=True, here=False)
            self.here_unknown = "a distance is counted before the piece moves"
        if p.onto is not None:
            self.expect(p.onto, "cells", ply=True)
        if p.where is not None:
            self.in_ply = True
            self.expect(p.where, "bool", ply=True)
            self.in_ply = False
        for eff in p.effects:
            self.check_effect(eff)

    def check_counted(self, p: syn.PlyDecl, construct: constructs.MotionConstruct) -> None:
        """Counted kinds move only by a construct for them (`sow`), which moves nothing else;
        its track is a declared one."""
        counted = [k for k in ([p.kind] if p.kind != "piece" else list(self.kinds))
                   if k in self.kinds and self.kinds[k].counted]
        for_counted = [c.name for c in constructs.SYNTAX.values() if c.counted]
        if construct.counted:
            if p.kind in self.kinds and not counted:
                self.error(p.kind_span, f"`{construct.name}` moves counted pieces; '{p.kind}' is not "
                                        f"counted", f"add `counted` to piece '{p.kind}'")
            if p.motion.track is not None and p.motion.track[0] not in self.tracks:
                name, span = p.motion.track
                self.error(span, f"unknown track '{name}'", self.suggest(name, self.tracks))
        elif counted:
            self.error(p.motion.span, f"pieces of '{counted[0]}' are counted, a cell holding any "
                                      f"number: only {' or '.join(f'`{n}`' for n in for_counted)} "
                                      f"moves them, not '{p.motion.kind}'")

    def check_one_size(self, p: syn.PlyDecl) -> None:
        """`piece` in a ply selects kinds of one size: a ply names one placement table."""
        for player in range(len(self.players or [])):
            others = [q for q in range(len(self.players or [])) if q != player]
            named = [i for i, name in enumerate(self.player_names) if f"{name}'s" == p.owner]
            owners = {"own": [player], "opponent's": others, None: [player, None]}.get(p.owner, named)
            sizes = sorted({t.size * t.cover for t in self.types if t.owner in owners})
            if len(sizes) > 1:
                self.error(p.kind_span, f"'piece' here means pieces covering {sizes[0]} and "
                                        f"{sizes[-1]} cells: one rule moves pieces of one size",
                           "write one rule per kind")
                return

    def check_effect(self, eff: syn.Effect, in_end: bool = False, after: bool = False) -> None:
        """An effect of a ply, an end rule (`in_end`) or `after each ply` (`after`)."""
        construct = constructs.EFFECTS[eff.kind]
        counted = sorted(k for k, d in self.kinds.items() if d.counted)
        if not construct.may_stand(in_end, after):
            self.error(eff.span, f"`{construct.words}` is an effect of {construct.only} only")
        elif counted and eff.kind in ("remove", "promote", "reset"):
            self.error(eff.span, f"`{construct.words}` is not for counted pieces ('{counted[0]}')",
                       f"change counts with `{counted[0]}[CELLS] = 0`, `+=`, `-=`")
        else:
            construct.check(self, eff, in_end, after)

    # ------------------------------------------------------------------ turn, ends, after
    def check_turns(self, turns: list[syn.TurnDecl], plies: dict[str, syn.PlyDecl]
                    ) -> tuple[list[TurnPhase] | None, list[TurnPhase]]:
        """(the first turn's phases if declared, every other turn's): without a `turn`
        line, a turn is one ply of any rule."""
        turn = first = None
        for t in turns:
            phases = self.check_turn(t, plies)
            if t.first:
                first = phases
            else:
                turn = phases
        if turn is None:
            turn = [TurnPhase(list(plies), False, False)]
        return first, turn

    def check_turn(self, t: syn.TurnDecl, plies: dict[str, syn.PlyDecl]) -> list[TurnPhase]:
        phases = []
        for ph in t.phases:
            names: list[str] = []
            allows_pass = False
            for name, span in ph.plies:
                if name == "any":
                    names.extend(n for n in plies if n not in names)
                elif name == "pass":
                    allows_pass = True
                elif name not in plies:
                    self.error(span, f"unknown ply '{name}'", self.suggest(name, plies))
                elif name not in names:
                    names.append(name)
            phases.append(TurnPhase(names, allows_pass, ph.when_possible, ph.span))
        return phases

    def check_ends(self, ends: list[syn.EndDecl]) -> None:
        seen: set[str] = set()
        for e in ends:
            if e.name in seen:
                self.error(e.name_span, f"end rule '{e.name}' is declared twice")
            seen.add(e.name)
            if e.before is not None:  # a variant's merge places it and clears it
                self.error(e.before[1], "`before` places a variant's end rule among its base's; here "
                                        "the end rules are checked in the order they are written",
                           f"move the rule above end '{e.before[0]}'")
            self.check_end(e)

    def check_end(self, e: syn.EndDecl) -> None:
        if e.player is not None:
            self.expect(e.player, "player", ply=False, stuck=True)
        self.expect(e.cond, "bool", ply=False, stuck=True)
        for eff in e.effects:
            self.check_effect(eff, in_end=True)

    def check_after(self, after: list[syn.AfterDecl]) -> None:
        for a in after:
            for eff in a.effects:
                self.check_effect(eff, in_end=False, after=True)
