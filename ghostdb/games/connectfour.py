"""Connect Four on a board of W columns and H rows (4 × 4 by default, each 4–7).

Two players take turns dropping a disc into a column that is not full; it falls to the
lowest free cell.  Four of one's own discs in a row — across, up or diagonally — win, so
the position after such a move is lost for the player to move there; a full board with
no line is a tie.  Every position a game can reach from the empty board is stored; play
stops at a win.

Notation: a position is its rows from the top, separated by ``/``, each cell ``x`` (the
first player's disc), ``o`` (the second player's) or ``.`` (empty); the empty 4 × 4
board is ``..../..../..../....``.  A move is the number of the column, 1 to W from the
left; moves are ordered by column.  The level of a position is the number of discs.

The whole graph is built level by level on bitboards (John Tromp's layout: H + 1 bits a
column, the spare bit keeping lines from wrapping into the next column), so 5 × 4, with
3,945,711 positions, builds in seconds; `base.explore` builds the same graph one
position at a time from the text moves, and the tests hold the two together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadFragment, BadMove
from ghostdb.games.base import LOSS, NOT_FINAL, TIE, Game, PositionGraph
from ghostdb.games.connectfour_rules import OPTIONS, ConnectFourRules

if TYPE_CHECKING:  # numpy is for building: lookups start without it
    import numpy as np


def _columns(key: str, width: int, height: int) -> list[str]:
    """The columns of a key, each from the bottom up without its empty cells."""
    rows = key.split("/")
    return [
        "".join(rows[r][c] for r in range(height - 1, -1, -1)).rstrip(".") for c in range(width)
    ]


def _lines(width: int, height: int) -> list[tuple[int, ...]]:
    """Every four cells in a row, as indexes into a key's rows joined without '/'."""
    found = []
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= rr < height and 0 <= cc < width for rr, cc in cells):
                    found.append(tuple(rr * width + cc for rr, cc in cells))
    return found


