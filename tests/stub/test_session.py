"""session.viewports['Viewport: 1']: displayedObject and the offline host's listeners."""

from __future__ import annotations

from typing import Any

import pytest


def test_set_values_displays_a_part_and_notifies(fresh_sam: Any, part: Any) -> None:
    from sam import session as imported_session

    assert imported_session is fresh_sam.session
    viewport = fresh_sam.session.viewports["Viewport: 1"]
    assert fresh_sam.session.viewports.keys() == ["Viewport: 1"]
    calls: list[tuple[Any, Any]] = []

    def listener(vp: Any) -> None:
        calls.append((vp, vp.displayedObject))

    viewport.addListener(listener)
    viewport.addListener(listener)  # added once only
    try:
        viewport.setValues(displayedObject=part)
        assert viewport.displayedObject is part
        viewport.setValues(displayedObject=None)
    finally:
        viewport.removeListener(listener)
    viewport.setValues(displayedObject=part)
    assert calls == [(viewport, part), (viewport, None)]


def test_a_failing_listener_does_not_fail_the_script(fresh_sam: Any, part: Any,
                                                      caplog: Any) -> None:
    viewport = fresh_sam.session.viewports["Viewport: 1"]
    seen: list[Any] = []

    def broken(vp: Any) -> None:
        raise RuntimeError("redraw failed")

    viewport.addListener(broken)
    viewport.addListener(seen.append)
    try:
        viewport.setValues(displayedObject=part)
    finally:
        viewport.removeListener(broken)
        viewport.removeListener(seen.append)
    assert seen == [viewport]
    assert "viewport listener" in caplog.text


def test_set_values_checks_its_arguments(fresh_sam: Any) -> None:
    viewport = fresh_sam.session.viewports["Viewport: 1"]
    with pytest.raises(TypeError) as caught:
        viewport.setValues(displayedObject="Plate")
    assert str(caught.value) == "displayedObject must be a Part or None; got str"
    with pytest.raises(TypeError) as caught:
        viewport.setValues(displayMode="SINGLE")
    assert str(caught.value) == "keyword error on displayMode"
    with pytest.raises(KeyError) as caught:
        fresh_sam.session.viewports["Viewport: 2"]
    assert str(caught.value) == ("no viewport named 'Viewport: 2' in the session; existing "
                                 "viewports: 'Viewport: 1'")
