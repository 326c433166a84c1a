"""The shared hex grid: neighbours, straight moves, rotations, edges and corners."""

from __future__ import annotations

import pytest

from engines.core import hexgrid


def test_six_neighbours_are_each_one_step_away() -> None:
    """Every neighbour is at distance 1 and they are all different."""
    around = hexgrid.neighbours((2, -1))
    assert len(set(around)) == 6
    assert all(hexgrid.distance((2, -1), n) == 1 for n in around)


def test_distance_counts_steps() -> None:
    """Distance is the number of single steps between two hexes."""
    assert hexgrid.distance((0, 0), (3, -1)) == 3
    assert hexgrid.distance((0, 0), (-2, 2)) == 2
    assert not hexgrid.are_adjacent((0, 0), (1, 1))
    assert hexgrid.are_adjacent((0, 0), (0, 1))


def test_a_line_stops_before_the_first_gap() -> None:
    """Moving east over (1,0),(2,0) stops there when (3,0) is missing, even if (4,0) exists."""
    present = {(0, 0), (1, 0), (2, 0), (4, 0)}
    assert hexgrid.line((0, 0), (1, 0), present) == [(1, 0), (2, 0)]


def test_straight_moves_cover_all_six_directions() -> None:
    """From the centre of a full ring every neighbour is reachable, nothing else."""
    present = {(0, 0), *hexgrid.neighbours((0, 0))}
    assert sorted(hexgrid.straight_moves((0, 0), present)) == sorted(hexgrid.neighbours((0, 0)))


def test_six_rotations_return_home() -> None:
    """Turning six sixths is the identity, and one sixth keeps the distance."""
    h = (2, -1)
    assert hexgrid.rotate(h, 6) == h
    assert hexgrid.rotate(h, 1) != h
    assert hexgrid.distance((0, 0), hexgrid.rotate(h, 1)) == hexgrid.distance((0, 0), h)
    assert [hexgrid.rotate((1, 0), k) for k in range(6)] == [
        (1, 0),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (1, -1),
    ]


def test_rotating_a_shape_keeps_adjacency() -> None:
    """A rotated triangle is still three mutually adjacent hexes."""
    a, b, c = hexgrid.rotate_shape([(0, 0), (1, 0), (0, 1)], 2)
    assert hexgrid.are_adjacent(a, b) and hexgrid.are_adjacent(b, c) and hexgrid.are_adjacent(a, c)


def test_edges_are_canonical_and_need_adjacent_hexes() -> None:
    """An edge is the same whichever hex is named first; non-neighbours have none."""
    assert hexgrid.edge((1, 0), (0, 0)) == hexgrid.edge((0, 0), (1, 0)) == ((0, 0), (1, 0))
    with pytest.raises(ValueError):
        hexgrid.edge((0, 0), (2, 0))
    assert len(set(hexgrid.edges_of((0, 0)))) == 6


def test_edge_ends_are_the_corners_with_the_two_common_neighbours() -> None:
    """The side between (0,0) and (1,0) ends at the corners shared with (1,-1) and (0,1)."""
    ends = hexgrid.edge_vertices(((0, 0), (1, 0)))
    assert set(ends) == {((0, 0), (1, -1), (1, 0)), ((0, 0), (0, 1), (1, 0))}


def test_three_edges_meet_at_each_corner() -> None:
    """A corner's three sides each end at that corner."""
    corner = ((0, 0), (0, 1), (1, 0))
    sides = hexgrid.vertex_edges(corner)
    assert len(set(sides)) == 3
    assert all(corner in hexgrid.edge_vertices(s) for s in sides)
