"""The dump samples of samples/ are what scripts/gen_format_samples.py writes, each is detected as
its format and loads without a rejected record, and the README's "Dump formats" commands run."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from jmsctl.messages.loader import read_records

ROOT = Path(__file__).resolve().parent.parent
FORMATS = {"orders-fmtn-a.json": "fmtn-a", "orders-browse.txt": "activemq-browse", "orders-dmpmqmsg.qload": "ibm-dmpmqmsg"}


def test_committed_samples_are_the_generator_output() -> None:
    spec = importlib.util.spec_from_file_location("gen_format_samples", ROOT / "scripts" / "gen_format_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files = module.render()
    assert set(files) == set(FORMATS)
    for name, data in files.items():
        assert (ROOT / "samples" / name).read_bytes() == data, f"run python scripts/gen_format_samples.py ({name})"


@pytest.mark.parametrize(("name", "fmt"), sorted(FORMATS.items()))
def test_each_sample_is_its_format_and_loads_whole(name: str, fmt: str) -> None:
    reader = read_records(str(ROOT / "samples" / name))
    records = list(reader)
    assert reader.format == fmt and len(records) == 12 and all(r.message is not None for r in records)
    assert all(r.message.source["format"] == fmt for r in records)  # type: ignore[union-attr]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Dump formats", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]


@pytest.mark.parametrize("command", _readme_commands())
def test_readme_dump_format_examples_run_from_the_repository_root(command: str, tmp_path: Path) -> None:
    """Each command as written, from a directory laid out as the repository root (samples/), so that
    one writing a file (-o) writes it there and not into the checkout."""
    bin_dir, work = tmp_path / "bin", tmp_path / "root"
    bin_dir.mkdir()
    work.mkdir()
    (work / "samples").symlink_to(ROOT / "samples")
    shim = bin_dir / "jmsctl"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -m jmsctl \"$@\"\n")
    shim.chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    r = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, cwd=work, env=env, timeout=60, check=False)
    assert r.returncode == 0, (command, r.stderr)
    assert r.stdout.strip() or " -o " in command, command  # output on stdout, or in the file it names
    assert "error" not in r.stderr, r.stderr


def test_explain_finds_a_dump_record_by_the_position_its_location_prints() -> None:
    """Locations of the dump formats carry the message id (and QLOAD's message number) after the
    position: ``explain --message FILE:POS`` still finds the record."""
    def explain(spec: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "jmsctl", "explain", "weight > 2500", "--message", spec],
                              capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)

    r = explain("samples/orders-dmpmqmsg.qload:5")
    assert r.returncode == 0 and "(message 1, ID:414d5120514d31" in r.stdout, r.stderr
    r = explain("samples/orders-fmtn-a.json:[1]")
    assert r.returncode == 0 and "orders-fmtn-a.json:[1] (ID:" in r.stdout, r.stderr
