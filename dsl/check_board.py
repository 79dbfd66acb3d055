"""Checks of the board (its shape, removed cells, links, goals), its directions, and the players."""

from __future__ import annotations

from dsl import board as boards
from dsl import syntax as syn
from dsl.check_state import CheckerState

MAX_PLAYERS = 6  # Chinese checkers' six; every player's pieces are types of their own


class BoardChecks(CheckerState):
    def check_board(self, decls: list[syn.BoardDecl], removes: list[syn.RemoveDecl],
                    links: list[syn.LinkDecl], goals: list[syn.GoalDecl]) -> boards.Board | None:
        """The board the last `board` line builds, with its removes, links and goals; None
        (after an error) when there is none to check the rest against."""
        if not decls:
            span = self.decls[0].span if self.decls else None
            self.error(span, "the ruleset declares no board", "add a line such as `board square 5 x 5`")
            return None
        d = decls[-1]
        try:
            board = boards.build(d.shape, d.width, d.height, [o for o, _ in d.options])
        except boards.BoardError as e:
            # an unknown option is shown at the option
            at = next((sp for o, sp in d.options if f"option '{o}'" in str(e)), d.span)
            self.error(at, str(e))
            return None
        cells = self.removed_cells(board, removes)
        if cells and len(set(cells)) == board.size:
            self.error(removes[-1].span, "this removes every cell of the board: none is left to play on")
            return None
        if cells:
            board = boards.remove_cells(board, cells)
        for link in links:
            self.add_link(board, link)
        for goal in goals:
            self.check_goal(board, goal)
        return board

    def removed_cells(self, board: boards.Board, removes: list[syn.RemoveDecl]) -> list[int]:
        cells = []
        for r in removes:
            for name, span in r.cells:
                if name not in board.index:
                    self.error(span, f"cannot remove '{name}': no such cell",
                               self.suggest(name, board.index))
                else:
                    cells.append(board.index[name])
        return cells

    def add_link(self, board: boards.Board, link: syn.LinkDecl) -> None:
        ends = []
        for name, span in (link.a, link.b):
            if name not in board.index:
                self.error(span, f"cannot link '{name}': no such cell",
                           self.suggest(name, board.index))
            else:
                ends.append(board.index[name])
        if len(ends) == 2:
            if ends[0] == ends[1]:
                self.error(link.span, "a link joins two different cells")
            elif link.by is None:
                boards.add_link(board, *ends)
            else:
                name, span = link.by
                back = boards.opposite_of(board, name)
                if back is None:
                    self.error(span, f"a link goes by one of the board's directions, with its opposite "
                                     f"back (this board has: {', '.join(d for d in board.directions if d != boards.LINK)})",
                               self.suggest(name, board.directions))
                elif board.neighbour(ends[0], name) is not None or board.neighbour(ends[1], back) is not None:
                    taken = ends[0] if board.neighbour(ends[0], name) is not None else ends[1]
                    way = name if taken == ends[0] else back
                    self.error(span, f"{board.names[taken]} already has a neighbour {way} "
                                     f"({board.names[board.neighbour(taken, way)]}): a straight line goes one way",
                               "remove the cells between them first, or link without `by`")
                else:
                    boards.add_link(board, *ends, (name, back))

    def check_goal(self, board: boards.Board, goal: syn.GoalDecl) -> None:
        self.broken.add(goal.name)
        if goal.name in board.index:
            self.error(goal.name_span, f"goal '{goal.name}' has the name of a cell")
            return
        cells, ok = [], True
        for name, span in goal.cells:
            if name not in board.index or board.index[name] in board.goals:
                self.error(span, f"a goal is entered from a cell of the board; '{name}' is not one",
                           self.suggest(name, board.index))
                ok = False
            else:
                cells.append(board.index[name])
        lattice = [d for d in board.directions if d != boards.LINK]
        dirs = []
        for name, span in goal.dirs:
            resolved = board.resolve_dirs([name])
            if name not in lattice and name not in board.groups:
                self.error(span, f"a goal is entered by a direction of the board; this board has "
                                 f"no direction '{name}' (it has: {', '.join(lattice)})",
                           self.suggest(name, lattice))
                ok = False
                continue
            dirs += [d for d in resolved if d not in dirs]
        inside = [(c, d, board.neighbour(c, d)) for c in (cells if ok else []) for d in dirs
                  if board.neighbour(c, d) is not None]
        if inside:
            c, d, other = inside[0]
            self.error(goal.span, f"{board.names[c]} already has a neighbour to the {d} "
                                  f"({board.names[other]}); a goal is entered by a step "
                                  f"that leaves the board")
            ok = False
        if ok:
            boards.add_goal(board, goal.name, cells, dirs)
            self.broken.discard(goal.name)

    def check_players(self, decls: list[syn.PlayersDecl]) -> list[tuple[str, syn.Span]] | None:
        """The players of the last `players` line; None (after an error) unless 2 to MAX_PLAYERS."""
        if not decls:
            span = self.decls[0].span if self.decls else None
            self.error(span, "the ruleset declares no players",
                       "add a line such as `players White, Black` (the first moves first)")
            return None
        names = decls[-1].names
        if not 2 <= len(names) <= MAX_PLAYERS:
            self.error(decls[-1].span, f"a game has 2 to {MAX_PLAYERS} players; this one names {len(names)}")
            return None
        return names

    def check_directions(self, decls: list[syn.DirectionDecl]) -> dict[str, list[list[str]]]:
        """`direction NAME: DIRS / DIRS`: each player's own directions, by name."""
        out: dict[str, list[list[str]]] = {}
        self.relative = out
        for d in decls:
            if not self.declare(d.name, "direction", d.name_span):
                continue
            n = len(self.player_names)
            if len(d.per_player) != n:
                self.error(d.span, f"direction '{d.name}' needs one list of directions for each of the "
                                   f"{n} players, separated by /, found {len(d.per_player)}",
                           f"`direction {d.name}: n / s` gives {self.player_names[0]} n and "
                           f"{self.player_names[1]} s")
                continue
            before = len(self.errors)
            for names in d.per_player:
                for name, span in names:
                    if name in out:
                        self.error(span, f"'{name}' is itself a player's own direction: list the "
                                         f"board's directions")
                self.check_dirs([x for x in names if x[0] not in out])
            if len(self.errors) == before:
                out[d.name] = [self.board.resolve_dirs([x for x, _ in names]) for names in d.per_player]
        return out

    def check_dirs(self, dirs: list[tuple[str, syn.Span]] | None, straight: bool = False) -> None:
        """Each direction named is one of the board's (and, for a `straight` motion, not a
        link), or a player's own (`direction forward: n / s`), in a ply rule."""
        for name, span in dirs or []:
            if name in getattr(self, "relative", {}):
                if straight and any(boards.LINK in labels for labels in self.relative[name]):
                    self.error(span, "a link has no direction, so no straight line follows it")
                continue
            if name not in self.board.directions and name not in self.board.groups:
                known = self.board.directions + list(self.board.groups)
                hint = self.suggest(name, known)
                b = self.board
                if b.shape == "square" and name in boards.SQUARE_GROUPS["diagonal"] + ["diagonal"]:
                    hint = (f"add `with diagonals` to the board declaration "
                            f"(`board square {b.width} x {b.height} with diagonals`)")
                self.error(span, f"unknown direction '{name}' (this board has: {', '.join(known)})",
                           hint)
            elif straight and name == boards.LINK:
                self.error(span, "a link has no direction, so no straight line follows it",
                           "move along links with `step link`")
