"""Reassembly of streamed ``tool_calls`` deltas into whole calls, keyed by ``index``.

Robust to what real providers send:
- ``id`` or ``name`` repeated on every delta (llama.cpp): a repeat is not appended, so
  ``build_part`` never becomes ``build_partbuild_part``; a name sent in fragments is joined,
  a name sent as a growing snapshot is replaced;
- a whole call in one delta (Ollama); ``arguments`` as a JSON object (``json.dumps``'ed);
- ``index`` missing on a single-call stream (the deltas continue the last call; a delta
  with a new ``id`` starts the next one); whole calls with neither ``index`` nor ``id``
  (Gemini-compatible endpoints, proxies): a delta whose name or arguments cannot continue a
  call that already holds a complete arguments object starts the next one; a known
  ``index`` reused with a new ``id`` and a name (several providers number parallel calls
  all 0) starts a new call;
- empty ``tool_calls: []`` deltas; interleaved deltas of parallel calls.
Arguments are kept as a list of fragments and joined once: linear in the stream size.
"""

from __future__ import annotations

import json
from typing import Any

from sam_plugin.errors import ProviderError
from sam_plugin.runtime.provider.types import ToolCall


class _Slot:
    __slots__ = ("id", "name", "parts", "order")

    def __init__(self, order: int) -> None:
        self.order = order
        self.id = ""
        self.name = ""
        self.parts: list[str] = []

    def add_name(self, name: str) -> None:
        if not self.name or name.startswith(self.name):
            self.name = name
        elif name != self.name:
            self.name += name


class ToolCallAssembler:
    """Feed every ``delta.tool_calls`` value with :meth:`add`; :meth:`finish` at the end."""

    __slots__ = ("_slots", "_by_wire_index", "_last")

    def __init__(self) -> None:
        self._slots: list[tuple[int, _Slot]] = []  # (wire index, slot) in arrival order
        self._by_wire_index: dict[int, _Slot] = {}
        self._last: _Slot | None = None

    def __bool__(self) -> bool:
        return bool(self._slots)

    def add(self, deltas: Any) -> None:
        if not deltas:
            return
        if not isinstance(deltas, list):
            raise ProviderError(
                "protocol", f"delta.tool_calls must be a list, got {type(deltas).__name__}"
            )
        for delta in deltas:
            self._add_one(delta)

    def finish(self) -> list[ToolCall]:
        """The complete calls, ordered by wire index (then arrival), numbered from 0."""
        ordered = sorted(self._slots, key=lambda item: (item[0], item[1].order))
        calls = []
        for position, (wire_index, slot) in enumerate(ordered):
            if not slot.name:
                raise ProviderError(
                    "protocol", f"tool call at index {wire_index} has no function name"
                )
            arguments = "".join(slot.parts)
            calls.append(
                ToolCall(
                    index=position,
                    id=slot.id or f"call_{position}",
                    name=slot.name,
                    arguments=arguments if arguments.strip() else "{}",
                )
            )
        return calls

    def _add_one(self, delta: Any) -> None:
        if not isinstance(delta, dict):
            raise ProviderError(
                "protocol", f"a tool_calls entry must be an object, got {type(delta).__name__}"
            )
        function = delta.get("function") or {}
        if not isinstance(function, dict):
            raise ProviderError("protocol", "tool_calls[].function must be an object")
        call_id = delta.get("id") or ""
        name = function.get("name") or ""
        arguments = function.get("arguments")
        slot = self._slot_for(delta.get("index"), str(call_id), str(name), arguments)
        if call_id and not slot.id:
            slot.id = str(call_id)
        if name:
            slot.add_name(str(name))
        if isinstance(arguments, str):
            if arguments:
                slot.parts.append(arguments)
        elif isinstance(arguments, dict | list):
            slot.parts = [json.dumps(arguments, ensure_ascii=False)]
        elif arguments is not None:
            raise ProviderError(
                "protocol",
                "tool_calls[].function.arguments must be a string or an object, "
                f"got {type(arguments).__name__}",
            )

    def _slot_for(self, index: Any, call_id: str, name: str, arguments: Any) -> _Slot:
        if isinstance(index, bool) or not isinstance(index, int | None):
            if isinstance(index, str) and index.isdigit():
                index = int(index)
            else:
                raise ProviderError(
                    "protocol", f"tool_calls[].index must be an integer, got {index!r}"
                )
        last = self._last
        if index is None:
            if (
                last is None
                or (call_id and last.id and call_id != last.id)
                or (name and _starts_another_call(last, name, arguments))
            ):
                wire = max((w for w, _ in self._slots), default=-1) + 1
                return self._new_slot(wire)
            return last
        slot = self._by_wire_index.get(index)
        if slot is None:
            return self._new_slot(index)
        if call_id and slot.id and call_id != slot.id and name:
            return self._new_slot(index)
        self._last = slot
        return slot

    def _new_slot(self, wire_index: int) -> _Slot:
        slot = _Slot(len(self._slots))
        self._slots.append((wire_index, slot))
        self._by_wire_index[wire_index] = slot
        self._last = slot
        return slot


def _starts_another_call(slot: _Slot, name: str, arguments: Any) -> bool:
    """Whether a named delta without index or id cannot continue ``slot``.

    It cannot when ``slot`` already holds a complete arguments object and the delta brings a
    different name or a new arguments text starting with ``{`` (``}{`` never occurs inside
    one JSON value outside a string; the parse settles the string case). A repeated name
    with more argument fragments (llama.cpp) continues the call. The cheap checks come
    first, so the parse runs only at a plausible boundary and the assembly stays linear.
    """
    if not slot.name or not slot.parts or not slot.parts[-1].rstrip().endswith("}"):
        return False
    if name == slot.name and not (
        isinstance(arguments, str) and arguments.lstrip().startswith("{")
    ):
        # An object-valued ``arguments`` under the same name keeps its snapshot meaning
        # (it replaces the call's arguments), so a resent call is never doubled.
        return False
    return _is_json_object("".join(slot.parts))


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False
