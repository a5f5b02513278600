"""Keep the cyclic garbage collector off bulk mesh work and off the data it leaves behind.

Creating or merging 10^5+ nodes triggers repeated full collections that each walk the whole
mesh: measured on the stub, merging a doubled 200k-node plate took ~2.5x longer, and creating
160,000 refined children 1.6x longer, with the collector running. The scripts and the mesh
operations build no reference cycles worth collecting mid-run; reference counting frees
everything as usual. Pauses nest: only the outermost one re-enables the collector, and only
if it was enabled when that pause began.

Pausing is not enough: what a bulk step leaves alive (a part's entities, a read's lists of
188,356 references, a shadow's copies) is young when the collector resumes, and the next
collections walk it, object by object, before it ages: 25-50 ms after a whole-part read or
copy, 170 ms after a shadow run that moved every node of the 188k part (bench/run_scale.py).
So after bulk work what is alive is *frozen* (``gc.freeze``: moved out of the collector's
generations, O(1)): reference counting still frees it, only the cycle search skips it.
``release`` (``gc.unfreeze``) gives it back to the oldest generation at the end of a run, so
a reference cycle that became garbage meanwhile is still collected later, by a full
collection at the collector's own pace, not inside the run.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection during the block; what it leaves alive is kept out of the young
    generations afterwards (``keep_long_lived``)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            keep_long_lived()
            gc.enable()


def keep_long_lived() -> None:
    """Everything alive now is long-lived part data: no collection walks it again until
    ``release`` (see the module doc)."""
    gc.freeze()


def release() -> None:
    """The end of a run: what was frozen goes back to the oldest generation."""
    gc.unfreeze()
