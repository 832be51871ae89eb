"""``FragmentTimes.extend`` and ``Block``'s content kept as their one-at-a-time forms keep them: a run of
untimed sizes copied from a block of NaN bytes, a block's first fragment kept as its joined content."""
from __future__ import annotations

import pytest

from inspector.model.blocks import Block, FragmentTimes


@pytest.mark.parametrize("t", [None, 0.0, 2.5])
@pytest.mark.parametrize("n", [0, 1, 4, 63, 64, 65, 200])
def test_extend_is_one_append_per_size(t, n):
    sizes = [k * 7 % 13 for k in range(n)]
    one, many = FragmentTimes(), FragmentTimes()
    for k in range(3):  # some entries before the run
        one.append(1.0 + k, k)
        many.append(1.0 + k, k)
    for size in sizes:
        one.append(t, size)
    many.extend(t, iter(sizes))
    assert list(many) == list(one) and len(many) == len(one) == n + 3
    if t is None:
        assert all(x is None for x, _ in list(many)[3:])


@pytest.mark.parametrize("fragments", [[], [""], ["a"], ["", "a"], ["a", "", "b"], ["ab", "c", "d"],
                                       ["x"] * 600, ["", *["y"] * 257]])
def test_appended_content_is_the_fragments_joined(fragments):
    block = Block("text")
    seen = ""
    for fragment in fragments:
        block.append(fragment)
        seen += fragment
        assert block.length == len(seen)
        if len(fragment) % 2:  # read now and then: a read joins and caches
            assert block.content == seen
    assert block.content == seen and block.head(3) == seen[:3] and block.tail(3) == seen[-3:]
    block.append("z")
    assert block.content == seen + "z"


def test_the_empty_delta_is_one_untimed_entry_of_0_bytes_of_its_own():
    one = FragmentTimes()
    one.append(None, 0)
    made = FragmentTimes(*FragmentTimes.EMPTY_DELTA)
    assert list(made) == list(one) == [(None, 0)]
    made.append(1.0, 5)
    made.extend(None, [1, 2])
    assert list(FragmentTimes(*FragmentTimes.EMPTY_DELTA)) == [(None, 0)]  # the prototype is copied, never grown
