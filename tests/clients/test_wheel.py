"""The bot kit builds as a wheel without a network (setuptools and wheel of the repo's venv),
typed (py.typed), depending on requests alone, and imports from the installed wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_kit_builds_a_typed_wheel_offline_and_installs_from_it(tmp_path):
    build = [sys.executable, "-m", "pip", "wheel", str(ROOT / "clients" / "python")]
    offline = ["--no-deps", "--no-build-isolation", "--no-index", "-w", str(tmp_path / "dist")]
    done = subprocess.run(build + offline, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (tmp_path / "dist").glob("keltis_client-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert {"keltis_client/py.typed", "keltis_client/runner.py"} <= names
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist")]
    assert requires == ["Requires-Dist: requests<3,>=2.31"]
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index"]
    done = subprocess.run([*install, "--target", str(target), str(wheel)], capture_output=True)
    assert done.returncode == 0, done.stderr
    code = (
        "import keltis_client, sys; print(keltis_client.__file__); print(keltis_client.BotRunner)"
    )
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(str(target))
