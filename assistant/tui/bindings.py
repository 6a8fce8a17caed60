"""Key bindings described in the person's language, with Textual's public API only.

Textual reads a binding's description (the footer, the key panel) from the `Binding` itself, and a
binding is fixed when its class is defined. So each described binding is declared once per
language, its action carrying the language as its last parameter (`back('pt')`), and the node's
`check_action` hides the bindings of the other language (`hidden_by_language`); a language switch
only refreshes the bindings. An action called without the parameter (the command palette, a test)
is never hidden by it, so every `action_*` of a described binding takes `lang: str = ""`.
"""

from __future__ import annotations

from textual.binding import Binding

from ..strings import LANGS, t


def described(
    keys: str, action: str, *, show: bool = True, priority: bool = False
) -> list[Binding]:
    """`keys` -> `action`, once per language, described by the catalogue's `key.<action>`."""
    return [
        Binding(
            keys,
            f"{action}({lang!r})",
            t(lang, f"key.{action}"),
            show=show,
            priority=priority,
        )
        for lang in LANGS
    ]


def hidden_by_language(parameters: tuple[object, ...], lang: str) -> bool:
    """Whether a binding's action parameters name another language than `lang`."""
    return bool(parameters) and parameters[-1] in LANGS and parameters[-1] != lang


def without_language(parameters: tuple[object, ...]) -> tuple[object, ...]:
    """The action's own parameters (the language of a described binding removed)."""
    return parameters[:-1] if parameters and parameters[-1] in LANGS else parameters
