"""Repositories: the host's named collections (``mdb.models``, ``model.parts``, ``part.sets``...).

They behave as read-only mappings from the script's side; objects enter them through the
constructors (``Model.Part(...)``, ``Part.Set(...)``), leave through ``del``, and are renamed
through ``changeKey``, which also renames the object itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class RepositoryKeyError(KeyError):
    """A missing key; ``str()`` is the plain message (``KeyError`` would quote it)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Repository(Generic[T]):
    """An ordered mapping of names to host objects, with the host's error texts."""

    __slots__ = ("_kind", "_owner", "_items", "_on_rename", "_on_delete")

    def __init__(
        self,
        kind: str,
        owner: str,
        on_rename: Callable[[str, str], None] | None = None,
        on_delete: Callable[[str], None] | None = None,
    ) -> None:
        self._kind = kind
        self._owner = owner
        self._items: dict[str, T] = {}
        self._on_rename = on_rename
        self._on_delete = on_delete

    # -- mapping behaviour -------------------------------------------------------------
    def keys(self) -> list[str]:
        return list(self._items)

    def values(self) -> list[T]:
        return list(self._items.values())

    def items(self) -> list[tuple[str, T]]:
        return list(self._items.items())

    def get(self, key: str, default: Any = None) -> Any:
        return self._items.get(key, default)

    def __getitem__(self, key: str) -> T:
        try:
            return self._items[key]
        except (KeyError, TypeError):
            raise RepositoryKeyError(self._missing(key)) from None

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._items
        except TypeError:
            return False

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._items))

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise RepositoryKeyError(self._missing(key))
        del self._items[key]
        if self._on_delete is not None:
            self._on_delete(key)

    def __repr__(self) -> str:
        return f"Repository({self._kind}s of {self._owner}: {self.keys()!r})"

    def changeKey(self, fromName: str, toName: str) -> None:  # noqa: N802 - host API name
        """Rename ``fromName`` to ``toName`` in place (same position), renaming the object."""
        if fromName not in self:
            raise RepositoryKeyError(self._missing(fromName))
        if not isinstance(toName, str) or not toName or toName != toName.strip():
            raise ValueError(f"toName must be a non-empty name without surrounding blanks; "
                             f"got {toName!r}")
        if toName == fromName:
            return
        if toName in self._items:
            raise ValueError(f"cannot rename {self._kind} '{fromName}' to '{toName}': "
                             f"a {self._kind} named '{toName}' already exists in {self._owner}")
        renamed = {(toName if key == fromName else key): value
                   for key, value in self._items.items()}
        self._items = renamed
        target = renamed[toName]
        if hasattr(target, "_rename"):
            target._rename(toName)
        if self._on_rename is not None:
            self._on_rename(fromName, toName)

    # -- host side ---------------------------------------------------------------------
    def _store(self, key: str, value: T) -> None:
        """Add or replace (the host replaces an object created again under the same name)."""
        self._items[key] = value

    def _missing(self, key: object) -> str:
        existing = ", ".join(f"'{name}'" for name in self._items) or "none"
        return f"no {self._kind} named {key!r} in {self._owner}; existing {self._kind}s: {existing}"

    def _set_owner(self, owner: str) -> None:
        self._owner = owner
