"""Every example of samples/README.md runs as written (issue 35 item 20), with the exit status its
comment gives (``# exit N``), and says what the text around it says it shows. The runner is
README.md's (tests/test_readme.py): the same parsing, scratch directory and skips (Spark lines)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests import test_readme
from tests.test_readme import _skip_reason, examples

scratch = test_readme.scratch  # README.md's scratch directory, as a fixture of this module too

ROOT = Path(__file__).parent.parent
SAMPLES_README = ROOT / "samples" / "README.md"
TEXT = SAMPLES_README.read_text(encoding="utf-8")
ALL = examples(TEXT)

# What an example's output must hold: the claim of the text around it.
SAYS = {
    "--message samples/orders.ndjson:42": ["Message   samples/orders.ndjson:42 ", "Result: FALSE -> not selected"],
    "NOT (weight > 2500)": ["weight (application property) : any  = '2600' (String)", "unlike types (String and int): FALSE",
                            "Result: TRUE -> selected"],
    "samples/orders.ndjson --stats": ["read 3000, TRUE 262, FALSE 2711, UNKNOWN 27, rejected 0, selected 262"],
    "--schema samples/schema.json": ["schema getter refused by the conversion table"],
    "check -f samples/bad-selectors.txt": ["error[E006]: '!=' is not a selector operator"],
}


def _run(command: str, scratch: tuple[Path, dict[str, str]]) -> subprocess.CompletedProcess[str]:
    work, env = scratch
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=600)


def test_the_examples_are_found() -> None:
    assert len(ALL) >= 15 and all(command.startswith("jmsctl ") for _, command, _ in ALL)
    assert all(any(key in command for _, command, _ in ALL) for key in SAYS)


@pytest.mark.parametrize(("line", "command", "status"), ALL, ids=[f"samples/README:{n}" for n, _, _ in ALL])
def test_samples_readme_example_runs(line: int, command: str, status: int, scratch: tuple[Path, dict[str, str]]) -> None:
    reason = _skip_reason(command)
    if reason:
        pytest.skip(reason)
    r = _run(command, scratch)
    assert r.returncode == status, f"samples/README.md:{line}: {command}\nexit {r.returncode}, expected {status}\n{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr
    for key, shown in SAYS.items():
        if key in command:
            for text in shown:
                assert text in r.stdout + r.stderr, f"samples/README.md:{line}: {text!r} not in the output"


_SESSION = re.compile(r"^```\n(\$ jmsctl .*?)^```", re.S | re.M)


@pytest.mark.parametrize("session", _SESSION.findall(TEXT), ids=lambda s: s.splitlines()[0][:60])
def test_a_shown_session_prints_what_it_shows(session: str, scratch: tuple[Path, dict[str, str]]) -> None:
    command, *shown = session.rstrip("\n").splitlines()
    r = _run(command.removeprefix("$ "), scratch)
    assert r.returncode == 0
    assert (r.stdout + r.stderr).splitlines() == shown
