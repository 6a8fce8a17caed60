"""The contract of the turn's views (answer, walk, findings): the screen sets their attributes and
they draw themselves again from those attributes alone ("attributes down")."""

from __future__ import annotations

from textual.containers import Vertical


class RecomposingView(Vertical):
    async def update_view(self, **attrs: object) -> None:
        """Set the attributes named (each must exist: a typo is an error, not a new attribute)
        and compose the view again; awaited, so the new children exist when it returns — a key
        typed right behind the change finds them."""
        for name, value in attrs.items():
            if not hasattr(self, name):
                raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")
            setattr(self, name, value)
        await self.recompose()
