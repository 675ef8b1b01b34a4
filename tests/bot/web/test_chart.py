"""The rating chart: its labels never run over the data, and one match still reads."""

from __future__ import annotations

from bot.service.queries import Point
from bot.web.chart import BOTTOM, PAD_LEFT, WIDTH, chart
from games.words import ENGLISH

LABEL_W = 66
"""The widest rating label ("12,345") at the chart's label size, in the chart's units."""


def test_labels_stay_left_of_and_under_the_data() -> None:
    points = [Point(games, 1500 + (games % 7) * 40 - games, float(games)) for games in range(1, 41)]
    drawn = chart(points, "Ada", ENGLISH)
    assert drawn.dots and all(x >= PAD_LEFT for x, _ in drawn.dots)
    assert all(y <= BOTTOM for _, y in drawn.dots)
    # The ratings' labels end 8 units left of the data, and fit in the room left of it.
    assert drawn.left - 8 - LABEL_W >= 0
    # The matches' labels sit under the x axis, which lies under every point.
    assert drawn.y_axis >= max(y for _, y in drawn.dots)
    assert drawn.height - 4 - 20 >= drawn.y_axis  # a 20-unit label fits under the axis
    assert [games for _, games in drawn.ticks] == [1, 40]
    assert drawn.ticks[0][0] == PAD_LEFT and drawn.ticks[-1][0] <= WIDTH


def test_one_match_is_a_dot_with_its_axis_and_label() -> None:
    drawn = chart([Point(3, 1512.0, 0.0)], "Ada", ENGLISH)
    assert len(drawn.dots) == 1 and drawn.points
    assert [games for _, games in drawn.ticks] == [3]  # "match 3" under the dot
    assert drawn.ticks[0][0] == drawn.dots[0][0]
    assert drawn.low < 1512 < drawn.high
    assert "after 1 rated match" in drawn.description
