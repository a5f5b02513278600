"""The model database: ``mdb.models``, ``mdb.Model(...)``, ``mdb.saveAs(...)``."""

from __future__ import annotations

from typing import Any

from sam._checks import check_name, reject_keywords
from sam.model import Model
from sam.repository import Repository


class Mdb:
    """A database; a new one holds one empty model, ``Model-1``, as the host's does."""

    def __init__(self, empty: bool = False) -> None:
        self.models: Repository[Model] = Repository("model", "the model database")
        self.pathName: str | None = None
        if not empty:
            self.models._store("Model-1", Model("Model-1"))

    def Model(self, name: Any = None, objectToCopy: Any = None,  # noqa: N802,N803 - host API
              **extra: Any) -> Model:
        reject_keywords(extra)
        check_name(name, "name")
        if objectToCopy is None:
            model = Model(name)
        else:
            if not isinstance(objectToCopy, Model):
                raise TypeError(f"objectToCopy must be a Model; got "
                                f"{type(objectToCopy).__name__}")
            from sam.storage import copy_model

            model = copy_model(objectToCopy, name)
        self.models._store(name, model)
        return model

    def saveAs(self, pathName: Any = None, **extra: Any) -> None:  # noqa: N802,N803 - host API
        """Write the database as JSON; ``.sam.json`` is appended when missing."""
        reject_keywords(extra)
        if pathName is None:
            raise TypeError("saveAs needs pathName")
        from sam.storage import save

        self.pathName = save(self, pathName)

    def save(self) -> None:
        """Write the database back to the file it was opened from or last saved as."""
        if self.pathName is None:
            raise ValueError("this database has never been saved; use mdb.saveAs(pathName)")
        from sam.storage import save

        save(self, self.pathName)

    def __repr__(self) -> str:
        return f"Mdb(models={self.models.keys()!r}, pathName={self.pathName!r})"
