"""`Value`: the base of the small immutable records a save is made of (a map's layout, the plan,
digests, what a save did), plain classes with `__slots__` rather than dataclasses: importing
`dataclasses` (it imports `inspect`) and running the code each decorated class generates cost a
small entity edit about a quarter of its time (issue 42)."""
from __future__ import annotations

from . import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Self


class Value:
    """Equality, hash, repr and `replace` from the fields a subclass lists in `__slots__`, in
    the order its `__init__` takes them, as a frozen dataclass has them. A class whose
    instances change in place sets `__hash__ = None` (as a dataclass that is not frozen)."""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value) or type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({fields})"

    def replace(self, **changes: Any) -> Self:
        """A copy with the named fields changed (as `dataclasses.replace`)."""
        unknown = changes.keys() - set(self.__slots__)
        if unknown:
            raise TypeError(f"{type(self).__qualname__} has no field {', '.join(sorted(unknown))}")
        return type(self)(**{name: changes.get(name, getattr(self, name))
                             for name in self.__slots__})