class ConnectFour(Game):
    name = "connectfour"
    title = "Connect Four"
    rules_type = ConnectFourRules
    options = OPTIONS
    board = "columns"
    marks = ("x", "o")
    in_a_row = 4
    how_to_play = (
        "Two players take turns dropping a disc into a column; it falls to the lowest free "
        "cell. Four of your discs in a row — across, up or diagonally — win; a full board "
        "with no line is a tie. X moves first. Columns are numbered from 1 on the left."
    )
    example_positions = ("..../..../..../....", "..../..../..../.x..")

    def __init__(self, rules: ConnectFourRules | None = None) -> None:
        super().__init__(rules)
        self.width, self.height = self.rules.width, self.rules.height
        self._lines = _lines(self.width, self.height)

    # -- one position ----------------------------------------------------------------------

    def start(self) -> str:
        return "/".join(["." * self.width] * self.height)

    def level(self, key: str) -> int:
        return len(key) - key.count(".") - key.count("/")

    def to_move(self, key: str, players: int | None = None) -> int | None:
        return self.level(key) % 2

    def final(self, key: str) -> int:
        """LOSS when the last mover has four in a row, TIE on a full board, else NOT_FINAL."""
        cells = key.replace("/", "")
        for a, b, c, d in self._lines:
            if cells[a] != "." and cells[a] == cells[b] == cells[c] == cells[d]:
                return LOSS
        return TIE if "." not in cells else NOT_FINAL

    def candidates(self, key: str) -> list[tuple[str, str]]:
        if self.final(key) != NOT_FINAL:
            return []
        mark = "xo"[self.level(key) % 2]
        rows = [list(row) for row in key.split("/")]
        found = []
        for c in range(self.width):
            free = [r for r in range(self.height) if rows[r][c] == "."]
            if free:
                r = free[-1]  # the lowest free cell
                rows[r][c] = mark
                found.append((str(c + 1), "/".join("".join(row) for row in rows)))
                rows[r][c] = "."
        return found

    def parse_move(self, key: str, text: str) -> tuple[str, str]:
        wanted = text.strip()
        for notation, child in self.candidates(key):
            if notation == wanted:
                return notation, child
        if wanted.isdigit() and 1 <= int(wanted) <= self.width:
            raise BadMove(f"column {wanted} is full: {self.move_hint()}")
        raise BadMove(f"{wanted!r} is not a move: {self.move_hint()}")

    def move_hint(self) -> str:
        return f"type the number of a column that is not full, 1-{self.width} from the left"

    def clean_key(self, text: str) -> str:
        """A board typed as rows from the top, separated by '/' or spaces (or one run of
        W × H cells); '-' and '_' may stand for empty cells."""
        cells = text.strip().lower().replace("-", ".").replace("_", ".")
        rows = [r for r in re.split(r"[/\s]+", cells) if r]
        if len(rows) == 1 and len(rows[0]) == self.width * self.height:
            rows = [rows[0][i : i + self.width] for i in range(0, len(rows[0]), self.width)]
        example = self.start()
        if len(rows) != self.height or any(
            len(r) != self.width or set(r) - set("xo.") for r in rows
        ):
            raise BadFragment(
                f"{text!r} is not a {self.width} × {self.height} Connect Four board: write its "
                f"{self.height} rows from the top, separated by '/', each cell x, o or '.', "
                f"e.g. {example}"
            )
        key = "/".join(rows)
        for column in _columns(key, self.width, self.height):
            if "." in column:
                raise BadFragment(f"{text!r} has a disc above an empty cell: discs fall down")
        if key.count("x") - key.count("o") not in (0, 1):
            raise BadFragment(f"{text!r} cannot arise: X moves first and the players alternate")
        return key

    def ending(self, key: str) -> str:
        if self.final(key) == LOSS:
            mover = "xo"[(self.level(key) - 1) % 2]
            return f"{mover.upper()} connected four"
        return "the board is full"

    def label(self, key: str) -> str:
        return key

    def explain(self) -> str:
        return (
            f"Two players take turns dropping a disc into one of {self.width} columns, "
            f"{self.height} cells deep; it falls to the lowest free cell. Four of your discs "
            "in a row, across, up or diagonally, win; a full board with no line is a tie. "
            "X moves first. Columns are numbered from 1 on the left."
        )

    def picture(self, key: str, players: Sequence[str], to_move: int) -> list[str]:
        """The board with its columns numbered beneath, as a move names them."""
        rows = super().picture(key, players, to_move)
        return [*rows, "    " + " ".join(str(c + 1) for c in range(self.width))]

    @classmethod
    def standard_rule_sets(cls, misere: bool = False) -> list[ConnectFourRules]:
        """Every board that fits: 4 × 4, 5 × 4 and 4 × 5."""
        if misere:
            raise BadMove("--misere is not a rule option of connectfour")
        return [ConnectFourRules(4, 4), ConnectFourRules(5, 4), ConnectFourRules(4, 5)]

    def cost(self) -> int:
        return self.width * self.height // 4

    # -- the whole graph --------------------------------------------------------------------

    def build(self, words: Sequence[str] | None = None) -> PositionGraph:
        """Every reachable position, level by level on bitboards (see the module's notes)."""
        import numpy as np

        levels = _levels(self.width, self.height)
        sizes = [len(mask) for mask, _, _ in levels]
        offsets = np.cumsum([0, *sizes])
        keys: list[str] = []
        final_parts, parents, children, ranks = [], [], [], []
        for n, (mask, xs, edges) in enumerate(levels):
            keys.extend(self._texts(mask, xs))
            final_parts.append(_finals(mask, xs, n, self.width, self.height))
            if edges is not None:
                parent, column, child = edges
                parents.append(parent + offsets[n])
                children.append(child + offsets[n + 1])
                ranks.append(column)
        parent = np.concatenate(parents).astype(np.int32)
        rank = np.concatenate(ranks).astype(np.int32)
        order = np.argsort((parent.astype(np.int64) << 8) | rank, kind="stable")
        return PositionGraph(
            keys=keys,
            level=np.repeat(np.arange(len(sizes), dtype=np.int32), sizes),
            final=np.concatenate(final_parts).astype(np.int8),
            edge_parent=parent[order],
            edge_child=np.concatenate(children).astype(np.int32)[order],
            edge_rank=rank[order],
            start=0,
            acyclic=True,
        )

    def _texts(self, mask: np.ndarray, xs: np.ndarray) -> list[str]:
        """The text keys of bitboards, built as one byte array."""
        import numpy as np

        width, height = self.width, self.height
        row = width + 1  # a row's cells and its '/'
        out = np.full((len(mask), row * height - 1), ord("/"), dtype=np.uint8)
        for r in range(height):  # r from the top
            for c in range(width):
                bit = np.int64(1) << np.int64(c * (height + 1) + height - 1 - r)
                cell = np.where(mask & bit, np.where(xs & bit, ord("x"), ord("o")), ord("."))
                out[:, r * row + c] = cell
        return out.view(f"S{out.shape[1]}").ravel().astype(str).tolist()


