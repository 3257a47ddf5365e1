"""Counts and articles in messages, written once: "1 game", "2 games", "1 ply", "3 plies";
"an XQF file", "a PGN file"."""

from __future__ import annotations

_IRREGULAR = {"ply": "plies"}


def counted(count: int, noun: str) -> str:
    """count and noun in the right number: counted(1, "game") == "1 game",
    counted(0, "ply") == "0 plies"."""
    if count == 1:
        return f"1 {noun}"
    return f"{count} {_IRREGULAR.get(noun, noun + 's')}"


def format_name(name: str) -> str:
    """A record format's name with its article, as said aloud: "an XQF", "a PGN", "a
    DhtmlXQ" (an initialism whose first letter is said with a vowel takes "an")."""
    shown = {"dhtml": "DhtmlXQ"}.get(name.lower(), name.upper())
    article = "an" if shown[0] in "AEFHILMNORSX" and shown.isupper() else "a"
    return f"{article} {shown}"
