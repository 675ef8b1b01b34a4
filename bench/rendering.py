"""Picture speed and size: ms per hand (8 and 12 cards) and per table, of which encoding the
PNG, and PNG bytes.

Targets on this machine: at most 20 ms per hand, 40 ms per table, 200 KB per picture. Card
faces are cached, so the first picture of a process (which draws them) is timed apart; the
words and card corners a process keeps are warm after the first few pictures, as in the bot.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import Any, cast

from PIL import Image

import games
import rendering
from games.core import State

NAMES = ("Alice", "Bob")
View = dict[str, Any]


def timed(make: Callable[[], bytes], seconds: float) -> tuple[float, int]:
    """(mean ms per call, bytes of the picture) over about ``seconds``."""
    data = make()
    calls = 0
    start = time.perf_counter()
    while True:
        make()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return 1000 * elapsed / calls, len(data)


def states(name: str, seed: int = 1) -> list[State]:
    rng = random.Random(seed)
    found = [games.get(name).new_match(seed=seed)]
    while found[-1].to_move is not None:
        found.append(found[-1].apply(rng.choice(found[-1].legal_moves())))
    return found


def hand_views() -> list[tuple[str, View]]:
    """Each game's opening hand as its first player sees it, legal moves marked: from eight
    cards (Le 5 As) to twelve with 1,586 legal discards to read (Piquet's elder)."""
    out: list[tuple[str, View]] = []
    for game in games.registered():
        start = game.new_match(seed=1)
        view = cast(View, start.view(start.to_move))
        out.append((f"hand, {len(view['hand'])} cards ({game.name})", view))
    return out


def run(seconds: float) -> None:
    share = seconds / 8
    first = hand_views()[0][1]
    start = time.perf_counter()
    rendering.hand_png(first)
    print(f"first picture, faces drawn: {1000 * (time.perf_counter() - start):.0f} ms")
    print(f"{'picture':<34} {'ms':>7} {'encode':>7} {'bytes':>9} {'largest':>9}")
    for label, view in hand_views():
        ms, size = timed(functools.partial(rendering.hand_png, view), share)
        scene = rendering.hand_scene(view)
        encode_ms = _encode_ms(rendering.scene_image(scene), share / 4)
        print(f"{label:<34} {ms:>7.1f} {encode_ms:>7.2f} {size:>9,}")
    for name in games.names():
        if name not in rendering.games():
            continue
        match = states(name)
        middle = match[len(match) // 2].view(None)
        ms, size = timed(functools.partial(rendering.table_png, middle, NAMES), share)
        encode_ms = _encode_ms(rendering.table_image(middle, NAMES), share / 4)
        # The largest table over moments spread through the match: tall expeditions, many melds.
        moments = match[:: max(1, len(match) // 12)]
        largest = max(len(rendering.table_png(s.view(None), NAMES)) for s in moments)
        label = f"table, {name} (mid-match)"
        print(f"{label:<34} {ms:>7.1f} {encode_ms:>7.2f} {size:>9,} {largest:>9,}")


def _encode_ms(image: Image.Image, seconds: float) -> float:
    """Mean ms to encode ``image`` (already drawn) as PNG."""
    return timed(functools.partial(rendering.png, image), seconds)[0]