def _wins(stones: np.ndarray, height: int) -> np.ndarray:
    """Which bitboards hold four in a row (vertical, horizontal and both diagonals)."""
    import numpy as np

    found = np.zeros(len(stones), dtype=bool)
    for shift in (1, height + 1, height, height + 2):
        pairs = stones & (stones >> shift)
        found |= (pairs & (pairs >> (2 * shift))) != 0
    return found


def _finals(mask: np.ndarray, xs: np.ndarray, discs: int, width: int, height: int) -> np.ndarray:
    """The value for the player to move at each final position of one level."""
    import numpy as np

    last = xs if discs % 2 else mask ^ xs  # the discs of whoever moved last
    final = np.full(len(mask), NOT_FINAL, dtype=np.int8)
    if discs == width * height:
        final[:] = TIE
    final[_wins(last, height)] = LOSS
    return final


def _levels(width: int, height: int, last: int | None = None) -> list[tuple[Any, Any, Any]]:
    """Each level's positions as bitboards (occupied cells, X's discs), sorted as their
    text keys sort, with the edges to the next level: (parent, column, child) indexes.
    ``last`` stops after that many discs (the tests count 7 × 6's first levels)."""
    import numpy as np

    bits = width * (height + 1)
    bottom = [np.int64(1) << np.int64(c * (height + 1)) for c in range(width)]
    top = [np.int64(1) << np.int64(c * (height + 1) + height - 1) for c in range(width)]
    mask = np.zeros(1, dtype=np.int64)
    xs = np.zeros(1, dtype=np.int64)
    found = []
    for discs in range(width * height + 1 if last is None else last + 1):
        if discs == last:
            found.append((mask, xs, None))
            break
        open_ = _finals(mask, xs, discs, width, height) == NOT_FINAL
        parent_parts, column_parts, mask_parts, xs_parts = [], [], [], []
        for c in range(width):
            parent = np.flatnonzero(open_ & ((mask & top[c]) == 0))
            before = mask[parent]
            after = before | (before + bottom[c])  # the lowest free cell of column c
            mine = after ^ before if discs % 2 == 0 else 0
            parent_parts.append(parent)
            column_parts.append(np.full(len(parent), c, dtype=np.int32))
            mask_parts.append(after)
            xs_parts.append(xs[parent] | mine)
        child_mask, child_xs = np.concatenate(mask_parts), np.concatenate(xs_parts)
        if not len(child_mask):
            found.append((mask, xs, None))
            break
        next_mask, next_xs, child = _unique_pairs(child_mask, child_xs, bits)
        order = _text_order(next_mask, next_xs, width, height)
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        found.append(
            (mask, xs, (np.concatenate(parent_parts), np.concatenate(column_parts), rank[child]))
        )
        mask, xs = next_mask[order], next_xs[order]
    return found


def _unique_pairs(mask: np.ndarray, xs: np.ndarray, bits: int) -> tuple[Any, Any, Any]:
    """The distinct (mask, xs) pairs and each input's index among them."""
    import numpy as np

    if 2 * bits <= 62:  # one int64 key: 5 × 4 needs 2 × 25 bits
        unique, index = np.unique((mask << np.int64(bits)) | xs, return_inverse=True)
        return unique >> np.int64(bits), unique & ((np.int64(1) << bits) - 1), index
    order = np.lexsort((xs, mask))
    m, x = mask[order], xs[order]
    new = np.r_[True, (m[1:] != m[:-1]) | (x[1:] != x[:-1])]
    index = np.empty(len(mask), dtype=np.int64)
    index[order] = np.cumsum(new) - 1
    return m[new], x[new], index


def _text_order(mask: np.ndarray, xs: np.ndarray, width: int, height: int) -> np.ndarray:
    """The order in which the text keys of bitboards sort ('.' < 'o' < 'x', cells read
    row by row from the top): base-3 numbers of the cells, most significant first, 39
    cells to an int64."""
    import numpy as np

    chunks = [np.zeros(len(mask), dtype=np.int64)]
    cells = 0
    for r in range(height):
        for c in range(width):
            if cells == 39:
                chunks.append(np.zeros(len(mask), dtype=np.int64))
                cells = 0
            bit = np.int64(1) << np.int64(c * (height + 1) + height - 1 - r)
            cell = np.where(mask & bit, np.where(xs & bit, 2, 1), 0)
            chunks[-1] = chunks[-1] * 3 + cell
            cells += 1
    return np.lexsort(chunks[::-1])
