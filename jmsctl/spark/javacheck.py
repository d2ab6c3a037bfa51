"""Which Java Spark would start on, checked before it starts.

Without this, a missing Java, a ``JAVA_HOME`` that points nowhere or a Java too old for Spark 4
shows as Spark's launcher output and a Py4J stack trace. Here it is one sentence: which Java was
found (and where the choice came from), which is needed, and how to point at another. Spark's
launcher takes ``$JAVA_HOME/bin/java`` when JAVA_HOME is set, else ``java`` on the PATH
(apache/spark, launcher/src/main/java/org/apache/spark/launcher/CommandBuilderUtils.java and
bin/spark-class); so does this check. No pyspark import: it runs before anything of Spark.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

JVM_DIRS = ("/usr/lib/jvm", "/usr/java", "/opt/java", "/Library/Java/JavaVirtualMachines")


class JavaProblem(RuntimeError):
    """No usable Java for Spark: the message says what was found, what is needed, what to do."""


@dataclass(frozen=True)
class Java:
    path: str
    origin: str  # "JAVA_HOME" or "PATH"
    major: int | None  # None when `java -version` could not be read


def required_major() -> int:
    """The Java Spark needs: 17 for Spark 4 (and later), 8 before."""
    try:
        spark_major = int(metadata.version("pyspark").split(".")[0])
    except (metadata.PackageNotFoundError, ValueError):
        spark_major = 4
    return 17 if spark_major >= 4 else 8


_VERSION = re.compile(r'version "(\d+)(?:\.(\d+))?')


def parse_major(version_output: str) -> int | None:
    """``java -version``'s text -> the major version: ``"1.8.0_392"`` is 8, ``"17.0.9"`` 17, ``"21"`` 21."""
    m = _VERSION.search(version_output)
    if not m:
        return None
    first = int(m.group(1))
    return int(m.group(2) or 0) if first == 1 else first


def _version_of(java: str) -> int | None:
    try:
        done = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_major(done.stderr + done.stdout)


def candidates() -> list[str]:
    """Java homes installed in the usual places (to suggest one for JAVA_HOME)."""
    homes: list[str] = []
    for base in JVM_DIRS:
        try:
            entries = sorted(Path(base).iterdir())
        except OSError:
            continue
        for home in entries:
            for java in (home / "bin" / "java", home / "Contents" / "Home" / "bin" / "java"):
                if java.is_file() and not home.is_symlink():
                    homes.append(str(java.parent.parent))
    return homes


def _advice(need: int) -> str:
    found = [h for h in candidates() if (_version_of(str(Path(h) / "bin" / "java")) or 0) >= need]
    example = found[0] if found else f"/path/to/jdk-{need}"
    return f"install Java {need} or later, or point JAVA_HOME at one (export JAVA_HOME={example})"


@functools.lru_cache(maxsize=1)
def check_java() -> Java:
    """The Java Spark will use, if it is recent enough; otherwise JavaProblem with what to do."""
    need = required_major()
    home = os.environ.get("JAVA_HOME")
    if home:
        java = str(Path(home) / "bin" / "java")
        if not os.access(java, os.X_OK) or not Path(java).is_file():
            raise JavaProblem(f"JAVA_HOME is {home}, which has no bin/java: Spark needs Java {need}+; {_advice(need)}")
        found = Java(java, "JAVA_HOME", _version_of(java))
    else:
        path = shutil.which("java")
        if path is None:
            raise JavaProblem(f"no Java found (JAVA_HOME is not set and there is no java on the PATH): Spark needs Java {need}+; {_advice(need)}")
        found = Java(path, "PATH", _version_of(path))
    if found.major is None:
        raise JavaProblem(f"{found.path} (from {found.origin}) did not say its version (java -version): Spark needs Java {need}+; {_advice(need)}")
    if found.major < need:
        raise JavaProblem(f"Java {found.major} found at {found.path} (from {found.origin}), but Spark needs Java {need} or later; {_advice(need)}")
    return found


__all__ = ["Java", "JavaProblem", "candidates", "check_java", "parse_major", "required_major"]
