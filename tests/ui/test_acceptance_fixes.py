"""What an analyst must be able to read in the dock: every check's Actual and OK column in
sight, a status line short enough to scan, and nothing squeezed when the dock is short."""

from __future__ import annotations

from plan_steps import approve_plan

from sam_plugin.compilers.evidence import Check
from sam_plugin.runtime.run.run_phrases import said
from sam_plugin.runtime.store.run_store import ErrorRecord
from sam_plugin.words.phrase import phrase
from tests.support.run_records import quad_summary as _summary
from tests.support.run_records import run_result as _result

FINGERPRINT = "25n-16e-d69b82e21b22c66891beedd63542b63b"


def test_a_long_check_value_keeps_actual_and_ok_in_sight(qtbot, tmp_path):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    view.resize(370, 500)  # the dock's width in the 1500 px demo window
    view.show()
    same = phrase("check.as_before", text=FINGERPRINT)  # as a run makes them (with phrases)
    checks = [Check.said(phrase("check.geometry_unchanged"), same, same, ok=True),
              Check.said(phrase("check.elements_with_section"), "16", "16", ok=True)]
    view.show_result(_result("verified", before=_summary(25, 16), after=_summary(25, 16),
                             checks=checks), tmp_path)
    qtbot.waitExposed(view)
    header = view.checks.horizontalHeader()
    right_edge = header.sectionViewportPosition(3) + header.sectionSize(3)
    assert right_edge <= view.checks.viewport().width()
    assert header.sectionSize(0) >= 120  # the check's name stays readable
    # a fingerprint is said in words; the raw one is on hover
    assert view.check_rows()[0] == ("geometry unchanged", "as before the run",
                                    "as before the run", "yes")
    assert view.checks.item(0, 2).toolTip() == FINGERPRINT


def test_the_status_line_is_a_short_summary_and_the_error_label_keeps_all_of_it():
    from sam_plugin.runtime.provider.errors import error_from_http
    from sam_plugin.ui.status_words import final_words

    error = error_from_http(400, b'{"error": {"message": "Replay mode (recorded responses, not a '
                            b'live model) has no recorded answer for this request: it answers '
                            b'only the 4 bundled example requests, word for word."}}', {},
                            secret="")
    message = f"the design request failed: {error}"  # as a run writes it (runtime/run/design)
    assert message == (
        "the design request failed: bad_request: Replay mode (recorded responses, not a "
        "live model) has no recorded answer for this request: it answers only the 4 "
        "bundled example requests, word for word. (HTTP 400)")
    status = final_words(_result("failed", ErrorRecord(
        layer="provider", message=message, provider=error.failure, phrase=said(message))))
    # in words, whole (the status wraps): no error kind, no HTTP code, nothing cut off
    assert status == ("Failed — provider: the design request failed: the provider refused the "
                      "request: Replay mode (recorded responses, not a live model) has no "
                      "recorded answer for this request: it answers only the 4 bundled example "
                      "requests, word for word.")
    long = final_words(_result("failed", ErrorRecord(layer="provider", message="x " * 400)))
    # a long one is pointed to, not begun: the error label below shows it once, whole
    assert long == "Failed — provider: the message is below"


def test_a_long_error_in_a_short_dock_scrolls_instead_of_squeezing_the_counts(
        qtbot, host_window, dock, tmp_path):
    host_window.resize(1500, 920)
    host_window.show()
    qtbot.waitExposed(host_window)
    message = "the design request failed: " + "a long provider message, " * 30
    view = dock.result_view
    dock._finish_ui(_result("failed", ErrorRecord(layer="provider", message=message),  # noqa: SLF001
                            before=_summary(25, 16)), back_in_review=False)
    dock.status_label.setText("Failed — provider: " + "a long status line " * 12)
    qtbot.wait(50)
    assert view.table.height() == view.table.maximumHeight()  # all six rows, Sets included
    label = view.error_label  # and every line of the error, none cut off
    assert label.height() >= label.heightForWidth(label.width())
    link_bottom = view.link.mapTo(dock, view.link.rect().bottomLeft()).y()
    assert view.link.isVisible() and link_bottom <= dock.height()
    assert view.error_label.text().startswith(f"Error in provider: {message.strip()}")


