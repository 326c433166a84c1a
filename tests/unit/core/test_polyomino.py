"""Square grid and polyomino placement."""

from __future__ import annotations

import pytest

from engines.core.polyomino import (
    Grid,
    adjacent,
    flip,
    neighbors,
    normalize,
    orientations,
    placements,
    rotate,
    squares,
    translate,
)

L_TROMINO = frozenset({(0, 0), (1, 0), (1, 1)})
I_TROMINO = frozenset({(0, 0), (0, 1), (0, 2)})


def test_normalize_moves_the_shape_to_the_origin() -> None:
    """A shape anywhere on the board normalizes to the same cells."""
    assert normalize({(3, 4), (4, 4), (4, 5)}) == L_TROMINO


def test_rotating_four_times_gives_the_shape_back() -> None:
    """Four quarter turns are the identity; one turns a row into a column."""
    shape = L_TROMINO
    for _ in range(4):
        shape = rotate(shape)
    assert shape == L_TROMINO
    assert rotate(I_TROMINO) == frozenset({(0, 0), (1, 0), (2, 0)})


def test_flip_mirrors_left_to_right() -> None:
    """The mirrored L has its foot on the other side."""
    assert flip(L_TROMINO) == frozenset({(0, 1), (1, 0), (1, 1)})


@pytest.mark.parametrize(
    ("shape", "count"),
    [
        (frozenset({(0, 0)}), 1),
        (frozenset({(0, 0), (0, 1)}), 2),
        (I_TROMINO, 2),
        (L_TROMINO, 4),
        (frozenset({(0, 0), (0, 1), (0, 2), (1, 0)}), 8),
    ],
)
def test_orientations_are_distinct(shape: frozenset[tuple[int, int]], count: int) -> None:
    """Symmetric shapes have fewer orientations; the L tetromino has all eight."""
    assert len(orientations(shape)) == count


def test_placements_fit_within_allowed_cells() -> None:
    """A 2x3 board holds 7 dominoes (4 lying, 3 standing); a tromino needs room."""
    board = Grid(2, 3).cells
    dominoes = placements({(0, 0), (0, 1)}, board)
    assert len(dominoes) == 7
    assert all(p <= board for p in dominoes)
    assert placements(I_TROMINO, {(0, 0), (0, 1)}) == ()


def test_placements_avoid_cells_not_allowed() -> None:
    """Removing the centre of a 3x3 leaves only edge lines for the I tromino."""
    board = Grid(3, 3).cells - {(1, 1)}
    lines = placements(I_TROMINO, board)
    assert len(lines) == 4
    assert all((1, 1) not in p for p in lines)


def test_placements_are_every_translated_orientation_that_fits() -> None:
    """The fast fit test lists exactly the shapes found by moving each orientation
    over the board and keeping those wholly on the allowed cells, in sorted order."""
    allowed = Grid(4, 5).cells - {(1, 1), (2, 3), (3, 0)}
    for shape in (L_TROMINO, I_TROMINO, frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})):
        moved = {
            translate(oriented, row, col)
            for oriented in orientations(shape)
            for row in range(-1, 5)
            for col in range(-1, 6)
        }
        expected = sorted((s for s in moved if s <= allowed), key=sorted)
        assert placements(shape, allowed) == tuple(expected)


def test_adjacency_is_orthogonal_only() -> None:
    """Diagonal cells do not touch."""
    assert adjacent({(0, 0)}, {(0, 1)})
    assert not adjacent({(0, 0)}, {(1, 1)})
    assert set(neighbors((2, 2))) == {(1, 2), (3, 2), (2, 1), (2, 3)}


def test_squares_lists_every_2x2_block() -> None:
    """A 3x3 board has four 2x2 blocks; a hole removes those through it."""
    assert len(squares(Grid(3, 3).cells)) == 4
    assert len(squares(Grid(3, 3).cells - {(0, 0)})) == 3


def test_grid_numbers_cells_row_by_row() -> None:
    """Index and cell convert both ways; off-board numbers are refused."""
    grid = Grid(4, 6)
    assert grid.index((2, 3)) == 15
    assert grid.cell(15) == (2, 3)
    assert translate({(0, 0)}, 2, 3) == frozenset({(2, 3)})
    assert grid.contains((3, 5)) and not grid.contains((4, 0))
    with pytest.raises(ValueError):
        grid.cell(24)
