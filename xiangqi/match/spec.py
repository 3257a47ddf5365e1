"""Engine specs: how to start an engine, its options and its own time control."""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
from collections.abc import Mapping
from typing import Any

from .._checks import check_real, show
from ..engine import SimpleEngine
from ..errors import XiangqiError
from ._text import parse_number, split_words
from .timecontrol import TimeControl

#: Seconds allowed for an engine's handshake and commands without a search.
DEFAULT_ENGINE_TIMEOUT = 10.0
#: The longest such timeout (about 11.6 days): a larger one is a typo or a hostile file.
MAX_ENGINE_TIMEOUT = 1e6

# -- engines -----------------------------------------------------------------------------------

_SPEC_KEYS = ("name", "cmd", "arg", "proto", "dir", "timeout", "tc", "st", "depth", "nodes")
#: The keys that belong to one engine, never to each (the settings both engines share).
_ONE_ENGINE_KEYS = ("cmd", "arg", "name")


def check_each(each: object) -> list[str]:
    """each's words, checked: key=value engine settings both engines share (an option.NAME or
    one of _SPEC_KEYS but cmd, arg and name), their values read as EngineSpec.parse reads
    them. TypeError if each is not text; XiangqiError naming each and the word."""
    if not isinstance(each, str):
        raise TypeError(f"each must be text, got {type(each).__name__}")
    shared = [key for key in _SPEC_KEYS if key not in _ONE_ENGINE_KEYS]
    words = split_words(each, "each") if each else []
    for word in words:
        key, sep, _ = word.partition("=")
        if not sep or not (key in shared or (key.startswith("option.") and key[7:])):
            why = f"; {key}= belongs to one engine" if key in _ONE_ENGINE_KEYS else ""
            raise XiangqiError(
                "each takes key=value engine settings for both engines "
                f"(option.NAME, {', '.join(shared)}){why}, got {show(word)} in each {show(each)}"
            )
    return words


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """How to start an engine and how long it may think.

    command is the argv; protocol "uci" (Pikafish-style or Fairy-Stockfish, detected) or
    "ucci"; options are (name, value) pairs sent with configure(); directory is the working
    directory; tc is its time control (None: the match's).
    """

    command: tuple[str, ...]
    protocol: str = "uci"
    name: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    directory: str | None = None
    tc: TimeControl | None = None
    timeout: float = DEFAULT_ENGINE_TIMEOUT

    def __post_init__(self) -> None:
        if not self.command or not all(isinstance(a, str) for a in self.command):
            raise XiangqiError(f"engine command must be non-empty text, got {self.command!r}")
        if self.protocol not in ("uci", "ucci"):
            raise XiangqiError(f"engine proto must be uci or ucci, got {self.protocol!r:.80}")
        for field in ("name", "directory"):
            value = getattr(self, field)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"engine {field} must be text, got {type(value).__name__}")
        timeout = check_real("engine timeout", self.timeout, 0, MAX_ENGINE_TIMEOUT)
        if timeout == 0:
            raise XiangqiError("engine timeout must be more than 0 seconds")
        object.__setattr__(self, "timeout", timeout)

    @classmethod
    def parse(cls, text: str, each: str = "") -> EngineSpec:
        """Read key=value words (``name=weak cmd=PATH 'option.Skill Level=0' tc=10+0.1``),
        quoted as a shell would, with each's settings under them; or a command line, with an
        optional "ucci:"/"uci:" prefix for the protocol."""
        words = split_words(text, "engine settings")
        first = words[0].partition("=")[0] if words else ""
        keyed = first in _SPEC_KEYS or first.startswith("option.")
        if not keyed:
            protocol = "uci"
            for prefix in ("ucci:", "uci:"):
                if text.startswith(prefix):
                    protocol, text = prefix[:-1], text[len(prefix) :]
                    break
            argv = split_words(text, "engine command")
            if not argv:
                raise XiangqiError(f"engine command is empty: {text!r}")
            words = [f"cmd={argv[0]}", *(f"arg={a}" for a in argv[1:]), f"proto={protocol}"]
        shared = check_each(each)
        settings: dict[str, str] = {}
        args: list[str] = []
        options: dict[str, str] = {}
        tc = TimeControl()
        for word in [*shared, *words]:
            key, sep, value = word.partition("=")
            if not sep:
                raise XiangqiError(f"engine settings are key=value words; got {word!r} in {text!r}")
            if key.startswith("option."):
                if not key[7:]:
                    raise XiangqiError(f"option name is empty in {word!r}")
                options[key[7:]] = value
            elif key == "arg":
                args.append(value)
            elif key in ("tc", "st", "depth", "nodes"):
                tc = tc.merged(TimeControl.parse(word))
            elif key in _SPEC_KEYS:
                settings[key] = value
            else:
                raise XiangqiError(
                    f"unknown engine setting {key!r} (known: {', '.join(_SPEC_KEYS)}, "
                    f"option.NAME) in {text!r:.200}"
                )
        if not settings.get("cmd"):
            raise XiangqiError(f"engine settings need cmd=PROGRAM: {text!r}")
        timeout = DEFAULT_ENGINE_TIMEOUT
        if "timeout" in settings:
            timeout = parse_number(settings["timeout"], "timeout", text)
            if not timeout > 0:
                raise XiangqiError(f"timeout must be more than 0 seconds: {text!r}")
        return cls(
            (settings["cmd"], *args),
            settings.get("proto", "uci"),
            name=settings.get("name") or None,
            options=tuple(options.items()),
            directory=settings.get("dir") or None,
            tc=None if tc.is_empty() else tc,
            timeout=timeout,
        )

    def open(self, *, setpgrp: bool = False) -> SimpleEngine:
        """Start the engine, shake hands and set its options (closing it again on failure);
        setpgrp starts it in a process group of its own (see SimpleEngine.popen_uci)."""
        popen = SimpleEngine.popen_ucci if self.protocol == "ucci" else SimpleEngine.popen_uci
        if self.directory is not None and not os.path.isdir(self.directory):
            raise XiangqiError(f"engine dir is not a directory: {self.directory!r}")
        engine = popen(
            list(self.command), timeout=self.timeout, cwd=self.directory, setpgrp=setpgrp
        )
        try:
            if self.options:
                engine.configure(dict(self.options))
        except BaseException:
            engine.close()
            raise
        return engine

    def describe(self) -> dict[str, Any]:
        """The settings as plain data (for the results file)."""
        return {
            "name": self.name,
            "command": list(self.command),
            "proto": self.protocol,
            "options": dict(self.options),
            "dir": self.directory,
            "tc": None if self.tc is None else self.tc.pgn(),
            "timeout": self.timeout,
        }

    @classmethod
    def from_description(cls, data: Mapping[str, Any]) -> EngineSpec:
        """The spec describe() gave (as a results file holds it); XiangqiError if malformed
        (a field missing or of the wrong type: "command" a list of texts, "name", "dir" and
        "tc" text or null, "options" an object)."""
        if not isinstance(data, Mapping):
            raise XiangqiError(f"engine description is {type(data).__name__}, expected an object")
        if "command" not in data:
            raise XiangqiError("engine description: field 'command' is missing")
        command = data["command"]
        if not isinstance(command, list) or not all(isinstance(a, str) for a in command):
            raise XiangqiError(
                f"engine description: field 'command' is {show(command)}, expected a list of texts"
            )
        for field in ("name", "dir", "tc", "proto"):
            value = data.get(field)
            if value is not None and not isinstance(value, str):
                raise XiangqiError(
                    f"engine description: field {field!r} is {show(value)}, expected text or null"
                )
        if not isinstance(data.get("options", {}), Mapping):
            raise XiangqiError(
                f"engine description: field 'options' is {show(data['options'])}, "
                "expected an object"
            )
        try:
            tc = data.get("tc")
            return cls(
                tuple(command),
                data.get("proto", "uci"),
                name=data.get("name"),
                options=tuple((str(k), str(v)) for k, v in dict(data.get("options", {})).items()),
                directory=data.get("dir"),
                tc=None if tc in (None, "-") else TimeControl.parse(tc),
                timeout=data.get("timeout", DEFAULT_ENGINE_TIMEOUT),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise XiangqiError(f"engine description is malformed ({exc!r}): {data!r:.200}") from (
                None
            )

    def program(self) -> str | None:
        """The path of the program the command starts, when it can be found, else None."""
        program = self.command[0]
        if os.path.dirname(program):
            base = self.directory or "."
            path = program if os.path.isabs(program) else os.path.join(base, program)
            return path if os.path.exists(path) else None
        return shutil.which(program)


def with_each(spec: EngineSpec, each: str) -> EngineSpec:
    if not each:
        return spec
    shared = EngineSpec.parse(f"cmd={shlex.quote(spec.command[0])} {each}")
    tc = spec.tc if shared.tc is None else shared.tc.merged(spec.tc or TimeControl())
    return dataclasses.replace(
        spec,
        options=tuple({**dict(shared.options), **dict(spec.options)}.items()),
        tc=tc,
        directory=spec.directory or shared.directory,
        protocol=spec.protocol,
    )
