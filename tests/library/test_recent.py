"""RecentValues: the latest values of a pure function by key, least recently asked dropped."""

from __future__ import annotations

import pytest

from weakpareto.library.recent import RecentValues


def test_a_kept_value_is_not_computed_again_and_the_least_recent_is_dropped():
    calls: list[int] = []

    def square(k: int) -> int:
        calls.append(k)
        return k * k

    kept: RecentValues[int, int] = RecentValues(2)
    assert [kept.get(k, lambda k=k: square(k)) for k in (1, 2, 1, 3, 1, 2)] == [1, 4, 1, 9, 1, 4]
    # 1 was asked for again before 3 came, so 2 (not 1) was dropped; then 2 displaced 3
    assert calls == [1, 2, 3, 2]
    assert len(kept) == 2 and 1 in kept and 2 in kept and 3 not in kept


def test_size_must_be_positive():
    with pytest.raises(ValueError, match="size must be >= 1, got 0"):
        RecentValues(0)
