"""Typing of expressions: each node's type and what each name denotes, or an error.

Types are words: "number", "bool", "player", "cells", "dirs" (and "ply", "flag" for the
arguments some functions take). Typing records each node's type and each name's meaning in
`typed` and `refs` (by node), which
the lowering (dsl/lower.py) reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dsl import board as boards
from dsl import syntax as syn
from dsl.check_board import BoardChecks
from dsl.constructs import MotionConstruct, functions

FUNCTIONS = functions.SIGNATURES
TYPE_WORDS = {"number": "a number", "bool": "a condition", "player": "a player",
              "cells": "a set of cells", "dirs": "directions"}
KEYWORD_TYPES = {"empty": "cells", "here": "cells", "from": "cells", "path": "cells",
                 "last_from": "cells", "last_to": "cells",
                 "captured": "number", "mover": "player",
                 "opponent": "player", "next": "player", "no legal ply": "bool"}
PIECES_MOVE = "pieces move; this needs a fixed set of cells (cells or regions)"
VARIABLES_CHANGE = "a variable changes during play; this needs a fixed set of cells"

# Types a subexpression in the context of the expression being typed.
Sub = Callable[[syn.Expr], "str | None"]


def described(t: str) -> str:
    """A type as messages name it: "a set of cells" (an unknown word as it is)."""
    return TYPE_WORDS.get(t, t)


class ExprChecks(BoardChecks):
    motion_construct: MotionConstruct | None = None  # the motion of the ply being checked (check_rules)

    def expect(self, e: syn.Expr, want: str, ply: bool, stuck: bool = False,
               here: bool = True, captured: bool = False) -> None:
        """Type `e` and report it unless it is of type `want`.

        `ply`: in a ply rule (here, from, path are known); `stuck`: in an end rule (no
        legal ply is known); `here`: `here` is known (not in a ply's distance, counted
        before the piece moves); `captured`: in an effect (`captured` is known).
        """
        self.captured_ok = captured
        t = self.typeof(e, ply=ply, stuck=stuck, here=here)
        self.captured_ok = False
        if t is not None and t != want:
            self.error(e.span, f"expected {TYPE_WORDS[want]}, found {described(t)}")

    def typeof(self, e: syn.Expr, static: bool = False, ply: bool = False,
               stuck: bool = False, here: bool = True) -> str | None:
        """Type `e` and its subexpressions (recorded in `typed`, names in `refs`); None after an error.

        `static`: the value must be known before play (a region, a setup line); the rest
        as for `expect`.
        """
        t = self._typeof(e, static, ply, stuck, here)
        self.typed[id(e)] = t
        return t

    def _typeof(self, e: syn.Expr, static: bool, ply: bool, stuck: bool, here_ok: bool) -> str | None:
        sub = lambda x: self.typeof(x, static, ply, stuck, here_ok)  # noqa: E731
        if isinstance(e, syn.Num):
            return "number"
        if isinstance(e, syn.Name):
            return self.type_name(e, static)
        if isinstance(e, syn.Keyword):
            return self.type_keyword(e, static, ply, stuck, here_ok)
        if isinstance(e, syn.Owned):
            return self.type_owned(e, static)
        if isinstance(e, syn.Index):
            return self.type_index(e, static, sub)
        if isinstance(e, syn.Call):
            return self.type_call(e, sub)
        if isinstance(e, syn.BinOp):
            return self.type_binop(e, sub)
        if isinstance(e, syn.Compare):
            return self.type_compare(e, sub)
        if isinstance(e, syn.BoolOp):
            return self.type_boolop(e, sub)
        if isinstance(e, (syn.Not, syn.Negate)):
            return self.type_unary(e, sub)
        raise AssertionError(e)

    # ------------------------------------------------------------------ words and names
    def type_keyword(self, e: syn.Keyword, static: bool, ply: bool, stuck: bool,
                     here_ok: bool) -> str | None:
        w = e.word
        if w in ("here", "from") and not ply:
            self.error(e.span, f"'{w}' means a cell of the ply being made; it is used only in ply rules")
            return None
        if w == "from" and self.motion_construct is not None and self.motion_construct.no_from:
            self.error(e.span, f"'from' is no cell in a `{self.motion_construct.name}` ply: "
                               f"{self.motion_construct.no_from}")
            return None
        if w == "path" and not ply:
            self.error(e.span, "'path' means the cells a ply passes; it is used only in ply rules")
            return None
        if w == "captured" and not self.captured_ok:
            self.error(e.span, "'captured' counts what a ply removed; it is used only in "
                               "effects (`then`, `after each ply`)")
            return None
        if w == "here" and not here_ok:
            self.error(e.span, f"'here' is not known yet: {self.here_unknown}",
                       "use 'from', the cell it leaves")
            return None
        if w == "opponent" and len(self.player_names) > 2:
            self.error(e.span, f"'opponent' is the other player of a two-player game; this one has "
                               f"{len(self.player_names)}", "name a player, or use 'next' (who plays next)")
            return None
        if w == "no legal ply" and not stuck:
            self.error(e.span, "'no legal ply' is used only in end rules")
            return None
        if static:
            self.error(e.span, f"'{w}' depends on the position; this needs a fixed set of cells")
            return None
        if w in ("last_from", "last_to"):
            self.remembers = True
        return KEYWORD_TYPES[w]

    def type_owned(self, e: syn.Owned, static: bool) -> str | None:
        if static:
            self.error(e.span, PIECES_MOVE)
            return None
        if e.kind != "piece" and e.kind not in self.kinds:
            self.error(e.span, f"unknown piece '{e.kind}'", self.suggest(e.kind, self.kinds))
            return None
        if e.owner not in (None, "own", "opponent's") and e.owner[:-2] not in self.player_names:
            self.error(e.span, f"unknown player '{e.owner[:-2]}' (players: {', '.join(self.player_names)})",
                       self.suggest(e.owner[:-2], self.player_names))
            return None
        return "cells"

    def type_index(self, e: syn.Index, static: bool, sub: Sub) -> str | None:
        if e.name in self.player_regions:  # `store[mover]`: one player's cells of a region
            if static:
                self.error(e.span, f"'{e.name}' is a region per player: it is read in the rules, where "
                                   f"a player is known")
                return None
            it = sub(e.index)
            if it is not None and it != "player":
                self.error(e.index.span, f"expected a player, found {described(it)}")
            return "cells"
        var = self.vars.get(e.name)
        kind = self.kinds.get(e.name) if var is None else None
        if kind is not None:  # `seed[CELLS]`: how many pieces of a counted kind stand on cells
            if not kind.counted:
                self.error(e.span, f"a cell holds one '{e.name}' at most: count the cells",
                           f"write count({e.name} & ...)")
                return None
            if static:
                self.error(e.span, PIECES_MOVE)
                return None
            it = sub(e.index)
            if it is not None and it != "cells":
                self.error(e.index.span, f"expected a set of cells, found {described(it)}")
            return "number"
        if var is None:
            self.error(e.span, f"unknown variable '{e.name}'", self.suggest(e.name, self.vars))
            return None
        if not var.per_player:
            self.error(e.span, f"'{e.name}' is not kept per player: drop the [...]")
            return None
        if static:
            self.error(e.span, VARIABLES_CHANGE)
            return None
        it = sub(e.index)
        if it is not None and it != "player":
            self.error(e.index.span, f"expected a player, found {described(it)}")
        return "number"

    def type_name(self, e: syn.Name, static: bool) -> str | None:
        entry = self.names.get(e.name)
        if entry is None:
            self.unknown_name(e)
            return None
        category = entry[0]
        if category == "cell":
            self.refs[id(e)] = ("cell", self.board.index[e.name])
            return "cells"
        if category == "region":
            return self.type_region(e)
        if category == "player":
            if static:
                self.error(e.span, f"'{e.name}' is a player; this needs a set of cells")
                return None
            self.refs[id(e)] = ("player", self.player_names.index(e.name))
            return "player"
        if category == "piece kind":
            if static:
                self.error(e.span, PIECES_MOVE)
                return None
            self.refs[id(e)] = ("kind", e.name)
            return "cells"
        if category == "variable":
            return self.type_variable(e, static)
        if category == "direction":
            if e.name in self.relative:
                if self.motion_construct is None:  # an end rule's or `after each ply`'s
                    self.error(e.span, f"'{e.name}' is each player's own direction: it is known in "
                                       f"a ply rule, not here", "name the board's directions")
                    return None
                self.refs[id(e)] = ("reldirs", e.name)
                return "dirs"
            self.refs[id(e)] = ("dirs", self.board.resolve_dirs([e.name]))
            return "dirs"
        if category == "relation":
            self.error(e.span, f"'{e.name}' is a relation: it takes a set of cells",
                       f"write {e.name}(CELLS)")
            return None
        if category == "player region":
            self.error(e.span, f"'{e.name}' is a region per player: say whose",
                       f"write {e.name}[mover] or {e.name}[{self.player_names[0]}]")
            return None
        if category == "track":
            self.error(e.span, f"'{e.name}' is a track: `sow {e.name}` follows it; it is no set of cells")
            return None
        raise AssertionError(category)

    def unknown_name(self, e: syn.Name) -> None:
        """Report a name nothing declares, unless its declaration had a syntax error."""
        if e.name in self.broken:
            return
        if re.fullmatch(r"[A-Za-z]+[0-9]+", e.name):
            first, last = self.board.names[0], self.board.names[-1]
            self.error(e.span, f"no cell '{e.name}' on this board (cells {first} to {last})",
                       self.suggest(e.name, self.names))
            return
        if e.name in boards.SQUARE_DIRS.keys() | boards.SQUARE_GROUPS.keys():
            self.check_dirs([(e.name, e.span)])  # a direction this board lacks: say how to add it
            return
        # Imported here, so that importing the checker (for `Ruleset`) does not load Lark.
        from dsl.lark_parser import expression_keywords  # the grammar's own words: empty, here, ...
        # Declared names (pieces, regions, variables, players, relations, directions,
        # goals), cells, and the keywords that are values of their own.
        self.error(e.span, f"unknown name '{e.name}'",
                   self.suggest(e.name, [n for n, (c, _) in self.names.items() if c != "cell"]
                                + list(self.board.index) + list(expression_keywords())))

    def type_region(self, e: syn.Name) -> str | None:
        if e.name in self.builtin_regions:  # in the ruleset only once used
            self.regions.setdefault(e.name, self.builtin_regions[e.name])
        if e.name not in self.regions:
            self.error(e.span, f"region '{e.name}' is used before it is declared")
            return None
        self.refs[id(e)] = ("region", e.name)
        return "cells"

    def type_variable(self, e: syn.Name, static: bool) -> str | None:
        var = self.vars.get(e.name)
        if var is None:
            return None
        if var.per_player:
            self.error(e.span, f"'{e.name}' is kept per player: say whose",
                       f"write {e.name}[mover] or {e.name}[{self.player_names[0]}]")
            return None
        if static:
            self.error(e.span, VARIABLES_CHANGE)
            return None
        self.refs[id(e)] = ("var", e.name)
        return "number"

    # ------------------------------------------------------------------ operators
    def type_binop(self, e: syn.BinOp, sub: Sub) -> str | None:
        a, b = sub(e.left), sub(e.right)
        if a is None or b is None:
            return None
        if e.op in ("&", "|"):
            want = "cells"
        elif e.op == "*":
            want = "number"
        else:
            want = a if a in ("number", "cells") else "number"
        for side, t in (("left", a), ("right", b)):
            if t != want:
                self.error(e.span, f"'{e.op}' needs {TYPE_WORDS[want]} on both sides; "
                                   f"the {side} side is {described(t)}")
                return None
        if e.op == "+" and want == "cells":
            self.error(e.span, "join sets of cells with '|', not '+'")
            return None
        return want

    def type_compare(self, e: syn.Compare, sub: Sub) -> str | None:
        a, b = sub(e.left), sub(e.right)
        if a is None or b is None:
            return None
        if e.op == "in" and (a != "cells" or b != "cells"):
            side = "left side" if a != "cells" else "right side"
            t = a if a != "cells" else b
            self.error(e.span, f"'in' asks whether cells lie in a set; the {side} is {described(t)}")
            return None
        if a != b:
            self.error(e.span, f"cannot compare {described(a)} with {described(b)}")
            return None
        if e.op == "in":
            return "bool"
        if a != "number" and e.op not in ("==", "!="):
            self.error(e.span, f"'{e.op}' compares numbers; {described(a)} can only be "
                               f"compared with == or !=")
            return None
        return "bool"

    def type_boolop(self, e: syn.BoolOp, sub: Sub) -> str | None:
        ok = True
        for x in (e.left, e.right):
            t = sub(x)
            if t is not None and t != "bool":
                self.error(x.span, f"'{e.op}' joins conditions; this is {described(t)}")
            ok = ok and t == "bool"
        return "bool" if ok else None

    def type_unary(self, e: syn.Not | syn.Negate, sub: Sub) -> str | None:
        if isinstance(e, syn.Not):
            want, where, takes = "bool", e.operand.span, "'not' takes a condition"
        else:
            want, where, takes = "number", e.span, "'-' takes a number"
        t = sub(e.operand)
        if t is not None and t != want:
            self.error(where, f"{takes}; this is {described(t)}")
            return None
        return want if t else None

    # ------------------------------------------------------------------ calls
    def type_call(self, e: syn.Call, sub: Sub) -> str | None:
        if e.func in self.relations:
            return self.type_relation_call(e, sub)
        if e.func in self.broken:
            return None
        if e.func not in FUNCTIONS:
            self.error(e.span, f"unknown function '{e.func}' (known: {', '.join(FUNCTIONS)})",
                       self.suggest(e.func, FUNCTIONS))
            return None
        params, result = FUNCTIONS[e.func]
        if params in (["ply+"], ["ply*"]):
            return self.type_ply_names(e, result)
        if not self.call_shape_ok(e, params):
            return None
        ok = True
        for arg, want in zip(e.args, params):
            want = want.rstrip("?")
            if want == "flag":  # a keyword argument, checked above
                continue
            if want == "pieces":  # a selection of pieces: `own man`, `White's man`, `man`
                ok = self.type_selection_arg(e, arg, sub) and ok
                continue
            if want == "track":
                ok = self.type_track_arg(e, arg) and ok
                continue
            t = sub(arg)
            if t is None:
                ok = False
            elif t != want:
                self.error(arg.span, f"{e.func}() expects {TYPE_WORDS[want]} here, found {described(t)}")
                ok = False
        return result if ok else None

    def type_selection_arg(self, e: syn.Call, arg: syn.Expr, sub: Sub) -> bool:
        """A function's pieces, named as a selection: the kinds held in reserve for
        reserve(), a counted kind for holding()."""
        kind = arg.kind if isinstance(arg, syn.Owned) else arg.name if isinstance(arg, syn.Name) and \
            self.names.get(arg.name, ("",))[0] == "piece kind" else None
        if kind is None:
            what, example = ("counts pieces held off the board", "`own man` or `White's man`") \
                if e.func == "reserve" else ("finds the cells holding pieces", "`seed`")
            self.error(arg.span, f"{e.func}() {what}: name them as in a ply, e.g. {example}")
            return False
        if sub(arg) is None:
            return False
        kinds = self.kinds if kind == "piece" else [kind]
        if e.func == "reserve" and not [k for k in kinds if self.kinds[k].reserve is not None]:
            self.error(arg.span, f"'{kind}' has no reserve: its pieces are never held off the board",
                       f"give it one: `piece {kind if kind != 'piece' else 'KIND'}: ..., reserve N`")
            return False
        if e.func == "holding" and not all(self.kinds[k].counted for k in kinds):
            self.error(arg.span, f"'{kind}' is not counted: a cell holds one at most",
                       f"write `{kind}` for the cells holding one")
            return False
        return True

    def type_track_arg(self, e: syn.Call, arg: syn.Expr) -> bool:
        """A track, by name."""
        if not isinstance(arg, syn.Name) or self.names.get(arg.name, ("",))[0] != "track":
            self.error(arg.span, f"{e.func}() goes along a track: name one declared with `track`",
                       self.suggest(arg.name, self.tracks) if isinstance(arg, syn.Name) else None)
            return False
        self.typed[id(arg)], self.refs[id(arg)] = "flag", ("flag", arg.name)
        return True

    def type_relation_call(self, e: syn.Call, sub: Sub) -> str | None:
        if len(e.args) != 1:
            self.error(e.span, f"{e.func}() takes 1 argument, given {len(e.args)}")
            return None
        t = sub(e.args[0])
        if t is not None and t != "cells":
            self.error(e.args[0].span, f"{e.func}() expects a set of cells here, found {described(t)}")
            return None
        return "cells" if t else None

    def call_shape_ok(self, e: syn.Call, params: list[str]) -> bool:
        """What a built-in call needs before its arguments are typed: line()'s flag, the
        number of arguments, in_a_row()'s fixed length. False after an error."""
        if e.func == "line" and len(e.args) == 4:
            flag = e.args[3]
            if not isinstance(flag, syn.Name) or flag.name != "contiguous":
                self.error(flag.span, "line() takes `contiguous` as its fourth argument, or nothing")
                return False
            self.typed[id(flag)], self.refs[id(flag)] = "flag", ("flag", "contiguous")
        required = [p for p in params if not p.endswith("?")]
        if not len(required) <= len(e.args) <= len(params):
            count = str(len(params)) if len(required) == len(params) else f"{len(required)} or {len(params)}"
            self.error(e.span, f"{e.func}() takes {count} argument{'s' if params != ['cells'] else ''}, "
                               f"given {len(e.args)}")
            return False
        if e.func == "in_a_row" and not (isinstance(e.args[0], syn.Num)
                                         and 1 <= e.args[0].value <= self.board.size):
            self.error(e.args[0].span, f"in_a_row() needs a fixed length from 1 to {self.board.size}")
            return False
        return True

    def type_ply_names(self, e: syn.Call, result: str) -> str | None:
        """undoes(PLY, ...) and last_ply(PLY, ...): the arguments name ply rules, not values."""
        if e.func == "undoes" and not self.in_ply:
            self.error(e.span, f"{e.func}() compares a ply with the one before it; it is used "
                               f"only in a ply's `where`")
            return None
        if not e.args and e.func == "undoes":
            self.error(e.span, f"{e.func}() names the plies it looks back at, e.g. {e.func}(slide)")
            return None
        self.remembers = True
        ok = True
        names = self.ply_names + (["pass"] if e.func == "last_ply" else [])
        for arg in e.args:
            if not isinstance(arg, syn.Name) or arg.name not in names:
                what = f"'{arg.name}'" if isinstance(arg, syn.Name) else "this"
                self.error(arg.span, f"{e.func}() takes ply names; {what} is not a ply",
                           self.suggest(arg.name, names) if isinstance(arg, syn.Name) else None)
                ok = False
            else:
                self.refs[id(arg)], self.typed[id(arg)] = ("ply", arg.name), "ply"
        return result if ok else None

    # ------------------------------------------------------------------ static cell sets
    def static_cells(self, expr: syn.Expr) -> frozenset[int] | None:
        """A cell set known without a position (cells, regions, set operators)."""
        t = self.typeof(expr, static=True)
        if t is None:
            return None
        if t != "cells":
            self.error(expr.span, f"expected a set of cells, found {described(t)}")
            return None
        return self.eval_static(expr)

    def eval_static(self, e: syn.Expr) -> frozenset[int]:
        """The cells of a typed static expression (static_cells checked it)."""
        if isinstance(e, syn.Name):
            kind, value = self.refs[id(e)]
            return frozenset([value]) if kind == "cell" else self.regions[value]
        if isinstance(e, syn.BinOp):
            a, b = self.eval_static(e.left), self.eval_static(e.right)
            return {"|": a | b, "&": a & b, "-": a - b, "+": a | b}[e.op]
        if isinstance(e, syn.Call) and e.func == "adjacent":
            src = self.eval_static(e.args[0])
            dirs = self.board.resolve_dirs(self.refs[id(e.args[1])][1]) if len(e.args) > 1 else None
            return frozenset(n for c in src for n in self.board.neighbours(c, dirs))
        raise AssertionError(f"not static: {e}")
