"""Hypothesis: every text parser this package documents answers any text with a value or
its documented error (never another exception), and the SVG board stays well-formed XML
whatever colors and squares it is given.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xiangqi
from xiangqi import InvalidMoveError, Move, Position, XiangqiError
from xiangqi.svg import board

# Text near the valid forms: ICCS letters and digits, their lookalikes, separators.
NEAR = st.text(
    alphabet=st.sampled_from(
        list("abcdefghijABCDEFGHIJ0123456789-+.= \t")
        + ["\u0131", "\u0130", "\u017f", "\u212a", "\uff48", "\u0660", "\u3000", "\u00a0"]
    ),
    max_size=8,
)
ANY = st.one_of(NEAR, st.text(max_size=12))

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)


@SETTINGS
@given(ANY)
def test_move_from_iccs(text: str) -> None:
    try:
        move = Move.from_iccs(text)
    except InvalidMoveError:
        return
    assert move.iccs() == text  # only the exact lower-case ASCII form is read


@pytest.mark.slow
@SETTINGS
@given(ANY)
def test_parse_iccs_on_a_position(text: str) -> None:
    pos = Position()
    try:
        move = pos.parse_iccs(text)
    except XiangqiError:
        return
    assert text.isascii() and move in pos.legal_moves


@SETTINGS
@given(ANY)
def test_parse_square(text: str) -> None:
    try:
        square = xiangqi.parse_square(text)
    except ValueError:
        return
    assert xiangqi.square_name(square) == text


@SETTINGS
@given(ANY)
def test_parse_wxf_and_chinese(text: str) -> None:
    pos = Position()
    for parse in (pos.parse_wxf, pos.parse_chinese):
        try:
            move = parse(text)
        except XiangqiError:
            continue
        assert move in pos.legal_moves


@pytest.mark.slow
@SETTINGS
@given(
    st.text(max_size=30),
    st.lists(st.tuples(st.integers(0, 89), st.integers(0, 89), st.text(min_size=1)), max_size=3),
    st.dictionaries(st.integers(0, 89), st.text(min_size=1, max_size=100), max_size=3),
)
def test_svg_is_well_formed_whatever_the_colors(
    font: str, arrows: list[tuple[int, int, str]], fill: dict[int, str]
) -> None:
    try:
        text = board(Position(), arrows=arrows, fill=fill, font_family=font)
    except ValueError as exc:  # too long, or a character XML cannot carry
        assert "XML cannot carry" in str(exc) or "characters" in str(exc)
        return
    ET.fromstring(text)  # well-formed, whatever was asked for
