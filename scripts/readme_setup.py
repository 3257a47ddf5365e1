"""The README's set-up commands, for CI to run them exactly as a reader would.

    python scripts/readme_setup.py --list          the commands of the Set-up block, one a line
    python scripts/readme_setup.py --skipped XML   the test ids a junit XML report marks skipped

.ci/run runs the listed commands, as written, in a fresh virtual environment (so a README that
drifts from what works fails CI), then runs the tests that environment skipped (their optional
extra missing) once more where every extra is installed: each test runs once, where it can.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_commands(readme: str) -> list[str]:
    """The shell commands of the first ```sh block under the '## Set-up' heading, comments
    stripped (a '#' after two spaces starts the reader's note, as the README aligns them)."""
    section = re.search(r"^## Set-up\n(.*?)(?=^## )", readme, re.S | re.M)
    if section is None:
        raise SystemExit("README.md has no '## Set-up' section")
    block = re.search(r"^```sh\n(.*?)^```", section.group(1), re.S | re.M)
    if block is None:
        raise SystemExit("README.md's Set-up section has no ```sh block")
    commands = []
    for line in block.group(1).splitlines():
        command = re.split(r"\s{2,}#", line, maxsplit=1)[0].strip()
        if command and not command.startswith("#"):
            commands.append(command)
    return commands


def skipped_ids(report: Path) -> list[str]:
    """pytest node ids (path::name[param]) of the test cases the junit report marks skipped."""
    ids = []
    for case in ET.parse(report).getroot().iter("testcase"):
        skipped = case.find("skipped")
        if skipped is None or skipped.get("type") == "pytest.xfail":
            continue  # ran (an expected failure is reported as skipped, but it ran)
        parts = case.get("classname", "").split(".")
        name = case.get("name", "")
        if parts == [""]:  # a module skipped as a whole: its dotted path is the name
            ids.append(Path(*name.split(".")).with_suffix(".py").as_posix())
            continue
        # classname is the module's dotted path, then any test classes.
        for cut in range(len(parts), 0, -1):
            path = Path(*parts[:cut]).with_suffix(".py")
            if (ROOT / path).exists():
                ids.append("::".join([path.as_posix(), *parts[cut:], name]))
                break
        else:
            raise SystemExit(f"no test file for {case.get('classname')!r}")
    return ids


def main(argv: list[str]) -> int:
    if argv == ["--list"]:
        print("\n".join(setup_commands((ROOT / "README.md").read_text(encoding="utf-8"))))
        return 0
    if len(argv) == 2 and argv[0] == "--skipped":
        print("\n".join(skipped_ids(Path(argv[1]))))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