def test_the_spec_gets_the_room_in_review_and_the_result_after_the_run(
        qtbot, replay, host_window, dock):
    from sam_plugin.demo.examples import example_by_id

    host_window.resize(1500, 920)
    host_window.show()
    qtbot.waitExposed(host_window)
    example = example_by_id("copy_merge")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=20_000)
    spec_lines = dock.spec_view.toPlainText().count("\n") + 1
    line_height = dock.spec_view.fontMetrics().lineSpacing()
    # the whole spec is readable without scrolling, and no empty tables take the room
    assert dock.spec_view.viewport().height() >= spec_lines * line_height
    assert dock.result_view.table.isHidden() and dock.result_view.checks.isHidden()
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=20_000)
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified"
    assert dock.result_view.table.isVisible() and dock.result_view.checks.isVisible()
    assert dock.result_view.cell("nodes", "after") == "45"
    assert dock.result_view.checks.height() >= 5 * 22  # several checks in sight, not a sliver


def test_the_action_after_a_failure_fits_the_layer_that_failed():
    from sam_plugin.ui.status_words import error_action

    assert error_action("observation", back_in_review=False) == (
        "Nothing was executed. Check the mode, model and part shown above, then submit again.")
    assert error_action("provider", back_in_review=False) == (
        "Nothing was executed. Check the provider in Settings… (URL, model, API key), then "
        "submit again.")
    # only the replay is helped by an example; a dead URL needs the URL or the server
    assert error_action("provider", back_in_review=False, replay=True) == (
        "Nothing was executed. Pick a request under Examples (the replay answers only those), "
        "or choose a live model in Settings….")
    dead = "provider: connection: cannot reach 127.0.0.1:9: All connection attempts failed"
    assert error_action("provider", back_in_review=False, message=dead) == (
        "Nothing was executed. Check the base URL in Settings… and that the model server there "
        "is running, then submit again.")
    assert "Examples" not in error_action("provider", False, message=dead)
    assert "API key" in error_action("provider", False, message="auth: invalid key")
    assert error_action("design", back_in_review=False) == (
        "Nothing was executed. Check the request or the provider settings, then submit again.")
    assert error_action("execution", back_in_review=False) == (
        "The part may be partly modified: re-observe before the next run.")
    assert error_action("execution", back_in_review=False, part="unchanged") == (
        "The script stopped in its checks before changing the part: fix what the check names, "
        "then submit a new request.")
    assert error_action("verification", back_in_review=False, part="restored") == (
        "The part was put back exactly as it was: fix what the message names, then submit a new "
        "request.")


def test_an_unknown_auto_run_example_writes_no_picture(ui_env, tmp_path, capsys):
    from sam_plugin.ui.demo import main

    shot = tmp_path / "x.png"
    assert main(["--replay", "--auto-run", "nope", "--screenshot", str(shot)]) == 2
    err = capsys.readouterr().err
    assert ("sam-agent demo: --auto-run: example: unknown id 'nope'; known: plate, copy_merge, "
            "steel_shell, refine, pressure_clamp") in err
    assert not shot.exists()


def test_property_mode_on_a_typed_part_that_is_not_there_is_refused_before_any_provider_call(
        qtbot, replay, dock):
    dock.set_target("property", "Model-1", "Nope")
    dock.request_edit.setPlainText("define steel and a 2 mm shell section on all elements")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=20_000)
    assert dock.status_label.text() == (
        "Not submitted — there is no part Nope in Model-1; Property mode changes an existing "
        "part: pick one, or build it in Part mode first")
    assert replay.requests == []
    assert dock.submit_button.isEnabled()


def test_a_request_over_64_kb_is_refused_with_its_size_before_any_provider_call(
        qtbot, replay, dock):
    dock.set_target("part", "Model-1", "Panel")
    dock.request_edit.setPlainText("move the panel " + "x" * 70_000)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=20_000)
    assert dock.status_label.text() == (
        "Not submitted — request: the request is 70,015 bytes; a request may have at most "
        "65,536 bytes (64 KB): describe the change in words and keep the data in the workspace")
    assert replay.requests == []
    assert dock.submit_button.isEnabled()
